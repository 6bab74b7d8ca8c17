"""``GraphReader``: what the resolver, fusion, serving and the facade may read of the catalog
graph (``CatalogGraph`` implements it). Every method is a consistent read on its own; a caller
that needs several reads to agree pins the brain that keeps the graph (the brain pool does it
for a query), so no catch-up changes the graph between them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from lgent.graph.artifacts import ArtifactInfo, Fitness
from lgent.graph.lineage import LineageHit
from lgent.graph.signatures import CompositionPath, Direction, PathSearch, Signature


@runtime_checkable
class GraphReader(Protocol):
    """The catalog graph, read-only."""

    @property
    def change_number(self) -> int:
        """The catalog change number the graph reflects (-1: never built)."""
        ...

    def type_name(self, text: str) -> str | None:
        """The declared type ``text`` names (case-insensitive), or None."""
        ...

    def unknown_type_message(self, text: str) -> str:
        """ "unknown type 'X'", with the closest declared types."""
        ...

    def artifact_id(self, text: str, *, fuzzy: bool = True) -> str | None:
        """The artifact ``text`` names (id or name; close misspellings if ``fuzzy``)."""
        ...

    def closest_names(self, text: str, n: int = 3) -> list[str]:
        """Up to ``n`` artifact names or ids closest to ``text``."""
        ...

    def knows(self, artifact_id: str) -> bool: ...

    def artifact(self, artifact_id: str) -> ArtifactInfo | None: ...

    def is_subtype(self, a: str, b: str) -> bool: ...

    def compose_check(self, first: str, second: str) -> bool:
        """True when ``first``'s output fits ``second``'s input."""
        ...

    def type_candidates(self, input_type: str, output_type: str) -> list[Fitness]: ...

    def accepting(self, type_name: str, limit: int | None = None) -> list[ArtifactInfo]: ...

    def producing(self, type_name: str, limit: int | None = None) -> list[ArtifactInfo]: ...

    def find_paths(self, search: PathSearch) -> list[CompositionPath]: ...

    def find_compatible(
        self,
        artifact_id: str,
        direction: Direction = "downstream",
        limit: int | None = 50,
        include_unusable: bool = False,
        *,
        chain: bool = True,
    ) -> list[Signature]: ...

    def signatures(self) -> list[Signature]:
        """Every artifact's signature, by id."""
        ...

    def linked(self, artifact_id: str, direction: Direction) -> list[str]:
        """The artifacts it feeds (downstream) or that feed it (upstream): ``graph.links``."""
        ...

    def runnable_with(self, have: Sequence[str], limit: int | None = 50) -> list[ArtifactInfo]:
        """Artifacts whose every need one of the ``have`` types satisfies."""
        ...

    def lineage_of(
        self, artifact_id: str, depth: int | None = None
    ) -> dict[str, list[LineageHit]]: ...

    def successor_of(self, artifact_id: str) -> str | None: ...

    def wholes(self, ids: Sequence[str]) -> dict[str, tuple[str, int]]:
        """For each of ``ids`` part of another artifact: that one's id and its number of parts."""
        ...

    def part_counts(self, ids: Sequence[str]) -> dict[str, int]:
        """Of ``ids``, those other artifacts are part of, with their numbers of parts."""
        ...

    def undeclared_side(self, artifact_id: str, direction: Direction) -> str | None: ...

    def prepare(self) -> None:
        """Build now the tables a first path or type question would build."""
        ...
