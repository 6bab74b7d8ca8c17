"""Committing what was read: native catalog records upserted, ecosystem sources synced (added,
updated, retired, unchanged: ``reconcile.plan_sync``), all checked first and committed in one
batch, with the report of what happened (or, for a dry run, what would)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lgent.catalog.checks import BatchReport, check_batch
from lgent.catalog.protocol import Catalog
from lgent.catalog.records import BatchResult
from lgent.config import LoadSettings
from lgent.models import CatalogEntry, TypeDecl

if TYPE_CHECKING:
    from lgent.catalog.loaders import LoadedBatch, Progress


def commit_checked(
    store: Catalog, entries: Sequence[CatalogEntry], types: Sequence[TypeDecl]
) -> BatchResult:
    """Check a batch of entries and types against the catalog, then commit it whole."""
    check_batch(store, entries, types)
    return store.register_batch(entries, types)


def commit_loaded(store: Catalog, batch: LoadedBatch, dry_run: bool) -> BatchReport:
    """Commit (or, if ``dry_run``, preview) what a load read: native records as they are,
    ecosystem records synced against what their sources wrote before."""
    from lgent.catalog.reconcile import plan_sync, preview

    native = [r.record for r in batch.records if r.source not in batch.synced]
    synced = [r.record for r in batch.records if r.source in batch.synced]
    plan = plan_sync(
        store,
        [r for r in synced if isinstance(r, CatalogEntry)],
        [r for r in synced if isinstance(r, TypeDecl)],
        batch.wholes,
    )
    native_entries = [r for r in native if isinstance(r, CatalogEntry)]
    native_types = [r for r in native if isinstance(r, TypeDecl)]
    entries, types = [*native_entries, *plan.entries], [*native_types, *plan.types]
    report = check_batch(store, entries, types, located=batch.records)
    if dry_run:
        result = preview(store, native_entries, types)
    else:
        result = store.register_batch(entries, types)
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


def load_path(
    store: Catalog,
    path: Path,
    progress: Progress | None,
    kind: str | None,
    dry_run: bool,
    options: LoadSettings,
    cancelled: Callable[[], bool],
) -> BatchReport:
    """Read ``path`` (a file or folder) and commit what it holds (``commit_loaded``)."""
    from lgent.catalog.loaders import read_path

    batch = read_path(path, progress, kind=kind, options=options, cancelled=cancelled)
    return commit_loaded(store, batch, dry_run)


def changed(result: BatchResult) -> int:
    """How many changes a write recorded."""
    return sum(
        len(part)
        for part in (
            result.added,
            result.updated,
            result.retired,
            result.types_added,
            result.types_updated,
        )
    )
