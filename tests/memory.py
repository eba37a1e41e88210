"""A scratch folder in memory (tmpfs) where the machine has one, for tests that kill processes.

A process killed with SIGKILL leaves its files in memory exactly as on a disk (the kernel
keeps what was written); only the disk's flushes go, which are slow on a busy machine and
which no such test can check (a power cut, not a killed process, would lose what was not
flushed).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MEMORY = Path("/dev/shm")


@contextmanager
def memory_folder(fallback: Path, prefix: str) -> Iterator[Path]:
    """A fresh folder in memory, removed afterwards; ``fallback`` where there is no tmpfs."""
    if not (MEMORY.is_dir() and os.access(MEMORY, os.W_OK)):
        yield fallback
        return
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=MEMORY))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
