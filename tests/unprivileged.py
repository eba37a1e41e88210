"""Run a piece of a test as an unprivileged user: a forked child that drops root first.

Permission bits do not stop root, so a test of a file this user may not write runs its work in
a child that becomes ``nobody``. Such a child can read nothing that only root may read, which
may include the checkout itself (a clone in a private folder) and the interpreter's own
library: whatever the work needs must be loaded before the fork. A child that fails in
any way other than the work raising an ``Exception`` is reported as a failure with its error.
"""

from __future__ import annotations

import json
import os
import traceback
from collections.abc import Callable

import pytest

NOBODY = 65534


def as_unprivileged_user(work: Callable[[], object]) -> object:
    """Run ``work`` in a child process that cannot override permission bits; return its result.

    The result travels back as JSON; an ``Exception`` raised by ``work`` comes back as
    ``{"raised": type, "message"}``. Anything else (the child exiting, being killed, failing
    to drop privileges) fails the test with what the child said.
    """
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(reader)
        try:
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            try:
                result = work()
            except Exception as error:
                result = {"raised": type(error).__name__, "message": str(error)}
            payload = json.dumps({"result": result})
        except BaseException:
            payload = json.dumps({"died": traceback.format_exc()})
        try:
            os.write(writer, payload.encode())
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        pytest.fail(f"the unprivileged child answered nothing ({_status_words(status)})")
    answer = json.loads(data)
    if "died" in answer:
        pytest.fail(f"the unprivileged child failed:\n{answer['died']}")
    return answer["result"]


def _status_words(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
