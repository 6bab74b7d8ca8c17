"""The readers-writer lock queries pin brains with: shared reads, one writer, writers first."""

from __future__ import annotations

import threading
import time

import pytest

from lgent.runtime.rwlock import ReadWriteLock


def started(target: object) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)  # type: ignore[arg-type]
    thread.start()
    return thread


def test_readers_share_and_a_writer_waits_for_all_of_them() -> None:
    lock = ReadWriteLock()
    lock.acquire_read()
    lock.acquire_read()
    assert lock.readers == 2
    wrote = threading.Event()

    def write() -> None:
        with lock.writing():
            wrote.set()

    writer = started(write)
    lock.release_read()
    assert not wrote.wait(0.2)  # one reader still holds it
    lock.release_read()
    assert wrote.wait(5)
    writer.join(5)


def test_a_read_hold_may_be_released_by_another_thread() -> None:
    lock = ReadWriteLock()
    lock.acquire_read()
    releaser = started(lock.release_read)
    releaser.join(5)
    assert lock.readers == 0
    with lock.writing():
        pass


def test_a_waiting_writer_goes_before_new_readers_unless_they_hold_other_locks() -> None:
    lock = ReadWriteLock()
    lock.acquire_read()
    writer = started(lock.acquire_write)
    deadline = time.monotonic() + 5
    while not lock.writers_waiting:  # the writer waits for the reader
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert not lock.try_acquire_read()  # a fresh reader queues behind the waiting writer
    assert lock.try_acquire_read(yield_to_writers=False)  # one holding other locks does not
    lock.release_read()
    lock.release_read()
    writer.join(5)
    assert not lock.try_acquire_read(yield_to_writers=False)  # the writer holds it now
    lock.release_write()
    assert lock.try_acquire_read()


def test_releasing_what_is_not_held_is_an_error() -> None:
    lock = ReadWriteLock()
    with pytest.raises(RuntimeError):
        lock.release_read()
    with pytest.raises(RuntimeError):
        lock.release_write()
