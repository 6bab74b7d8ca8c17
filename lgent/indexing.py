"""Keep a brain's derived index current with the catalog: catch up from the change log, or rebuild.

A brain is never served stale: ``sync`` compares the brain's stamped change number with the
catalog's and applies what is missing. A brain that has never been built, or that claims a
change number the catalog never reached (a catalog restored from an older copy), is rebuilt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lgent.brains.base import Brain, ChangeSet
from lgent.catalog.protocol import Catalog

BuildProgress = Callable[[str, int, int], None]
"""Called as ``progress(brain, done, total)`` while a brain builds (the semantic brain reports
entries embedded, the slow part of building a large catalog)."""

REBUILD_FRACTION = 0.5
"""Rebuild instead of catching up when more than this share of the catalog changed."""


@dataclass(frozen=True, slots=True)
class SyncReport:
    brain: str
    action: str  # "current", "caught_up" or "rebuilt"
    from_change: int
    to_change: int
    upserts: int = 0
    removals: int = 0


def sync(brain: Brain, store: Catalog, *, rebuild: bool = False) -> SyncReport:
    """Bring ``brain`` to the catalog's current change number; report what was done."""
    target = store.change_number()
    current = brain.change_number
    if not rebuild and current == target:
        return SyncReport(brain.name, "current", current, target)
    changes = [] if rebuild or current < 0 or current > target else store.changes_since(current)
    changes = [c for c in changes if c.seq <= target]
    entry_ids = list(dict.fromkeys(c.key for c in changes if c.kind == "entry"))
    total = max(store.count(), 1)
    if rebuild or current < 0 or current > target or len(entry_ids) > REBUILD_FRACTION * total:
        brain.build(store.iter_latest(), store.types(), target)
        return SyncReport(brain.name, "rebuilt", current, target, upserts=store.count())
    latest = store.get_many(entry_ids)
    upserts = [latest[i] for i in entry_ids if i in latest]
    removals = [i for i in entry_ids if i not in latest]
    types = store.types() if any(c.kind == "type" for c in changes) else None
    brain.apply_changes(ChangeSet(upserts, removals, types, target))
    return SyncReport(brain.name, "caught_up", current, target, len(upserts), len(removals))
