"""The bench's own CPU cgroup: made under the cpu controller, given a quota, holding only the
bench's children, and removed after (cgroup v1 ``cpu.cfs_*`` or v2 ``cpu.max``)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from companion.benchmarks._board import ModelError, Quota

#: Where the cpu controller usually is: v1 (its own mount), then v2 (the unified tree).
ROOTS = (Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup"))
#: A bench child finds here the cgroup to put its daemon children in.
ENV = "COMPANION_BENCH_CGROUP"


@dataclass(frozen=True)
class Controller:
    """A mounted cpu controller: its root folder and its cgroup version (1 or 2)."""

    root: Path
    version: int


def find(roots: Sequence[Path] = ROOTS) -> Controller:
    """The first of ``roots`` that holds a cpu controller the bench can use."""
    for root in roots:
        if (root / "cpu.cfs_quota_us").exists():
            return Controller(root, 1)
        controllers = root / "cgroup.subtree_control"
        if controllers.exists() and "cpu" in controllers.read_text().split():
            return Controller(root, 2)
    places = ", ".join(str(r) for r in roots)
    raise ModelError("no-controller", f"no cgroup cpu controller found at {places}")


def join(folder: Path, pid: int) -> None:
    """Move process ``pid`` into the cgroup at ``folder``."""
    (folder / "cgroup.procs").write_text(f"{pid}\n")


def joiner_from_env() -> Callable[[], None] | None:
    """For a bench child: a ``preexec_fn`` that puts the new process in the cgroup the parent
    bench named (``ENV``), or None if it named none."""
    folder = os.environ.get(ENV)
    if not folder:
        return None
    return lambda: join(Path(folder), os.getpid())


class CpuCgroup:
    """A cgroup of the bench's own with a CPU quota; a context manager that removes it."""

    def __init__(self, controller: Controller, quota: Quota, name: str = "") -> None:
        self.controller = controller
        self.quota = quota
        self.path = controller.root / (name or f"companion-bench-{os.getpid()}")

    def __enter__(self) -> CpuCgroup:
        try:
            self.path.mkdir()
        except OSError as error:
            raise ModelError(
                "unwritable", f"cannot make a cgroup at {self.path}: {error.strerror}"
            ) from None
        try:
            self._limit()
        except BaseException:
            self.remove()
            raise
        return self

    def _limit(self) -> None:
        quota, period = self.quota.quota_us, self.quota.period_us
        try:
            if self.controller.version == 1:
                (self.path / "cpu.cfs_period_us").write_text(f"{period}\n")
                (self.path / "cpu.cfs_quota_us").write_text(f"{quota}\n")
            else:
                (self.path / "cpu.max").write_text(f"{quota} {period}\n")
        except OSError as error:
            raise ModelError(
                "unwritable", f"cannot set a CPU quota in {self.path}: {error.strerror}"
            ) from None
        if not (self.path / "cgroup.procs").exists():
            raise ModelError("not-a-cgroup", f"{self.controller.root} is not a cgroup controller")

    def preexec(self) -> None:
        """Put the calling process in the cgroup (a ``preexec_fn`` for a child)."""
        join(self.path, os.getpid())

    def pids(self) -> list[int]:
        """The processes in the cgroup now."""
        procs = self.path / "cgroup.procs"
        if not procs.exists():
            return []
        return [int(line) for line in procs.read_text().split()]

    def remove(self) -> None:
        """Hand any process still inside back to the bench's own cgroup, then remove it."""
        home = self.controller.root / own_cgroup(self.controller.version).lstrip("/")
        for _ in range(50):
            for pid in self.pids():
                try:
                    join(home, pid)
                except OSError:
                    pass  # it ended meanwhile
            if not self.path.exists():
                return
            try:
                self.path.rmdir()
                return
            except OSError:
                # A plain folder (never a cgroup) holds the files written into it.
                if not (self.path / "cgroup.procs").exists():
                    _remove_plain(self.path)
                    return
                time.sleep(0.02)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.remove()


def _remove_plain(folder: Path) -> None:
    for item in folder.iterdir():
        item.unlink()
    folder.rmdir()


def own_cgroup(version: int, pid: int | str = "self") -> str:
    """The cgroup (path under its controller's root) process ``pid`` is in."""
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        number, controllers, path = line.split(":", 2)
        if version == 2 and number == "0" and controllers == "":
            return path
        if version == 1 and "cpu" in controllers.split(","):
            return path
    return "/"
