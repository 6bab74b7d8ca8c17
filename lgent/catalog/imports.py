"""Committing what was written or read: entries registered through the API, and what a load
read (``reconcile.commit_loaded``: native catalog records upserted, ecosystem sources synced,
each credited to its source, all checked first and committed in one batch)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lgent.catalog.checks import BatchReport, check_batch
from lgent.catalog.protocol import Catalog
from lgent.catalog.reconcile import commit_loaded
from lgent.catalog.records import BatchResult, Owner
from lgent.config import LoadSettings
from lgent.models import CatalogEntry, TypeDecl

if TYPE_CHECKING:
    from lgent.catalog.loaders import Progress


def commit_checked(
    store: Catalog,
    entries: Sequence[CatalogEntry],
    types: Sequence[TypeDecl],
    *,
    owner: Owner | None = None,
    writer: str | None = None,
) -> BatchResult:
    """Check a batch of entries and types against the catalog, then commit it whole, each
    entry credited to ``owner`` (default: a writer) and each change to ``writer``."""
    check_batch(store, entries, types)
    owners = None if owner is None else {e.id: owner for e in entries}
    return store.register_batch(entries, types, owners=owners, writer=writer)


def load_path(
    store: Catalog,
    path: Path | Sequence[Path],
    progress: Progress | None,
    kind: str | None,
    dry_run: bool,
    options: LoadSettings,
    cancelled: Callable[[], bool],
) -> BatchReport:
    """Read ``path`` (a file or folder, or several as one batch) and commit what it holds
    (``commit_loaded``)."""
    from lgent.catalog.loaders import read_path

    batch = read_path(
        path, progress, kind=kind, options=options, cancelled=cancelled, declared=store.types()
    )
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
