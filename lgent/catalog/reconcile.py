"""Re-import as a sync: what importing a source again adds, updates, retires and leaves alone.

For each imported artifact, compared with the latest stored version (ignoring the version text,
and keeping what the catalog measured itself: success rate, usage, last use, latency):

* not in the catalog: **added**;
* the same content: **unchanged**, nothing written;
* changed: **updated**, as a new version beside the older ones. When the source did not change
  its version text (an MCP server rarely does), the new version is that text marked as a revision
  (``1.0.0+r2``: ``lgent.versions.with_revision``), so the history keeps every state.

A *whole* (an MCP server, an API, an agent) whose parts are imported is also the scope of
**retirement**: a part the catalog holds (``part_of`` it) that the source no longer lists is
retired: its latest version is kept with status ``retired``. A retired part that comes back is
updated to what the source says.

Shared base types (``json.string``, ``List``...) are declared only where the catalog lacks them.
Nothing here writes: ``plan_sync`` reads the store and returns the plan; committing it is one
``register_batch``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lgent.catalog.protocol import Catalog
from lgent.catalog.readers.schema_types import SHARED_TYPES
from lgent.catalog.records import BatchResult
from lgent.errors import NotFoundError
from lgent.models import CatalogEntry, Status, TypeDecl
from lgent.versions import with_revision

MEASURED = ("success_rate", "usage_count", "last_used", "latency_ms")
"""Fields the catalog measures itself: a re-import that does not set them keeps the stored ones."""


@dataclass(slots=True)
class SyncPlan:
    """What a sync would write (``entries``, ``types``) and the report of it."""

    entries: list[CatalogEntry] = field(default_factory=list)
    types: list[TypeDecl] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)


def _content(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "version"}


def plan_sync(
    store: Catalog,
    entries: Sequence[CatalogEntry],
    types: Iterable[TypeDecl],
    wholes: Iterable[str] = (),
) -> SyncPlan:
    """The sync of ``entries`` and ``types`` (read from ecosystem sources) against ``store``;
    ``wholes`` are the ids whose parts not in ``entries`` are retired."""
    plan = SyncPlan()
    stored_types = {t.type for t in store.types()}
    seen_types: dict[str, TypeDecl] = {}
    for decl in types:
        if decl.type in SHARED_TYPES and decl.type in stored_types:
            continue
        seen_types.setdefault(decl.type, decl)
    plan.types = list(seen_types.values())

    latest = store.get_many([e.id for e in entries])
    for item in entries:
        before = latest.get(item.id)
        if before is None:
            plan.entries.append(item)
            plan.added.append(item.id)
            continue
        record = item.to_record()
        kept = before.to_record()
        for name in MEASURED:
            default = CatalogEntry.model_fields[name].default
            if record.get(name, default) == default and name in kept:
                record[name] = kept[name]
        if _content(record) == _content(kept):
            plan.unchanged.append(item.id)
            continue
        versions = set(store.versions(item.id))
        version = item.version
        revision = 2
        while version in versions:
            version = with_revision(item.version, revision)
            revision += 1
        record["version"] = version
        plan.entries.append(CatalogEntry.parse(record))
        plan.updated.append(item.id)

    imported = {e.id for e in entries}
    parts = store.parts_of(sorted(set(wholes)))
    gone = sorted({p for ids in parts.values() for p in ids if p not in imported})
    for part_id, entry in sorted(store.get_many(gone).items()):
        if entry.status != Status.RETIRED:
            plan.entries.append(entry.model_copy(update={"status": Status.RETIRED}))
            plan.retired.append(part_id)
    return plan


def preview(
    store: Catalog, entries: Sequence[CatalogEntry], types: Sequence[TypeDecl]
) -> BatchResult:
    """What ``store.register_batch(entries, types)`` would report, without writing."""
    result = BatchResult(change_number=store.change_number())
    for item in entries:
        try:
            same = store.get(item.id, item.version).to_record() == item.to_record()
        except NotFoundError:
            same = False
            if not store.exists(item.id):
                result.added.append(item.id)
                continue
        (result.unchanged if same else result.updated).append(item.id)
    stored = {t.type: t for t in store.types()}
    for decl in types:
        before = stored.get(decl.type)
        if before is None:
            result.types_added.append(decl.type)
        elif before == decl:
            result.types_unchanged.append(decl.type)
        else:
            result.types_updated.append(decl.type)
    return result
