"""Keep a brain's derived index current with the catalog: catch up from the change log, or rebuild.

A brain is never served stale without saying so: ``plan_catch_up`` compares the brain's stamped
change number with the catalog's and says what is missing. A catalog row that fails its checksum
is left out of what a brain is built or caught up from (the catalog's ``damage_note`` says so in
every answer), so one damaged row never stops a brain. A brain that has never been built,
that claims a change number the catalog never reached (a catalog restored from an older copy),
or that would have to re-index more than half of the catalog, is rebuilt. ``sync`` does that in
place; the brain pool (``lgent/runtime/brain_pool.py``) does the same steps around the queries reading the
brain, so they keep answering from its last consistent state meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from lgent.brains.base import Brain, ChangeSet, PreparesChanges
from lgent.catalog.protocol import Catalog

BuildProgress = Callable[[str, int, int], None]
"""Called as ``progress(brain, done, total)`` while a brain builds (the semantic brain reports
entries embedded, the slow part of building a large catalog)."""

REBUILD_FRACTION = 0.5
"""Rebuild instead of catching up when more than this share of the catalog changed."""

Action = Literal["current", "caught_up", "rebuilt"]


@dataclass(frozen=True, slots=True)
class SyncReport:
    brain: str
    action: str  # "current", "caught_up" or "rebuilt"
    from_change: int
    to_change: int
    upserts: int = 0
    removals: int = 0


@dataclass(frozen=True, slots=True)
class CatchUpPlan:
    """What bringing one brain to ``target`` takes: nothing, applying ``changes``, or a rebuild
    (``reason`` says why)."""

    brain: str
    action: Action
    from_change: int
    target: int
    changes: ChangeSet | None = None
    reason: str = ""

    def report(self, upserts: int = 0) -> SyncReport:
        if self.changes is not None:
            return SyncReport(
                self.brain,
                self.action,
                self.from_change,
                self.target,
                len(self.changes.upserts),
                len(self.changes.removals),
            )
        return SyncReport(self.brain, self.action, self.from_change, self.target, upserts)


def plan_catch_up(brain: Brain, store: Catalog, *, rebuild: bool = False) -> CatchUpPlan:
    """What ``brain`` needs to reflect the catalog's current change number."""
    target = store.change_number()
    current = brain.change_number
    if not rebuild and current == target:
        return CatchUpPlan(brain.name, "current", current, target)
    reason = (
        "asked"
        if rebuild
        else "never built"
        if current < 0
        else f"it reflects change {current}, ahead of the catalog's {target}"
        if current > target
        else ""
    )
    if reason:
        return CatchUpPlan(brain.name, "rebuilt", current, target, reason=reason)
    changes = [c for c in store.changes_since(current) if c.seq <= target]
    entry_ids = list(dict.fromkeys(c.key for c in changes if c.kind == "entry"))
    total = max(store.count(), 1)
    if len(entry_ids) > REBUILD_FRACTION * total:
        reason = f"{len(entry_ids)} of {total} entries changed"
        return CatchUpPlan(brain.name, "rebuilt", current, target, reason=reason)
    latest = store.get_many(entry_ids, skip_damaged=True)  # a damaged row leaves the index
    upserts = [latest[i] for i in entry_ids if i in latest]
    removals = [i for i in entry_ids if i not in latest]
    types = store.types() if any(c.kind == "type" for c in changes) else None
    changed = ChangeSet(upserts, removals, types, target)
    return CatchUpPlan(brain.name, "caught_up", current, target, changed)


def rebuild_from(brain: Brain, store: Catalog, plan: CatchUpPlan) -> SyncReport:
    """Build ``brain`` from the whole catalog, stamped with ``plan.target``.

    The catalog may have moved on since the plan; the build reads it as it is now and is
    stamped with the plan's target, so the next ``plan_catch_up`` catches up what came after
    (re-applying a change is harmless: every change names the latest state of its entry)."""
    brain.build(store.iter_latest(skip_damaged=True), store.types(), plan.target)
    return plan.report(upserts=brain.status().documents)


def sync(brain: Brain, store: Catalog, *, rebuild: bool = False) -> SyncReport:
    """Bring ``brain`` to the catalog's current change number, in place; report what was done."""
    plan = plan_catch_up(brain, store, rebuild=rebuild)
    if plan.action == "current":
        return plan.report()
    if plan.action == "rebuilt":
        return rebuild_from(brain, store, plan)
    assert plan.changes is not None
    if isinstance(brain, PreparesChanges):
        brain.prepare_changes(plan.changes)
    brain.apply_changes(plan.changes)
    return plan.report()
