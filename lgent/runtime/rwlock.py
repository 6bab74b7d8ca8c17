"""A readers-writer lock whose read side may be released by another thread than took it.

Queries read a brain from several worker threads (fusion runs each call where it fits), so a
query's read hold is a count, not a thread's possession. Writers are preferred: once a writer
waits, new readers wait behind it, so a steady stream of queries cannot starve a catch-up.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class ReadWriteLock:
    """Many readers or one writer; a waiting writer goes before readers that arrive after it."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._readers = 0
        self._writing = False
        self._writers_waiting = 0

    def acquire_read(self, *, yield_to_writers: bool = True) -> None:
        """Take a read hold. ``yield_to_writers=False`` waits only for an active writer, not
        for waiting ones: for a reader that already holds other locks, so that a writer waiting
        on one of those cannot make it wait in turn (no cycle of waits)."""
        with self._cond:
            while self._writing or (yield_to_writers and self._writers_waiting):
                self._cond.wait()
            self._readers += 1

    def try_acquire_read(self, *, yield_to_writers: bool = True) -> bool:
        """Take a read hold if that needs no waiting (see ``acquire_read``); True if taken."""
        with self._cond:
            if self._writing or (yield_to_writers and self._writers_waiting):
                return False
            self._readers += 1
            return True

    def release_read(self) -> None:
        with self._cond:
            if self._readers <= 0:
                raise RuntimeError("release_read without a read hold")
            self._readers -= 1
            if not self._readers:
                self._cond.notify_all()

    def acquire_write(self) -> None:
        with self._cond:
            self._writers_waiting += 1
            try:
                while self._writing or self._readers:
                    self._cond.wait()
            finally:
                self._writers_waiting -= 1
            self._writing = True

    def release_write(self) -> None:
        with self._cond:
            if not self._writing:
                raise RuntimeError("release_write without the write hold")
            self._writing = False
            self._cond.notify_all()

    @contextmanager
    def reading(self) -> Iterator[None]:
        self.acquire_read()
        try:
            yield
        finally:
            self.release_read()

    @contextmanager
    def writing(self) -> Iterator[None]:
        self.acquire_write()
        try:
            yield
        finally:
            self.release_write()

    @property
    def readers(self) -> int:
        with self._cond:
            return self._readers

    @property
    def writers_waiting(self) -> int:
        with self._cond:
            return self._writers_waiting
