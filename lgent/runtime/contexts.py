"""How the brain pool makes a brain: a ``BrainContext`` for its factory (its index folder, the
settings, the embedder, progress and cancellation hooks, the catalog lookup), and the made brain
checked against the capabilities its spec declares."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lgent.brains.base import Brain
from lgent.brains.registry import BrainContext, BrainRegistry
from lgent.catalog.protocol import Catalog
from lgent.config import Settings
from lgent.home import Home
from lgent.runtime.brain_pool import BrainPool, BrainSlot, Freshness

if TYPE_CHECKING:
    from lgent.brains.semantic.embedders import Embedder


@dataclass(frozen=True, slots=True)
class BrainMaker:
    """Makes the brains of one home (the pool calls it with the slot, whether a build from the
    catalog follows, and whether the index is kept in memory only)."""

    home: Home
    store: Catalog
    settings: Settings
    registry: BrainRegistry
    embedder: Embedder | None
    read_only: bool
    freshness: Freshness
    pool: Callable[[], BrainPool]
    """The pool the brains live in (made after this maker)."""

    def __call__(self, slot: BrainSlot, fresh: bool, in_memory: bool) -> Brain:
        pool = self.pool()
        context = BrainContext(
            index_dir=None if in_memory else self.home.index_dir(slot.name),
            settings=self.settings,
            embedder=self.embedder,
            progress=slot.step,
            entries=self.store.get_many,
            stage=slot.stage,
            fresh=fresh,
            read_only=self.read_only and not in_memory,
            cancelled=lambda: pool.between_batches(slot.name),
            background=self.freshness == Freshness.SNAPSHOT,
            replacing=slot.brain if fresh else None,
        )
        spec = self.registry.spec(slot.name)
        return spec.made(spec.factory(context))
