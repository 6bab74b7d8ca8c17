"""Reading a large folder's ecosystem sources in worker processes, beside the load's own.

Reading an OpenAPI spec or an MCP server's tool list (parsing it, inferring every operation's
kinds) is pure computation, one source at a time, and most of a large import's cost.
:class:`ReadWorkers` starts ``python -m lgent.catalog.read_workers`` processes (a fresh
interpreter each: nothing of the caller's program is imported again, nothing is forked from its
threads) and hands each an ecosystem source's bytes; the load's process keeps everything else:
walking the folder, the checks on each file, native catalog files, and putting what was read
into the batch in the folder's order, exactly as a read in one process would.

A worker reads a source as ``loaders`` does (``source_reads.read_apart``), with the load's
vocabulary; it answers ``None`` for what is not an ecosystem source (a native file, an
unreadable one, a reader's unexpected failure), which the load then reads itself, so every
error is raised, typed and named, where it always is. A worker that dies, or cannot be
started, has its sources read by the load too: only the time differs.

Messages are pickles, each preceded by its length (8 bytes, big-endian), on the worker's
standard input and output; they only ever pass between this process and its own children.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import selectors
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from lgent.runtime.cores import usable_cores

if TYPE_CHECKING:
    from lgent.catalog.source_reads import SourceRead
    from lgent.kinds import Vocabulary

MIN_BYTES = 4 << 20
"""Folders holding less are read in the load's process: starting a worker costs about half a
second, about what reading 1 MiB of OpenAPI specs costs (a folder of 70 MCP servers' tool
lists, 0.8 MiB, is read faster without)."""
MAX_WORKERS = 4
"""Worker processes at most (each holds one source and its kinds' memo)."""


def worker_count(files: int, size: int) -> int:
    """How many workers read ``files`` files of ``size`` bytes in all: one per core the
    process may use (at most ``MAX_WORKERS``), none for a small folder or a single core."""
    cores = usable_cores()
    if files < 2 or size < MIN_BYTES or cores < 2:
        return 0
    return min(cores, MAX_WORKERS)


def _send(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(8, "big"))
    stream.write(data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    """The next message, or EOFError when the other side has gone."""
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError("the other side closed the pipe")
    size = int.from_bytes(head, "big")
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the other side closed the pipe")
    return pickle.loads(data)


@dataclass
class _Worker:
    process: subprocess.Popen[bytes]
    task: int | None = None
    """The index of the source it is reading (None: idle)."""
    sender: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="lgent-read-feed")
    )
    """Where its sources are written to its pipe: the load's thread goes on taking the other
    workers' answers meanwhile (a source of megabytes goes through the pipe 64 KiB at a time)."""

    def send(self, message: Any) -> None:
        """Write ``message`` on the sender's thread; a worker gone meanwhile shows as the end of
        its answers (``_receive``: EOFError), so a failed write is not raised here."""
        stream = self.process.stdin
        assert stream is not None

        def write() -> None:
            with contextlib.suppress(OSError, ValueError):
                _send(stream, message)

        self.sender.submit(write)


class ReadWorkers:
    """Worker processes reading ecosystem sources with ``vocabulary`` (and the reader named
    ``kind``, when the load names one); use as a context manager: leaving it stops them."""

    COMMAND: tuple[str, ...] = (sys.executable, "-m", "lgent.catalog.read_workers")
    """How a worker is started."""

    def __init__(self, count: int, vocabulary: Vocabulary, kind: str | None) -> None:
        self._workers: list[_Worker] = []
        self._selector = selectors.DefaultSelector()
        try:
            # the modules are found where this process finds them
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
            for _ in range(count):
                try:
                    process = subprocess.Popen(
                        list(self.COMMAND),
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        close_fds=True,
                        env=env,
                    )
                except OSError:  # no process to be had: the load reads without it
                    continue
                worker = _Worker(process)
                assert process.stdin is not None and process.stdout is not None
                self._selector.register(process.stdout, selectors.EVENT_READ, worker)
                self._workers.append(worker)
                try:
                    _send(process.stdin, (vocabulary, kind))
                except OSError:  # it has gone already: the load reads without it
                    self._drop(worker)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> ReadWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop every worker (each exits at the end of its input; one still reading is
        killed)."""
        for worker in self._workers:
            _stop(worker, kill=worker.task is not None)
        self._workers = []
        self._selector.close()

    def read_all(
        self,
        sources: list[tuple[str, str, bytes] | None],
        stopped: Callable[[], bool],
    ) -> Iterator[tuple[int, SourceRead | None]]:
        """Each source's read, in the order of ``sources`` (``(source, suffix, bytes)``;
        None: nothing to read, answered None at once). A source no worker could read is
        answered None (the caller reads it). ``stopped()`` is asked while waiting: True
        stops the reading (the caller raises)."""
        answers: dict[int, SourceRead | None] = {}
        waiting = iter(i for i, s in enumerate(sources) if s is not None)
        next_out = 0
        busy = 0

        def feed(worker: _Worker) -> bool:
            nonlocal busy
            for index in waiting:
                source = sources[index]
                assert source is not None
                worker.task = index
                busy += 1
                worker.send(source)  # a worker gone: its answer ends, and the caller reads it
                return True
            return False

        for worker in list(self._workers):
            feed(worker)
        while next_out < len(sources):
            if sources[next_out] is None or next_out in answers:
                yield next_out, answers.pop(next_out, None)
                next_out += 1
                continue
            if stopped():
                return
            if not self._workers:  # every worker has gone: the caller reads the rest
                answers[next_out] = None
                continue
            for key, _ in self._selector.select(timeout=0.5):
                worker = key.data
                assert worker.process.stdout is not None and worker.task is not None
                index, worker.task = worker.task, None
                busy -= 1
                try:
                    answers[index] = _receive(worker.process.stdout)
                except (EOFError, OSError, pickle.UnpicklingError):
                    answers[index] = None
                    self._drop(worker)
                    continue
                feed(worker)

    def _drop(self, worker: _Worker) -> None:
        if worker.process.stdout is not None:
            self._selector.unregister(worker.process.stdout)
        self._workers.remove(worker)
        worker.task = None
        _stop(worker, kill=True)


def _stop(worker: _Worker, *, kill: bool) -> None:
    """Close a worker's pipes (it exits at the end of its input), killed first if ``kill``,
    and wait for it."""
    process = worker.process
    if kill:
        process.kill()  # a write under way on the sender's thread then fails and ends
    worker.sender.shutdown(wait=True)
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _serve(inp: IO[bytes], out: IO[bytes]) -> None:
    """A worker's loop: the vocabulary and reader first, then one source after another."""
    from lgent.catalog.kind_inference import KindInference
    from lgent.catalog.readers import ReaderRegistry
    from lgent.catalog.source_reads import read_apart

    vocabulary, kind = _receive(inp)
    inference = KindInference(vocabulary)
    readers = ReaderRegistry.default()
    forced = readers.named(kind) if kind is not None else None
    while True:
        try:
            source, suffix, raw = _receive(inp)
        except EOFError:
            return
        try:
            answer = read_apart(source, suffix, raw, readers, forced, inference)
        except Exception:  # read again by the load itself, which raises it where it belongs
            answer = None
        _send(out, answer)


if __name__ == "__main__":
    # the answers go out on a copy of the standard output; anything a library prints goes to
    # the standard error instead of into them
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    _serve(sys.stdin.buffer, answers)
