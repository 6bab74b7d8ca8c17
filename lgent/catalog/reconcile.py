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

Only what the importing source itself wrote is updated or retired (``lgent.catalog.ownership``):
``commit_loaded`` leaves out a whole ecosystem source that claims an artifact another source owns
(named in the report's ``rejected``), and a retirement never reaches a part another source wrote.

Shared base types (``json.string``, ``List``...) are declared only where the catalog lacks them,
and so are the value kinds a load of ecosystem sources brings (``LoadedBatch.kind_types``): a
catalog's own declaration of a kind stays as it is.
``plan_sync`` reads the store and returns the plan; ``commit_loaded`` checks and commits a whole
load in one ``register_batch``, each entry credited to the source it was read from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lgent.catalog.checks import BatchReport, check_batch
from lgent.catalog.ownership import owner_of_source, refusals
from lgent.catalog.protocol import Catalog
from lgent.catalog.records import BatchResult, Owner
from lgent.errors import NotFoundError, OwnershipError
from lgent.models import CatalogEntry, Status, TypeDecl
from lgent.versions import with_revision

if TYPE_CHECKING:
    from lgent.catalog.loaders import LoadedBatch

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
    owners: Mapping[str, Owner] | None = None,
) -> SyncPlan:
    """The sync of ``entries`` and ``types`` (read from ecosystem sources) against ``store``;
    ``wholes`` are the ids whose parts not in ``entries`` are retired. ``owners`` (id -> the
    source importing it): a part is retired only when its whole's source wrote it."""
    # the readers' package loads the YAML parser: only a sync, never a query, pays for it
    from lgent.catalog.readers.schema_types import SHARED_TYPES

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
    whole_of = {p: w for w, ids in parts.items() for p in ids if p not in imported}
    gone = sorted(whole_of)
    if owners is not None:
        held = store.owners(gone)
        gone = [p for p in gone if held.get(p) == owners.get(whole_of[p])]
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


def commit_loaded(store: Catalog, batch: LoadedBatch, dry_run: bool) -> BatchReport:
    """Check and commit (or, ``dry_run``, only report) everything a load read: native records
    upserted, ecosystem records synced (``plan_sync``), each entry credited to the source it was
    read from. An ecosystem source that claims an artifact another source owns is left out and
    named in ``rejected`` (a live harvest, ``batch.harvested``, raises the ``OwnershipError``);
    a native file that does is an ``OwnershipError`` and nothing is committed."""
    owners = _source_owners(store, batch)
    native = [r.record for r in batch.records if r.source not in batch.synced]
    synced = [r.record for r in batch.records if r.source in batch.synced]
    stored = {t.type for t in store.types()} if batch.kind_types else set()
    plan = plan_sync(
        store,
        [r for r in synced if isinstance(r, CatalogEntry)],
        [
            *(r for r in synced if isinstance(r, TypeDecl)),
            *(t for t in batch.kind_types if t.type not in stored),
        ],
        batch.wholes,
        owners,
    )
    owners.update(store.owners(plan.retired))  # a retired part keeps its (the whole's) owner
    native_entries = [r for r in native if isinstance(r, CatalogEntry)]
    native_types = [r for r in native if isinstance(r, TypeDecl)]
    entries, types = [*native_entries, *plan.entries], [*native_types, *plan.types]
    report = check_batch(store, entries, types, located=batch.records)
    if dry_run:
        result = preview(store, native_entries, types)
    else:
        result = store.register_batch(entries, types, owners=owners)
    planned = {*plan.added, *plan.updated, *plan.retired}
    result.added = [i for i in result.added if i not in planned] + plan.added
    result.updated = [i for i in result.updated if i not in planned] + plan.updated
    result.retired = plan.retired
    result.unchanged = [*result.unchanged, *plan.unchanged]
    report.result = result
    report.dry_run = dry_run
    report.files = batch.files
    report.skipped = batch.skipped
    report.rejected = batch.rejected
    report.warnings = [*batch.warnings, *report.warnings]
    return report


def _source_owners(store: Catalog, batch: LoadedBatch) -> dict[str, Owner]:
    """Each entry id of ``batch`` -> the owner of the source it was read from, after leaving out
    the ecosystem sources that claim what another source owns (see ``commit_loaded``)."""
    by_source: dict[str, Owner] = {}
    claims: list[tuple[str, str]] = []  # (source, artifact id)
    for item in batch.records:
        if isinstance(item.record, CatalogEntry):
            if item.source not in by_source:
                by_source[item.source] = owner_of_source(
                    item.source, imported=item.source in batch.synced
                )
            claims.append((item.source, item.record.id))
    held = store.owners(sorted({i for _, i in claims}))
    refused: dict[str, OwnershipError] = {}
    for source, artifact_id in claims:
        if source in refused:
            continue
        found = refusals(held, [(artifact_id, by_source[source])])
        if found:
            refused[source] = found[0]
    for source, err in refused.items():
        if source not in batch.synced or batch.harvested:
            raise err
        batch.leave_out(source, str(err))
    return {
        item.record.id: by_source[item.source]
        for item in batch.records
        if isinstance(item.record, CatalogEntry)
    }
