"""The open brains of a home: each opened on first need, read by queries through a pin, and kept
current with the catalog by its own background indexer.

**Pins.** A query reads each brain it asks through a read hold on that brain's lock, taken when
it first needs the brain and kept until it ends, so every call it makes (classify, answer,
lineage notes, suggestions) sees one state of that brain. A catch-up changes a brain only under
the write hold, between queries. A rebuild makes a new brain beside the old one and swaps it in
without any hold: the queries that pinned the old one finish on it, new ones get the new one,
and the old one is closed once the last query reading it lets go (so a swap never waits for a
gap between queries, nor makes a query wait). A query therefore never sees a brain change under
it (an artifact removed between two calls).

**Indexers.** Each brain has one indexer thread. After a write, or when a query finds the brain
behind the catalog, the indexer plans the catch-up (``indexing.plan_catch_up``), does its slow part
without any hold (embedding new texts, or building the replacement), and takes the write hold
only to apply the result. Progress is kept per brain (``Building``) for the responses. In a
``SNAPSHOT`` home the replacement is built on a thread at a lower OS priority
(``lgent.runtime.priority``); a catch-up under the write hold keeps the queries' priority.

**Freshness.** ``WAIT`` (scripts, the one-shot CLI): a query waits until each brain it asks
reflects the catalog as it was when the query began, except a slow brain (the semantic one)
with more than ``LONG_BUILD`` entries to index: that build is neither waited for nor started by
the query, which answers from the brain's last state (or without it, never built) and says how
far it is and how to finish it. ``COMPLETE`` (``--wait``) waits for that too. ``SNAPSHOT``
(servers): a query answers at once from each brain's last consistent state, and the response
says how far behind it is; only a brain never built is waited for, briefly (``SNAPSHOT_GRACE``),
then reported as not ready with how far its build has come. Either way, a query's results are
only entries the catalog holds at the response's change number (read from a catalog snapshot).

Waiting is deadlock-free: a query waits only for a brain behind its own target, and holds only
brains at or past it; a query that already holds a brain does not queue behind a waiting
catch-up to take its next one (``yield_to_writers=False``), except in ``SNAPSHOT`` mode, where
a query waits for no catch-up and may queue behind one for a brain later in the pool's order
than every brain it holds (so a stream of queries cannot starve a catch-up, and every chain of
waits leads up the order); and a query waits (for a catch-up, for a hold) on the event loop,
never on a worker thread, so waiting queries cannot take the threads that the queries holding
brains need to finish.

**Processes.** Catch-ups of a brain kept on disk take ``<home>/indexes/.<brain>.lock`` (an
advisory file lock), so two processes never write one index at once; ``reopen`` takes in what
another wrote. A read-only home builds in memory a brain whose index on disk is not current.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from lgent.brains.base import Brain, PreparesChanges
from lgent.catalog.protocol import Catalog
from lgent.errors import (
    BuildStoppedError,
    IndexCorruptError,
    IndexError_,
    IndexNotReadyError,
    LGentError,
)
from lgent.runtime.indexing import CatchUpPlan, SyncReport, plan_catch_up, rebuild_from
from lgent.runtime.priority import background_thread
from lgent.runtime.rwlock import ReadWriteLock

if TYPE_CHECKING:
    from lgent.brains.registry import BrainRegistry

SNAPSHOT_GRACE = 0.25
"""Seconds a ``SNAPSHOT`` query waits for a brain that has never been built before it reports
it as not ready (a small catalog's first build fits in it)."""
_FIRST_PAUSE = 0.001
_LAST_PAUSE = 0.02
"""A query waiting for a catch-up or a hold checks again after 1, 2, 4 ... then every 20 ms."""
BUILD_PAUSE = 0.005
"""How long a build pauses at a batch boundary while queries are in flight."""
SLOW_BUILD_PAUSE = 0.05
"""How often a slow build waiting for the quick brains' builds looks again."""
SMALL_WRITE = 100
"""A write of at most this many changes returns once the open brains reflect it (so the next
query sees it, in ``SNAPSHOT`` mode too); a larger one returns once committed."""
WRITE_WAIT = 10.0
"""Seconds a small write waits at most for one brain to reflect it. A brain still building its
index (never built, or rebuilding) is not waited for: it takes the write in with the build, and
queries say it is not ready or behind until then."""


class Freshness(StrEnum):
    """What a query waits for (see the module docstring)."""

    WAIT = "wait"
    """Every brain current, except a slow build of many entries (``LONG_BUILD``)."""
    COMPLETE = "complete"
    """Every brain current, a long build included (``--wait``)."""
    SNAPSHOT = "snapshot"
    """No wait: each brain's last consistent state (servers)."""


LONG_BUILD = 2000
"""A slow brain (``Hints.slow_build``: embedding) with more entries than this to index is not
waited for by a ``WAIT`` query, nor started by it: the query answers without the brain (or from
its last state) and says how to build it."""


@dataclass(slots=True)
class Building:
    """What a brain's indexer is doing: catching up or rebuilding to ``target``, and how far."""

    action: str
    target: int
    reason: str = ""
    stage: str = ""
    done: int = 0
    total: int = 0
    started: float = field(default_factory=time.monotonic)

    def describe(self) -> str:
        """``rebuilding to change 12 (never built): embedding, 3,072 of 10,000 entries, 31%
        (4 s)``."""
        text = f"{self.action} to change {self.target}"
        if self.reason:
            text += f" ({self.reason})"
        steps = [s for s in (self.stage,) if s]
        if self.total:
            steps.append(f"{self.done:,} of {self.total:,} entries, {self.percent}%")
        if steps:
            text += ": " + ", ".join(steps)
        return text + f" ({time.monotonic() - self.started:.0f} s)"

    @property
    def percent(self) -> int:
        """How far the build is, in whole percent (0 before its size is known)."""
        return 0 if not self.total else min(100, self.done * 100 // self.total)


BrainMaker = Callable[["BrainSlot", bool, bool], Brain]
"""``make(slot, fresh, in_memory)``: a new instance of the slot's brain."""
Progress = Callable[[str, int, int], None]


class BrainSlot:
    """One registered brain of an open home: its current instance, its lock and its indexer."""

    def __init__(self, name: str, pool: BrainPool, *, on_disk: bool) -> None:
        self.name = name
        self.pool = pool
        self.on_disk = on_disk
        self.lock = ReadWriteLock()
        self.brain: Brain | None = None
        self.in_memory = False
        """True when a read-only home's index could not be served and was built in memory."""
        self.building: Building | None = None
        self.failure: LGentError | None = None
        self.notes: list[str] = []
        """What went wrong with the persisted index (reported with the next response)."""
        self.last_report: SyncReport | None = None
        self._open_lock = threading.Lock()
        self._state = threading.Condition(threading.RLock())
        self._job: Future[None] | None = None
        self._dirty = False
        self._rebuild = False
        self._thread: ThreadPoolExecutor | None = None
        self._builder: ThreadPoolExecutor | None = None
        """Where a ``SNAPSHOT`` home's rebuilds run: a thread at a lower OS priority."""
        self._pins: dict[int, int] = {}
        """Queries holding each instance (by ``id``): a replaced one is closed at zero."""

    # -- opening -------------------------------------------------------------------------

    def opened(self) -> Brain:
        """The brain, made on the first call (LGentError when it cannot be)."""
        brain = self.brain
        if brain is not None:
            return brain
        with self._open_lock:
            if self.brain is None:
                self.brain = self._open()
            return self.brain

    def _open(self) -> Brain:
        persisted = self._persisted()  # before the brain may clear a damaged index away
        try:
            brain = self.pool.make(self, False, False)
        except IndexError_ as err:
            if not self.pool.read_only:
                raise
            self.in_memory = True
            self.notes.append(
                f"{self.name} index: {err}; the home is read-only, so it is built in memory"
            )
            brain = self.pool.make(self, True, True)
        status = brain.status()
        if not status.ready and status.detail and persisted:
            self.notes.append(f"{self.name} index: {status.detail}")
        return brain

    def _persisted(self) -> bool:
        """Whether an index was written here (a manifest): failing to open it is news."""
        root = self.pool.index_root
        return self.on_disk and root is not None and (root / self.name / "manifest.json").exists()

    # -- reading ---------------------------------------------------------------------------

    async def pin(self, *, yield_to_writers: bool) -> Brain:
        """Take a read hold (waiting on the event loop) and return the instance it holds
        (``unpin(brain)`` releases it)."""
        pause = _FIRST_PAUSE
        while not self.lock.try_acquire_read(yield_to_writers=yield_to_writers):
            if self.pool.closing:
                raise BuildStoppedError(f"the home is closing: the {self.name} brain stopped")
            await asyncio.sleep(pause)
            pause = min(pause * 2, _LAST_PAUSE)
        brain = self._count_pin()
        if brain is None:  # closed meanwhile
            raise BuildStoppedError(f"the home is closing: the {self.name} brain stopped")
        return brain

    def try_pin(self, *, yield_to_writers: bool) -> Brain | None:
        """``pin`` when that needs no waiting: the instance held, or None (nothing taken: the
        hold is not free, or the home is closing)."""
        if not self.lock.try_acquire_read(yield_to_writers=yield_to_writers):
            return None
        return self._count_pin()

    def _count_pin(self) -> Brain | None:
        """With a read hold just taken: the instance it holds, counted among its pins; or, when
        there is none (closed, or the home is closing), None with the hold released."""
        with self._state:
            brain = self.brain
            if brain is not None and not self.pool.closing:
                self._pins[id(brain)] = self._pins.get(id(brain), 0) + 1
                return brain
        self.lock.release_read()
        return None

    def unpin(self, brain: Brain) -> None:
        """Release a hold ``pin`` returned with ``brain``."""
        with self._state:
            left = self._pins[id(brain)] - 1
            if left:
                self._pins[id(brain)] = left
            else:
                del self._pins[id(brain)]
                self._state.notify_all()
        self.lock.release_read()

    @property
    def change_number(self) -> int:
        brain = self.brain
        return -1 if brain is None else brain.change_number

    def progress(self) -> str:
        """What the indexer is doing now ("" when idle)."""
        building = self.building
        if building is not None:
            return building.describe()
        return "catching up: starting" if self._job is not None else ""

    # -- catching up -----------------------------------------------------------------------

    def request(self, *, rebuild: bool = False) -> None:
        """Ask the indexer to bring the brain current (or to rebuild it); returns at once."""
        with self._state:
            if self.pool.closing:
                return
            self._dirty = True
            self._rebuild = self._rebuild or rebuild
            if self._job is None:
                if self._thread is None:
                    self._thread = ThreadPoolExecutor(
                        1, thread_name_prefix=f"lgent-index-{self.name}"
                    )
                self._job = self._thread.submit(self._run)

    def wait_for(self, target: int, timeout: float | None = None) -> bool:
        """Wait until the brain reflects at least change ``target`` (True), or ``timeout``
        seconds passed (False). The indexer's failure is raised; so is BuildStoppedError when
        the home closes meanwhile."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._state:
            while True:
                if self.pool.closing:
                    raise BuildStoppedError(f"the home is closing: the {self.name} brain stopped")
                if self.brain is not None and self.brain.change_number >= target:
                    return True
                if self._job is None:
                    if self.failure is not None:
                        raise self.failure
                    self.request()
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._state.wait(0.5 if left is None else min(left, 0.5))

    async def reach(self, target: int, timeout: float | None = None) -> bool:
        """``wait_for`` on the event loop: the brain reflects ``target`` (True) or ``timeout``
        seconds passed (False); the indexer's failure is raised."""
        deadline = None if timeout is None else time.monotonic() + timeout
        pause = _FIRST_PAUSE
        while True:
            with self._state:
                if self.pool.closing:
                    raise BuildStoppedError(f"the home is closing: the {self.name} brain stopped")
                if self.brain is not None and self.brain.change_number >= target:
                    return True
                if self._job is None:
                    if self.failure is not None:
                        raise self.failure
                    self.request()
            if deadline is not None and time.monotonic() >= deadline:
                return False
            await asyncio.sleep(pause)
            pause = min(pause * 2, _LAST_PAUSE)

    def rebuild_now(self) -> SyncReport:
        """Rebuild from the catalog and wait for it (``lgent reindex``)."""
        return self.catch_up_now(rebuild=True)

    def catch_up_now(self, *, rebuild: bool = False) -> SyncReport:
        """Bring the brain current (or rebuild it) and wait for it; the report of the last
        pass of its indexer (``LGent.catch_up``)."""
        self.opened()
        with self._state:
            self.request(rebuild=rebuild)
            self.settle()
            assert self.last_report is not None
            return self.last_report

    def settle(self) -> None:
        """Wait until the indexer has nothing left to do; its failure is raised, and
        BuildStoppedError when the home closes meanwhile."""
        with self._state:
            while self._job is not None or self._dirty or self._rebuild:
                if self.pool.closing:
                    raise BuildStoppedError(f"the home is closing: the {self.name} build stopped")
                self._state.wait(0.5)
            if self.failure is not None:
                raise self.failure

    @property
    def busy(self) -> bool:
        """A build or catch-up of this brain is asked for or under way."""
        return self._job is not None or self.building is not None

    def _run(self) -> None:
        while True:
            with self._state:
                if not self._dirty or self.pool.closing:
                    self._job = None
                    self._state.notify_all()
                    return
                self._dirty = False
                rebuild, self._rebuild = self._rebuild, False
            try:
                self.last_report = self._sync(rebuild)
                self.failure = None
            except BuildStoppedError:
                pass
            except LGentError as err:
                self.failure = err
            except Exception as err:  # a backend's own error must reach the waiting query typed
                self.failure = IndexError_(f"the {self.name} index: {type(err).__name__}: {err}")
            finally:
                self.building = None
                with self._state:
                    self._state.notify_all()

    def _sync(self, rebuild: bool) -> SyncReport:
        brain = self.opened()
        with self._file_lock():
            plan = plan_catch_up(brain, self.pool.store, rebuild=rebuild)
            if plan.action == "current":
                return plan.report()
            if plan.action == "caught_up" and self.pool.read_only and not self.in_memory:
                plan = CatchUpPlan(
                    plan.brain, "rebuilt", plan.from_change, plan.target, reason="read-only home"
                )
            if plan.action == "rebuilt":
                return self._rebuild_beside(plan)
            action = "catching up"
            self.building = Building(action, plan.target)
            assert plan.changes is not None
            if isinstance(brain, PreparesChanges):
                brain.prepare_changes(plan.changes)
            with self.lock.writing():
                brain.apply_changes(plan.changes)
            self._notify()
            return plan.report()

    def _rebuild_beside(self, plan: CatchUpPlan) -> SyncReport:
        """Build a new instance while queries read the old one, then swap it in. A slow build
        starts only once the quick brains' builds and catch-ups have ended (``between_batches``):
        even its first steps (reading the catalog, loading the model) would slow theirs."""
        self.building = Building("rebuilding", plan.target, plan.reason)
        if self.pool.registry.spec(self.name).hints.slow_build:
            first = self.pool.quick_builds(self.name)
            if first and self.pool.reading == 0:
                self.stage(f"waiting for the {' and '.join(first)} build{'s' * (len(first) > 1)}")
            if self.pool.between_batches(self.name):
                raise BuildStoppedError(f"the home is closing: the {self.name} build stopped")
        in_memory = self.in_memory or self.pool.read_only
        if in_memory and self.pool.read_only:
            self.in_memory = True
        fresh = self.pool.make(self, True, in_memory)
        try:
            if self.pool.freshness == Freshness.SNAPSHOT:  # queries go on: build behind them
                if self._builder is None:
                    self._builder = background_thread(f"lgent-build-{self.name}")
                report = self._builder.submit(rebuild_from, fresh, self.pool.store, plan).result()
            else:
                report = rebuild_from(fresh, self.pool.store, plan)
        except BaseException:
            fresh.close()
            raise
        self._swap(fresh)
        return report

    def reopen(self) -> None:
        """Open the index again from disk (another process rebuilt it) in place of this one."""
        with self._open_lock:
            self._swap(self._open())

    def _swap(self, fresh: Brain) -> None:
        with self._state:  # no hold: queries on the old instance finish on it
            old, self.brain = self.brain, fresh
            self._state.notify_all()
            if old is not None:
                while self._pins.get(id(old)):
                    self._state.wait(0.5)
        if old is not None:
            old.close()

    def _notify(self) -> None:
        with self._state:
            self._state.notify_all()

    def stage(self, name: str) -> None:
        """The build entered step ``name``: kept for the responses, and told to ``progress``
        as ``progress("semantic: loading the model", 0, 0)`` (a total of 0: a step, not a
        count)."""
        building = self.building
        if building is not None:
            building.stage = name
        self.pool.report(f"{self.name}: {name}", 0, 0)

    def step(self, done: int, total: int) -> None:
        building = self.building
        if building is not None:
            building.done, building.total = done, total
        self.pool.report(self.name, done, total)

    @contextlib.contextmanager
    def _file_lock(self) -> Iterator[None]:
        """The cross-process lock of this brain's index folder (none in memory or read-only)."""
        folder = self.pool.index_root
        if folder is None or not self.on_disk or self.pool.read_only:
            yield
            return
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / f".{self.name}.lock").open("a+b") as handle:
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if self.pool.closing:
                        raise BuildStoppedError(
                            f"the home is closing: the {self.name} build stopped"
                        ) from None
                    if self.building is None:
                        self.building = Building("waiting for another process", self.change_number)
                    time.sleep(0.1)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    # -- closing ---------------------------------------------------------------------------

    def close(self) -> None:
        with self._state:
            self._state.notify_all()
            job, thread = self._job, self._thread
        if job is not None:
            with contextlib.suppress(Exception):
                job.result()
        if thread is not None:
            thread.shutdown(wait=True)
        if self._builder is not None:
            self._builder.shutdown(wait=True)
        with self.lock.writing():
            brain, self.brain = self.brain, None
        if brain is not None:
            brain.close()


class BrainPool:
    """Every registered brain of one open home (see the module docstring)."""

    def __init__(
        self,
        registry: BrainRegistry,
        store: Catalog,
        make: BrainMaker,
        *,
        freshness: Freshness = Freshness.WAIT,
        read_only: bool = False,
        index_root: Path | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.registry = registry
        self.store = store
        self.make = make
        self.freshness = freshness
        self.read_only = read_only
        self.index_root = index_root
        self._progress = progress
        self.closing = False
        self.reading = 0
        """Queries (views) in flight: builds give way to them at each batch boundary."""
        self._reading_lock = threading.Lock()
        self._slots = {
            spec.name: BrainSlot(spec.name, self, on_disk=spec.index_files is not None)
            for spec in registry
        }
        first = [registry.question_reader] if registry.question_reader else []
        names = [*first, *(n for n in registry.names if n not in first)]
        self.order = {name: n for n, name in enumerate(names)}
        """The order queries pin brains in most often (the question reader first: it
        classifies): a ``SNAPSHOT`` query holding only earlier brains yields to a waiting
        catch-up of a later one (``BrainView._may_yield``)."""

    def pending_note(self, name: str, target: int) -> str:
        """What brain ``name`` has left to reach ``target`` and who builds it: the note of a
        long build (``long_build``), or, for a short one, that the first query needing it
        builds it."""
        long = self.long_build(name, target)
        if long is not None:
            return long
        slot = self._slots[name]
        pending = self.store.count() if slot.change_number < 0 else target - slot.change_number
        return (
            f"{pending:,} entries to index: the first query that needs it builds them (`lgent "
            "reindex` or `--wait` does it now)"
        )

    def long_build(self, name: str, target: int) -> str | None:
        """Why brain ``name`` is not waited for to reach ``target`` (a sync call: it reads the
        catalog): a slow brain with more than ``LONG_BUILD`` entries to index; None when it is
        waited for."""
        spec = self.registry.spec(name)
        slot = self._slots[name]
        if not spec.hints.slow_build:
            return None
        building = slot.building
        if slot.change_number < 0 or (building is not None and building.action == "rebuilding"):
            pending = self.store.count()
        else:
            pending = target - slot.change_number
        if pending <= LONG_BUILD:
            return None
        doing = building.describe() if building is not None else _cached_so_far(slot, pending)
        rate = spec.hints.build_rate
        minutes = f", about {max(1, round(pending / rate / 60))} min" if rate else ""
        return (
            f"{doing}; {pending:,} entries to index{minutes}, not waited for: `lgent reindex` "
            "builds it now, `lgent serve` in the background; `--wait` (freshness='complete') "
            "waits for it"
        )

    def slot(self, name: str) -> BrainSlot:
        self.registry.spec(name)  # an unknown name is a QueryError naming the known ones
        return self._slots[name]

    def slots(self) -> list[BrainSlot]:
        return list(self._slots.values())

    def report(self, name: str, done: int, total: int) -> None:
        if self._progress is not None:
            self._progress(name, done, total)

    def current(self, name: str) -> Brain:
        """Brain ``name`` brought to the catalog's current change number (waiting for it)."""
        slot = self.slot(name)
        slot.opened()
        slot.wait_for(self.store.change_number())
        brain = slot.brain
        if brain is None:
            raise BuildStoppedError(f"the {name} brain is closed")
        return brain

    def after_write(self, change_number: int, changes: int) -> None:
        """A write committed: every open brain catches up; a small write waits for that
        (``WRITE_WAIT`` at most per brain, and not for a brain that is still building)."""
        for slot in self._slots.values():
            brain = slot.brain
            if brain is None:
                continue
            building = slot.building
            still_building = brain.change_number < 0 or (
                building is not None and building.action == "rebuilding"
            )
            slot.request()
            if changes <= SMALL_WRITE and not still_building:
                with contextlib.suppress(LGentError):  # the next query reports a failure
                    slot.wait_for(change_number, timeout=WRITE_WAIT)

    def settle_open(self, *, rebuild: bool = False) -> None:
        """Every open brain catches up (or rebuilds), all at once on their own indexers; this
        waits for them all and raises the first failure (a replica's follower after a pull)."""
        opened = [slot for slot in self._slots.values() if slot.brain is not None]
        for slot in opened:
            slot.request(rebuild=rebuild)
        failures: list[LGentError] = []
        for slot in opened:
            try:
                slot.settle()
            except LGentError as err:
                failures.append(err)
        if failures:
            raise failures[0]

    def view(self, target: int) -> BrainView:
        """The brains as one query at catalog change ``target`` reads them (from any thread)."""
        with self._reading_lock:
            self.reading += 1
        return BrainView(self, target)

    def view_ended(self) -> None:
        """A view was released: one query fewer in flight."""
        with self._reading_lock:
            self.reading -= 1

    def between_batches(self, name: str | None = None) -> bool:
        """What brain ``name``'s build asks at each batch boundary: True when the home is
        closing (stop); otherwise it returns False, after a short pause when queries are in
        flight, so a build on the same cores leaves them room. A slow build (``slow_build``)
        first waits while another brain's build or catch-up is asked for or runs (``busy``):
        the quick brains of a large load are current sooner, and answer while the slow one
        goes on."""
        if self.closing:
            return True
        if name is not None and self.registry.spec(name).hints.slow_build:
            # never while a query is in flight: it may hold a quick brain whose catch-up waits
            # for it to finish, while it waits for this build
            while not self.closing and self.reading == 0 and self.quick_builds(name):
                time.sleep(SLOW_BUILD_PAUSE)
        if self.reading > 0:
            time.sleep(BUILD_PAUSE)
        return self.closing

    def quick_builds(self, name: str) -> list[str]:
        """The brains other than ``name``, not slow to build, whose build or catch-up is asked
        for or under way (``BrainSlot.busy``): what a slow build waits for."""
        return [
            slot.name
            for slot in self._slots.values()
            if slot.name != name
            and slot.busy
            and not self.registry.spec(slot.name).hints.slow_build
        ]

    def close(self) -> None:
        self.closing = True
        for slot in self._slots.values():
            slot.close()


def _cached_so_far(slot: BrainSlot, pending: int) -> str:
    """How far a build no indexer of this process runs has come: the vectors its cache holds
    (another process may be building, or a build was stopped), as a share of what it needs."""
    brain = slot.brain
    cached = brain.status().extra.get("cached_vectors") if brain is not None else None
    if not isinstance(cached, int) or cached <= 0:
        return "not started"
    done = min(cached, pending)
    return f"building, about {done:,} of {pending:,} entries embedded, {done * 100 // pending}%"


class BrainView:
    """The brains one query reads: each opened, brought far enough (per the pool's freshness)
    and pinned on first use, released together by ``release``."""

    def __init__(self, pool: BrainPool, target: int) -> None:
        self.pool = pool
        self.target = target
        self._pinned: dict[str, Brain] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._released = False
        self.waited: dict[str, float] = {}

    async def acquire(self, name: str) -> Brain:
        """Brain ``name`` for this query (LGentError when it cannot open or is not ready)."""
        brain = self._pinned.get(name)
        if brain is not None:
            return brain
        async with self._locks.setdefault(name, asyncio.Lock()):
            brain = self._pinned.get(name)
            if brain is not None:
                return brain
            slot = self.pool.slot(name)
            if slot.brain is None:
                await asyncio.to_thread(slot.opened)
            started = time.monotonic()
            freshness = self.pool.freshness
            long = None
            if freshness == Freshness.WAIT and slot.change_number < self.target:
                long = await asyncio.to_thread(self.pool.long_build, name, self.target)
            if (slot.change_number < self.target or slot.failure is not None) and long is None:
                slot.request()  # a one-shot query starts no long build (the note says how)
            if freshness == Freshness.COMPLETE or (freshness == Freshness.WAIT and not long):
                await slot.reach(self.target)
            elif long is not None and slot.change_number < 0:
                raise IndexNotReadyError(f"the {name} index is not built yet: {long}")
            elif slot.change_number < 0 and not await slot.reach(self.target, SNAPSHOT_GRACE):
                doing = slot.progress() or "starting"
                raise IndexNotReadyError(f"the {name} index is not built yet: {doing}")
            waited = time.monotonic() - started
            if waited > 0.05:
                self.waited[name] = waited
            brain = await slot.pin(yield_to_writers=self._may_yield(name))
            if self._released:  # the query ended (cancelled) while this part of it waited
                slot.unpin(brain)
                raise BuildStoppedError(f"the query that asked for the {name} brain has ended")
            self._pinned[name] = brain
            return brain

    def _may_yield(self, name: str) -> bool:
        """Whether pinning ``name`` may wait behind a catch-up waiting for its write hold (so
        that a steady stream of queries cannot starve it): for a query's first brain; in a
        ``SNAPSHOT`` home also when every brain this query holds comes before ``name`` in the
        pool's ``order``. Each wait behind a writer then leads up the order, and a writer waits
        only for readers: no cycle of waits. (A ``WAIT`` query may also wait for a brain's
        catch-up while it holds others, so it never queues behind a writer once it holds one.)"""
        if not self._pinned:
            return True
        if self.pool.freshness != Freshness.SNAPSHOT:
            return False
        order = self.pool.order
        return all(order[held] < order[name] for held in self._pinned)

    def try_acquire(self, name: str) -> Brain | None:
        """Brain ``name`` for this query when that needs no waiting (a sync call, from any one
        thread at a time): it is open and has not failed, reflects ``target`` (``WAIT``) or
        has been built (``SNAPSHOT``: one behind is asked to catch up, as ``acquire`` does),
        and its read hold is free. None otherwise: ``acquire`` on the event loop waits."""
        brain = self._pinned.get(name)
        if brain is not None:
            return brain
        slot = self.pool.slot(name)
        if slot.brain is None or slot.failure is not None or self._released:
            return None
        if slot.change_number < self.target:
            if self.pool.freshness != Freshness.SNAPSHOT or slot.change_number < 0:
                return None  # ``acquire`` waits, or answers from the last state of a long build
            slot.request()
        brain = slot.try_pin(yield_to_writers=self._may_yield(name))
        if brain is not None:
            self._pinned[name] = brain
        return brain

    def question_reader(self) -> str | None:
        return self.pool.registry.question_reader

    def failed(self, name: str, err: LGentError) -> None:
        """A brain's answer failed: a damaged index is rebuilt beside the one pinned now."""
        if isinstance(err, IndexCorruptError):
            slot = self.pool.slot(name)
            slot.notes.append(f"{name} index: {err}; it is being rebuilt from the catalog")
            slot.request(rebuild=True)

    def reflects(self, name: str) -> int | None:
        """The change number of the state this query read of ``name`` (None: not read)."""
        brain = self._pinned.get(name)
        return None if brain is None else brain.change_number

    def progress(self, name: str) -> str:
        return self.pool.slot(name).progress()

    def notes(self) -> list[str]:
        """What went wrong with a persisted index since the last response (said once)."""
        found: list[str] = []
        for slot in self.pool.slots():
            while slot.notes:
                found.append(slot.notes.pop(0))
        return found

    def release(self) -> None:
        """Release every hold this query took (a part of it still waiting takes none)."""
        if not self._released:
            self.pool.view_ended()
        self._released = True
        pinned, self._pinned = self._pinned, {}
        for name, brain in pinned.items():
            self.pool.slot(name).unpin(brain)
