"""The catalog graph as a reader of a scope sees it: only the artifacts it may read exist.

``ScopedGraph`` wraps any ``GraphReader`` with the set of artifacts a reader sees (computed by
the facade from ``lgent.scopes``). Every answer holds only those: path search and hole filling
never step through another (``PathSearch.allowed``: the search itself passes over them, so the
first ``k`` paths are those of the reader's catalog), compatibility, type candidates, lineage
and successors leave them out, and a name lookup that would name one finds nothing.
``ScopedReader`` does the same for the brain that reads questions, so a question about an
artifact out of scope is read as plain words, as one about an unknown name would be.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence

from lgent.brains.base import Reading
from lgent.graph.artifacts import ArtifactInfo, Fitness
from lgent.graph.lineage import LineageHit
from lgent.graph.protocol import GraphReader
from lgent.graph.signatures import CompositionPath, Direction, PathSearch, Signature

CLOSEST_POOL = 20
"""How many times ``n`` close names are looked at before those out of scope are left out."""


class ScopedGraph:
    """A ``GraphReader`` over ``graph`` that knows only the artifacts in ``within``."""

    def __init__(self, graph: GraphReader, within: Collection[str]) -> None:
        self.graph = graph
        self.within = within

    def allowed(self, artifact_id: str) -> bool:
        return artifact_id in self.within

    @property
    def change_number(self) -> int:
        return self.graph.change_number

    def type_name(self, text: str) -> str | None:
        return self.graph.type_name(text)

    def unknown_type_message(self, text: str) -> str:
        return self.graph.unknown_type_message(text)

    def artifact_id(self, text: str, *, fuzzy: bool = True) -> str | None:
        found = self.graph.artifact_id(text, fuzzy=fuzzy)
        return found if found is not None and self.allowed(found) else None

    def closest_names(self, text: str, n: int = 3) -> list[str]:
        pool = self.graph.closest_names(text, n * CLOSEST_POOL)
        return [i for i in pool if self.allowed(i)][:n]

    def knows(self, artifact_id: str) -> bool:
        return self.allowed(artifact_id) and self.graph.knows(artifact_id)

    def artifact(self, artifact_id: str) -> ArtifactInfo | None:
        return self.graph.artifact(artifact_id) if self.allowed(artifact_id) else None

    def is_subtype(self, a: str, b: str) -> bool:
        return self.graph.is_subtype(a, b)

    def compose_check(self, first: str, second: str) -> bool:
        both = self.allowed(first) and self.allowed(second)
        return both and self.graph.compose_check(first, second)

    def type_candidates(self, input_type: str, output_type: str) -> list[Fitness]:
        return [
            f for f in self.graph.type_candidates(input_type, output_type) if self.allowed(f.id)
        ]

    def accepting(self, type_name: str, limit: int | None = None) -> list[ArtifactInfo]:
        found = [a for a in self.graph.accepting(type_name) if self.allowed(a.id)]
        return found if limit is None else found[:limit]

    def producing(self, type_name: str, limit: int | None = None) -> list[ArtifactInfo]:
        found = [a for a in self.graph.producing(type_name) if self.allowed(a.id)]
        return found if limit is None else found[:limit]

    def find_paths(self, search: PathSearch) -> list[CompositionPath]:
        outer = search.allowed

        def allowed(artifact_id: str) -> bool:
            return artifact_id in self.within and (outer is None or outer(artifact_id))

        return self.graph.find_paths(dataclasses.replace(search, allowed=allowed))

    def find_compatible(
        self,
        artifact_id: str,
        direction: Direction = "downstream",
        limit: int | None = 50,
        include_unusable: bool = False,
        *,
        chain: bool = True,
    ) -> list[Signature]:
        if not self.allowed(artifact_id):
            from lgent.errors import NotFoundError

            raise NotFoundError(artifact_id)
        every = self.graph.find_compatible(
            artifact_id, direction, None, include_unusable, chain=chain
        )
        found = [s for s in every if self.allowed(s.id)]
        return found if limit is None else found[:limit]

    def signatures(self) -> list[Signature]:
        return [s for s in self.graph.signatures() if self.allowed(s.id)]

    def lineage_of(self, artifact_id: str, depth: int | None = None) -> dict[str, list[LineageHit]]:
        """Each relation's hits reached through artifacts of the scope only (a hit whose path
        passes through another is left out)."""
        if not self.allowed(artifact_id):
            from lgent.errors import NotFoundError

            raise NotFoundError(artifact_id)
        groups = self.graph.lineage_of(artifact_id, depth)
        return {
            name: [h for h in hits if all(self.allowed(i) for i in h.path)]
            for name, hits in groups.items()
        }

    def successor_of(self, artifact_id: str) -> str | None:
        """The newest usable generation reached through artifacts of the scope only."""
        if not self.allowed(artifact_id):
            return None
        hits = self.lineage_of(artifact_id)["descendants"]
        usable = [h for h in hits if (info := self.artifact(h.id)) is not None and info.usable]
        if not usable:
            return None
        return max(usable, key=lambda h: (h.depth, h.id)).id

    def undeclared_side(self, artifact_id: str, direction: Direction) -> str | None:
        return self.graph.undeclared_side(artifact_id, direction)

    def linked(self, artifact_id: str, direction: Direction) -> list[str]:
        if not self.allowed(artifact_id):
            return []
        return [i for i in self.graph.linked(artifact_id, direction) if self.allowed(i)]

    def runnable_with(self, have: Sequence[str], limit: int | None = 50) -> list[ArtifactInfo]:
        found = [a for a in self.graph.runnable_with(have, None) if self.allowed(a.id)]
        return found if limit is None else found[:limit]

    def wholes(self, ids: Sequence[str]) -> dict[str, tuple[str, int]]:
        """The wholes of the scope only; a whole's parts are counted as the graph holds them."""
        found = self.graph.wholes([i for i in ids if self.allowed(i)])
        return {i: w for i, w in found.items() if self.allowed(w[0])}

    def part_counts(self, ids: Sequence[str]) -> dict[str, int]:
        return self.graph.part_counts([i for i in ids if self.allowed(i)])

    def prepare(self) -> None:
        self.graph.prepare()


class ScopedReader:
    """The brain that reads questions, seeing only ``within``: a question about an artifact
    out of scope is not read (the query is then plain words), and its graph is scoped."""

    def __init__(self, reader: object, within: Collection[str]) -> None:
        from lgent.brains.base import QuestionReader

        assert isinstance(reader, QuestionReader)
        self.reader = reader
        self.within = within

    def read_question(self, text: str) -> Reading | None:
        reading = self.reader.read_question(text)
        if reading is None or reading.artifact is None or reading.artifact in self.within:
            return reading
        return None

    def artifact_id(self, text: str, *, fuzzy: bool = True) -> str | None:
        found = self.reader.artifact_id(text, fuzzy=fuzzy)
        return found if found is not None and found in self.within else None

    def unread(self, text: str) -> str | None:
        """Not said under a scope: the reason names the closest artifacts, in scope or not."""
        return None

    def catalog_graph(self) -> GraphReader:
        from lgent.brains.base import KeepsGraph

        assert isinstance(self.reader, KeepsGraph)
        return ScopedGraph(self.reader.catalog_graph(), self.within)
