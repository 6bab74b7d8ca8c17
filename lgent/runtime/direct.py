"""Searching one brain directly, in as few hops as the brain and the catalog allow.

A quick brain (``Hints.quick_reads``: the keyword brain) is searched on the event loop itself
when its read hold and the catalog (``ReadsWithoutWaiting``) can both be had at once and at most
``ON_LOOP_LIMIT`` hits are asked for; otherwise the whole search runs in one call where the
brain's calls run, when it is open, current enough and free to read; else (it must be opened,
caught up or waited for) the pin is awaited on the event loop, as every query's is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lgent.brains.base import Brain, BrainQuery
from lgent.brains.registry import BrainRegistry
from lgent.catalog.protocol import Catalog, ReadsWithoutWaiting
from lgent.catalog.records import Snapshot
from lgent.errors import LGentError
from lgent.fusion.direct import direct_result
from lgent.models import SearchResult
from lgent.runtime.brain_pool import BrainPool, BrainView
from lgent.runtime.doors import Doors

ON_LOOP_LIMIT = 50
"""The most hits a direct search of a quick brain may ask for and still run on the event loop:
explaining each shown hit takes about 20 µs, so up to 50 keep the loop's other work waiting
about a millisecond at most; a larger page goes to a thread."""


class DirectSearch:
    """Direct searches of the brains of one open home."""

    def __init__(
        self,
        registry: BrainRegistry,
        pool: BrainPool,
        doors: Doors,
        store: Catalog,
        note: Callable[[], str | None],
    ) -> None:
        """``note()``: why answers may not reflect the shared catalog (a replica's lag)."""
        self.registry, self.pool, self.doors, self.store, self.note = (
            registry,
            pool,
            doors,
            store,
            note,
        )

    async def search(self, name: str, asked: BrainQuery) -> SearchResult:
        """Brain ``name``'s answer to ``asked``, explained."""
        quick = self.registry.spec(name).hints.quick_reads and asked.limit <= ON_LOOP_LIMIT
        now = self.store if isinstance(self.store, ReadsWithoutWaiting) else None
        if quick and now is not None:
            self.doors.check_open()
            number = now.change_number_now()
            here = None if number is None else self._at(number, name, asked, now.snapshot_now)
            if here is not None:
                return here
        at_once = await self.doors.brain(name, lambda: self._at_once(name, asked))
        if at_once is not None:
            return at_once
        view = self.pool.view(await self.doors.read(self.store.change_number))
        try:
            found = await view.acquire(name)
            answer = await self.doors.brain(
                name, lambda: self._in(view, name, found, asked, self.store.snapshot)
            )
            assert answer is not None  # ``snapshot`` always reads
            return answer
        finally:
            view.release()

    def _at_once(self, name: str, asked: BrainQuery) -> SearchResult | None:
        """The search in one sync call, if the brain can be read without waiting; else None."""
        return self._at(self.store.change_number(), name, asked, self.store.snapshot)

    def _at(
        self,
        number: int,
        name: str,
        asked: BrainQuery,
        read: Callable[[Sequence[str]], Snapshot | None],
    ) -> SearchResult | None:
        """The search at catalog change ``number`` when brain ``name`` can be read without
        waiting (``BrainView.try_acquire``) and ``read`` reads the hits' entries; else None."""
        view = self.pool.view(number)
        try:
            found = view.try_acquire(name)
            if found is None:
                return None
            return self._in(view, name, found, asked, read)
        finally:
            view.release()

    def _in(
        self,
        view: BrainView,
        name: str,
        found: Brain,
        asked: BrainQuery,
        read: Callable[[Sequence[str]], Snapshot | None],
    ) -> SearchResult | None:
        """The answer of brain ``found`` (pinned in ``view``), explained (``direct_result``);
        None when ``read`` could not read the hits' entries without waiting."""
        try:
            answer = found.answer(asked)
            held = read([i for i, _ in answer.ranking])
            if held is None:
                return None
            note = self.note()
            return direct_result(asked, answer, held, (*view.notes(), *((note,) if note else ())))
        except LGentError as err:
            view.failed(name, err)
            raise
