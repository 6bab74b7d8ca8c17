"""The catalog's verbs of the facade: register, load and import, read, list and remove.

A view of the home (``AccessVerbs``: a reader's scope, listing filters) answers every read
as if the catalog held only what it sees, and writes only what its scope may write, naming
its writer in the change log."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lgent import limits
from lgent.catalog.checks import BatchReport
from lgent.catalog.imports import changed, commit_checked, load_path
from lgent.catalog.protocol import Catalog
from lgent.catalog.reconcile import commit_loaded
from lgent.catalog.records import BatchResult, Change, EntryFilter
from lgent.config import Settings
from lgent.errors import AccessDeniedError, LoadError, NotFoundError
from lgent.ids import stable_id
from lgent.models import CatalogEntry, TypeDecl
from lgent.runtime.brain_pool import BrainPool
from lgent.runtime.doors import Doors
from lgent.validation import (
    as_entries,
    as_model,
    as_paths,
    as_text,
    bad,
    check_offset,
    check_version,
)
from lgent.verbs.access_verbs import AccessVerbs

if TYPE_CHECKING:
    from lgent.catalog.loaders import Progress
    from lgent.catalog.readers.base import Document


class CatalogVerbs(AccessVerbs):
    """What an open home offers on its catalog (every write through the one writer door)."""

    store: Catalog
    doors: Doors
    brains: BrainPool
    settings: Settings

    def _may_import(self) -> None:
        """A load or an import writes whatever its source holds: only a scope that writes
        every namespace may make one."""
        if "*" not in self.scope.write:
            name = self.scope.name or "this caller"
            raise AccessDeniedError(
                self.scope.name,
                f"{name} may not load or import: that needs a scope that writes every "
                'namespace (write = ["*"]); nothing was written',
            )

    def _written(self, result: BatchResult, changes: int) -> None:
        """After a commit: the open brains catch up (a small write waits for them)."""
        if changes:
            self.brains.after_write(result.change_number, changes)

    async def register(self, entry: CatalogEntry | Mapping[str, Any]) -> BatchResult:
        """Add or update one entry (or a mapping of its fields). A new version keeps the older."""
        return await self.register_many([as_model(entry, CatalogEntry, "entry")])

    async def register_many(
        self, entries: Iterable[CatalogEntry], types: Iterable[TypeDecl] = ()
    ) -> BatchResult:
        """Add or update entries (and type declarations) in one atomic batch."""
        checked = as_entries(entries)
        declared = [as_model(t, TypeDecl, f"types[{i}]") for i, t in enumerate(types)]
        if len(checked) > limits.MAX_BATCH_ENTRIES:
            limit = limits.MAX_BATCH_ENTRIES
            raise bad("entries", f"{len(checked)} entries in one batch; the limit is {limit}")
        for entry in checked:
            self.scope.check_write(entry.id)
        owner, writer = self.writer_owner(), self.scope.writer

        def commit() -> BatchResult:
            result = commit_checked(self.store, checked, declared, owner=owner, writer=writer)
            self._written(result, changed(result))
            return result

        return await self.doors.write(commit)

    async def load(
        self,
        path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        progress: Progress | None = None,
        *,
        kind: str | None = None,
        dry_run: bool = False,
        follow_symlinks: bool | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> BatchReport:
        """Read a file or folder (or a list of them, as one batch) and commit it atomically,
        each file in the format its content shows (or ``kind``: ``mcp``, ``openapi``...); an
        ecosystem source that cannot be read is left out (``report.rejected``), the rest synced
        (docs/importing.md). ``dry_run`` writes
        nothing; ``follow_symlinks`` overrides ``load.follow_symlinks``. Reading stops,
        committing nothing, once ``cancelled()`` is true, the call is cancelled or the home
        closes."""
        if kind is not None:
            as_text(kind, "kind")
        self._may_import()
        options = self.settings.load.following(follow_symlinks)
        where, abandoned = as_paths(path), threading.Event()

        def stop() -> bool:
            asked = cancelled is not None and cancelled()
            return asked or abandoned.is_set() or self.brains.closing

        def read_and_commit() -> BatchReport:
            return self._written_report(
                load_path(self.store, where, progress, kind, dry_run, options, stop)
            )

        try:
            return await self.doors.write(read_and_commit)
        except asyncio.CancelledError:
            abandoned.set()  # the writer thread stops reading at its next file or progress step
            raise

    async def import_mcp(
        self,
        *,
        command: str | None = None,
        url: str | None = None,
        dry_run: bool = False,
        timeout: float = 60.0,
        name: str | None = None,
    ) -> BatchReport:
        """Harvest a running MCP server's tools through the official ``mcp`` client, started
        with ``command`` (stdio) or reached at ``url`` (streamable HTTP), and sync them like a
        ``tools/list`` file of that server. ``name``: the server's name here (its id and owner)
        instead of the one it gives itself (``lgent.catalog.harvest``)."""
        from lgent.catalog.harvest import harvest_mcp

        self._may_import()
        doc = await harvest_mcp(command=command, url=url, timeout=timeout, name=name)
        return await self._sync_document(doc, dry_run)

    async def import_tools_list(
        self, data: Mapping[str, Any], *, source: str, dry_run: bool = False
    ) -> BatchReport:
        """Sync an MCP server's ``tools/list`` result already in hand (``{"serverInfo",
        "tools", "launch"}``, as the router harvests the servers it keeps open) like a file of
        it named ``source``."""
        from lgent.catalog.readers.base import Document

        self._may_import()
        return await self._sync_document(Document.of_data(source, dict(data)), dry_run)

    async def _sync_document(self, doc: Document, dry_run: bool) -> BatchReport:
        from lgent.catalog.loaders import read_document

        declared = await self.doors.read(self.store.types)
        batch = await asyncio.to_thread(read_document, doc, "mcp", declared=declared)
        if batch.rejected:
            raise LoadError(batch.rejected[0][1])
        return await self.doors.write(
            lambda: self._written_report(commit_loaded(self.store, batch, dry_run))
        )

    def _written_report(self, report: BatchReport) -> BatchReport:
        if not report.dry_run and report.result is not None:
            self._written(report.result, changed(report.result))
        return report

    async def get(self, artifact_id: str, version: str | None = None) -> CatalogEntry:
        """The latest version of an artifact (or ``version``). Raises NotFoundError. A real-world
        id (``Ant Design Components``) is looked up by its stable form (``lgent.ids``)."""
        as_text(artifact_id, "artifact_id")
        check_version(version)
        wanted = stable_id(artifact_id)
        entry: CatalogEntry = await self.doors.read(self.store.get, wanted, version)
        seen = await self.visible()
        if seen is not None and wanted not in seen:
            raise NotFoundError(wanted, version)
        return entry

    async def get_many(self, artifact_ids: Sequence[str]) -> dict[str, CatalogEntry]:
        """The latest version of each known id (unknown ids are left out)."""
        found: dict[str, CatalogEntry] = await self.doors.read(
            self.store.get_many, list(artifact_ids)
        )
        seen = await self.visible()
        return found if seen is None else {i: e for i, e in found.items() if i in seen}

    async def versions(self, artifact_id: str) -> list[str]:
        """The versions the catalog holds of an artifact, oldest first. Raises NotFoundError."""
        wanted = stable_id(as_text(artifact_id, "artifact_id"))
        await self._require_visible(wanted)
        found: list[str] = await self.doors.read(self.store.versions, wanted)
        if not found:
            raise NotFoundError(artifact_id)
        return found

    async def remove(self, artifact_id: str, version: str | None = None) -> int:
        """Remove an artifact (all versions, or one). Raises NotFoundError."""
        artifact_id = stable_id(as_text(artifact_id, "artifact_id"))
        check_version(version)
        self.scope.check_write(artifact_id)
        await self._require_visible(artifact_id)
        writer = self.scope.writer

        def remove() -> int:
            removed = self.store.remove(artifact_id, version, writer=writer)
            self._written(BatchResult(change_number=self.store.change_number()), 1)
            return removed

        return await self.doors.write(remove)

    async def list_entries(
        self,
        filters: EntryFilter | Mapping[str, Any] | None = None,
        *,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[CatalogEntry]:
        """Artifacts (latest versions) passing ``filters`` (an ``EntryFilter`` or a mapping of
        its fields), in id order: ``limit`` of them (None: all) after the first ``offset``."""
        check_offset(offset)
        if limit is not None:
            check_offset(limit, "limit")
        chosen = EntryFilter.of(filters)
        if self.restricted:
            page, _ = await self.doors.read(self.list_visible, chosen, limit, offset)
            return page
        return await self.doors.read(self.store.list_entries, chosen, limit=limit, offset=offset)

    async def count_entries(self, filters: EntryFilter | Mapping[str, Any] | None = None) -> int:
        """How many artifacts (latest versions) pass ``filters``."""
        chosen = EntryFilter.of(filters)
        if self.restricted:
            _, total = await self.doors.read(self.list_visible, chosen, 0, 0)
            return total
        return await self.doors.read(self.store.count, chosen)

    async def types(self) -> list[TypeDecl]:
        return await self.doors.read(self.store.types)

    async def stats(self) -> dict[str, Any]:
        """Counts: artifacts, versions, types, relations, by entity type and by status (a
        restricted view counts what it sees: artifacts, by entity type and status, types)."""
        if not self.restricted:
            return await self.doors.read(self.store.stats)

        def seen() -> dict[str, Any]:
            table = self.fact_table()
            facts = list(table.of(self._listed(table, None)))
            by_type: dict[str, int] = {}
            by_status: dict[str, int] = {}
            for f in facts:
                by_type[f.entity_type] = by_type.get(f.entity_type, 0) + 1
                by_status[f.status] = by_status.get(f.status, 0) + 1
            return {
                "artifacts": len(facts),
                "types": len(self.store.types()),
                "by_entity_type": dict(sorted(by_type.items())),
                "by_status": dict(sorted(by_status.items())),
                "change_number": table.change_number,
            }

        return await self.doors.read(seen)

    async def change_number(self) -> int:
        return await self.doors.read(self.store.change_number)

    async def changes_since(self, seq: int) -> list[Change]:
        """Changes after ``seq``, oldest first (a restricted view: of types and of the
        artifacts it sees now)."""
        found: list[Change] = await self.doors.read(self.store.changes_since, seq)
        seen = await self.visible()
        if seen is None:
            return found
        return [c for c in found if c.kind == "type" or c.key in seen]
