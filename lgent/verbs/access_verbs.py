"""Views of a home and what they add: a reader's scope (``lgent.scopes``) and listing filters
applied to every verb, facets with counts, an artifact's history and a draft's promotion.

``lg.scoped(scope)`` and ``lg.filtered(filters)`` return a *view*: the same open home (its
catalog, brains, caches and writer are shared, and closing a view closes nothing) whose every
verb answers as if the catalog held only the artifacts the scope reads and the filters admit.
The set is computed once per catalog change number (``lgent.facets.Facts``), and handed down:
to the brains (``SearchFilters.ids``), to fusion's snapshot, to the graph (``ScopedGraph``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

from lgent.catalog.protocol import Catalog
from lgent.catalog.records import Change, EntryFilter, Owner
from lgent.errors import NotFoundError, QueryError
from lgent.facets import DEFAULT_TOP, FACET_NAMES, Facet, Facts, FactTable, count_facets
from lgent.ids import stable_id
from lgent.models import CatalogEntry, Status, TypeDecl
from lgent.runtime.doors import Doors
from lgent.scopes import OWNER, Scope
from lgent.validation import as_text

if TYPE_CHECKING:
    from lgent.catalog.records import BatchResult


class AccessVerbs:
    """Views (scope and filters), facets, history and promotion of an open home."""

    store: Catalog
    doors: Doors
    facts: Facts
    scope: Scope = OWNER
    """Whose view this is: what it reads and writes (the home's own user: everything)."""
    view_filters: EntryFilter | None = None
    """Listing filters every read of this view applies (``filtered``)."""
    is_view: bool = False

    # -- views -----------------------------------------------------------------------------

    def scoped(self, scope: Scope) -> Self:
        """This home as a reader of ``scope`` sees it (a view: closing it closes nothing)."""
        if not isinstance(scope, Scope):
            raise QueryError(f"scope: expected a lgent.scopes.Scope, got {type(scope).__name__}")
        return self._view(scope=scope)

    def filtered(self, filters: EntryFilter | Mapping[str, Any] | None) -> Self:
        """This view with only the artifacts ``filters`` admits (``EntryFilter`` fields,
        added to the view's own): listing, facets, queries and graph answers stay inside."""
        chosen = EntryFilter.of(filters)
        if chosen is None or not chosen.given():
            return self
        if self.view_filters is not None:
            chosen = _both(self.view_filters, chosen)
        return self._view(view_filters=chosen)

    def _view(self, **changes: Any) -> Self:
        view = object.__new__(type(self))
        view.__dict__.update(self.__dict__)
        view.__dict__.update(changes, is_view=True)
        return view

    @property
    def restricted(self) -> bool:
        """Whether this view hides anything (a scope that does not read everything, filters)."""
        return not self.scope.everything or self.view_filters is not None

    def fact_table(self) -> FactTable:
        """The facts of every artifact at the catalog's change number now (sync)."""
        return self.facts.table()

    def within(self) -> frozenset[str] | None:
        """The ids this view sees (sync; None: every artifact, nothing hidden)."""
        if not self.restricted:
            return None
        return self.fact_table().within(self.scope, self.view_filters)

    async def visible(self) -> frozenset[str] | None:
        """``within``, read on a worker thread."""
        if not self.restricted:
            return None
        return await self.doors.read(self.within)

    async def _require_visible(self, artifact_id: str) -> None:
        seen = await self.visible()
        if seen is not None and artifact_id not in seen:
            raise NotFoundError(artifact_id)

    # -- facets ----------------------------------------------------------------------------

    async def facets(
        self,
        filters: EntryFilter | Mapping[str, Any] | None = None,
        *,
        names: Sequence[str] = FACET_NAMES,
        top: int = DEFAULT_TOP,
        among: Sequence[str] | None = None,
    ) -> dict[str, Facet]:
        """For each facet of ``names`` (``kind``, ``source``, ``owner``, ``status``, ``tag``,
        ``input``, ``output``), the ``top`` values held by most artifacts this view lists with
        ``filters`` (or, with ``among``, by those of these ids it sees: a query's matches), each
        with its count: what ``list_entries`` with that value added would count."""
        chosen = EntryFilter.of(filters)

        def count() -> dict[str, Facet]:
            table = self.fact_table()
            ids = self._listed(table, chosen) if among is None else self._among(table, among)
            return count_facets(table.of(ids), names, top)

        return await self.doors.read(count)

    def _listed(self, table: FactTable, filters: EntryFilter | None) -> list[str]:
        """The ids this view lists with ``filters``, in id order."""
        seen = table.within(self.scope, self.view_filters)
        ids: Iterable[str] = table.facts.keys() if seen is None else seen
        if filters is not None and filters.given():
            return sorted(i for i in ids if filters.admits(table.facts[i]))
        return sorted(ids)

    def _among(self, table: FactTable, ids: Sequence[str]) -> list[str]:
        seen = table.within(self.scope, self.view_filters)
        return [i for i in dict.fromkeys(ids) if seen is None or i in seen]

    def list_visible(
        self, filters: EntryFilter | None, limit: int | None, offset: int
    ) -> tuple[list[CatalogEntry], int]:
        """A page of what this view lists with ``filters`` and how many it lists (sync)."""
        ids = self._listed(self.fact_table(), filters)
        page = ids[offset:] if limit is None else ids[offset : offset + limit]
        found = self.store.get_many(page)
        return [found[i] for i in page if i in found], len(ids)

    # -- history and promotion ------------------------------------------------------------

    async def history(self, artifact_id: str) -> list[Change]:
        """Every change the log holds of an artifact, oldest first: each version written, with
        its status and the token that wrote it (None: the home's own user), and each removal."""
        wanted = stable_id(as_text(artifact_id, "artifact_id"))
        await self._require_visible(wanted)
        found: list[Change] = await self.doors.read(self.store.history, wanted)
        if not found:
            raise NotFoundError(artifact_id)
        return found

    async def promote(self, artifact_id: str, status: Status | str = Status.ACTIVE) -> BatchResult:
        """Publish a draft: its latest version written again with ``status`` (default active),
        by this view's writer; the change log records who promoted it (``history``)."""
        wanted = stable_id(as_text(artifact_id, "artifact_id"))
        try:
            new = Status(status)
        except ValueError:
            raise QueryError(f"status: unknown value {status!r}") from None
        if new == Status.DRAFT:
            raise QueryError("status: a draft is promoted to another status, not to draft")
        self.scope.check_write(wanted)
        await self._require_visible(wanted)
        entry: CatalogEntry = await self.doors.read(self.store.get, wanted)
        if entry.status != Status.DRAFT:
            raise QueryError(
                f"{wanted!r} is {entry.status.value}, not a draft: only drafts are promoted"
            )
        promoted = entry.model_copy(update={"status": new})
        return await self.register_many([promoted])

    if TYPE_CHECKING:

        async def register_many(
            self, entries: Iterable[CatalogEntry], types: Iterable[TypeDecl] = ()
        ) -> BatchResult: ...  # CatalogVerbs

    def writer_owner(self) -> Owner | None:
        """The owner a registration of this view records (None: the store's default)."""
        return Owner("writer", self.scope.name) if self.scope.name else None


def _both(first: EntryFilter, second: EntryFilter) -> EntryFilter:
    """A filter admitting what both admit (a field both set differently admits nothing)."""
    given = first.given()
    for name, value in second.given().items():
        if name in given and given[name] != value:
            raise QueryError(f"filter {name}: {given[name]!r} and {value!r} cannot both hold")
        given[name] = value
    return EntryFilter(**given)
