"""GraphBrain: the brain that answers type, composition and relationship questions from the
catalog graph (``lgent.graph.CatalogGraph``), which it keeps current.

It is a thin adapter: the graph model holds the lattice, lineage and composition tables; this
brain reads questions out of plain text (``query.parse_graph_query``) and answers them with
rows (``answers.py``), each saying which relationship put it there and the path that justifies
it. Everything else reads the graph through ``catalog_graph()`` (``KeepsGraph``), never through
the brain. With an index folder it keeps a snapshot of the graph there (``store.py``), saved
after a build, at most every ``SAVE_EVERY_S`` while changes come in, and when closed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from lgent.brains.base import BrainQuery, BrainStatus, ChangeSet, Reading
from lgent.brains.graph.answers import (
    GraphRanking,
    GraphResult,
    hit_of,
    namesakes_note,
    rows_for,
    why_none,
)
from lgent.brains.graph.query import (
    Composition,
    GraphQuery,
    Relationship,
    TypeQuery,
    parse_graph_query,
    unknown_names,
)
from lgent.brains.graph.store import GraphStore, Opened
from lgent.graph.model import CatalogGraph
from lgent.models import CatalogEntry, SearchFilters, TypeDecl

SAVE_EVERY_S = 30.0
"""While changes come in, the snapshot is saved at most this often (and at close)."""


class GraphBrain:
    """The graph brain (``change_number`` -1 until built or opened from its snapshot)."""

    name = "graph"

    def __init__(
        self,
        path: Path | None = None,
        *,
        fresh: bool = False,
        read_only: bool = False,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> None:
        """``path``: the folder of its snapshot (None: in memory only). ``fresh``: a build
        follows, so the snapshot is not read. ``read_only``: read the snapshot, never write it.
        ``cancelled()`` is asked during a build (true: ``BuildStoppedError``, the brain is
        left unbuilt)."""
        self.cancelled = cancelled
        self.graph = CatalogGraph()
        self.store = None if path is None else GraphStore(path, read_only=read_only)
        self.detail = ""
        """Why the snapshot found on disk was not served ("" when it was, or there was none)."""
        self._unsaved = False
        self._saved_at = time.monotonic()
        if self.store is not None and not fresh:
            self._open(self.store)

    def _open(self, store: GraphStore) -> None:
        opened = store.load()
        if not isinstance(opened, Opened):
            self.detail = opened
            return
        self.graph = opened.graph
        if opened.from_facts and not store.read_only:
            self._unsaved = True  # an image this code reads is written at close

    def _save(self, *, due: bool = True) -> None:
        """Write the snapshot (when ``due``; otherwise only once ``SAVE_EVERY_S`` has passed)."""
        store = self.store
        if store is None or store.read_only or self.graph.change_number < 0:
            return
        if not due and time.monotonic() - self._saved_at < SAVE_EVERY_S:
            self._unsaved = True
            return
        store.save(self.graph)
        self._unsaved = False
        self._saved_at = time.monotonic()

    # -- Brain protocol --------------------------------------------------------------------

    @property
    def change_number(self) -> int:
        return self.graph.change_number

    def build(
        self, entries: Iterable[CatalogEntry], types: Sequence[TypeDecl], change_number: int
    ) -> None:
        self.graph.build(entries, types, change_number, self.cancelled)
        self._save()

    def apply_changes(self, changes: ChangeSet) -> None:
        self.graph.apply(changes.upserts, changes.removals, changes.types, changes.change_number)
        self._save(due=False)

    def status(self) -> BrainStatus:
        graph = self.graph
        return BrainStatus(
            self.name,
            graph.change_number >= 0,
            len(graph),
            graph.change_number,
            detail=graph.describe() if graph.change_number >= 0 or not self.detail else self.detail,
            extra={"type_problems": graph.problems()[:20]},
        )

    def close(self) -> None:
        """Save the changes applied since the last snapshot, unless a newer one is on disk
        (saved by a rebuild that replaced this instance, or by another process)."""
        if not self._unsaved or self.store is None:
            return
        on_disk = self.store.manifest()
        if on_disk is None or on_disk["change_number"] <= self.graph.change_number:
            self._save()

    def catalog_graph(self) -> CatalogGraph:
        """The graph this brain keeps (``KeepsGraph``)."""
        return self.graph

    # -- QuestionReader ----------------------------------------------------------------------

    def artifact_id(self, text: str, *, fuzzy: bool = True) -> str | None:
        return self.graph.artifact_id(text, fuzzy=fuzzy)

    def interpret(self, text: str) -> GraphQuery | None:
        with self.graph.reading():
            return parse_graph_query(text, self.graph)

    def read_question(self, text: str) -> Reading | None:
        """The type, composition or relationship question in ``text``."""
        op = self.interpret(text)
        if isinstance(op, Composition):
            return Reading("composition", op.describe(), op.source, op.target, detail=op)
        if isinstance(op, TypeQuery):
            return Reading("type", op.describe(), op.input, op.output, detail=op)
        if isinstance(op, Relationship):
            return Reading(
                "relationship",
                op.describe(),
                artifact=op.artifact_id,
                detail=op,
                relation=op.kind,
            )
        return None

    def unread(self, text: str) -> str | None:
        """Why ``text``, shaped like a graph question, could not be read as one (an unknown type
        or artifact, with the closest known names), or None."""
        graph = self.graph
        with graph.reading():
            unknown = unknown_names(text, graph)
            if not unknown:
                return None
            parts = []
            for kind, name in unknown:
                if kind == "type":
                    close = graph.close_types(name)
                    what = "no declared type"
                else:
                    close = graph.closest_names(name, 3)
                    what = "no artifact's name or id"
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
                parts.append(f"{name!r} is {what}{hint}")
            return " and ".join(parts)

    # -- answers ---------------------------------------------------------------------------

    def answer(self, query: BrainQuery) -> GraphRanking:
        """The graph's answer to the question ``query`` was read as (or that its text asks);
        each hit is made (explained) only when fusion asks for it."""
        detail = query.reading.detail if query.reading is not None else None
        operation = detail if isinstance(detail, Composition | TypeQuery | Relationship) else None
        graph = self.graph
        with graph.reading():
            rows, op, reason, _ = rows_for(graph, query.text, query.filters, query.limit, operation)
            if query.query_type is None and not op:  # asked by name: say no question was read
                return GraphRanking(rows, [reason])
            said: list[str] = []
            if not rows and isinstance(op, Relationship):
                said.append(why_none(graph, op) or f"the graph found none: {op.describe()}")
            if isinstance(op, Relationship):
                said += namesakes_note(graph, op)
            return GraphRanking(rows, said)

    def search(
        self,
        text: str,
        filters: SearchFilters | None = None,
        limit: int = 10,
        *,
        operation: GraphQuery | None = None,
        include_unusable: bool = False,
    ) -> GraphResult:
        """Answer a graph question in ``text`` (or the given ``operation``).

        A composition (or an ``A -> B`` type query, after the artifacts doing it in one step)
        lists the steps of the best paths, then, while short of ``limit``, every other
        artifact on some pipeline of the allowed length (``pipeline_member``), deprecated and
        retired ones last. "Alternatives to X" lists the declared ``similar_to`` neighbours,
        then artifacts that can stand in for X (its signature, or a subtype output).

        Rows are produced lazily in rank order and only until ``limit`` are admitted, so a
        question with thousands of matches costs what its first ``limit`` answers cost."""
        graph = self.graph
        with graph.reading():
            rows, op, reason, paths = rows_for(
                graph, text, filters, limit, operation, include_unusable
            )
        hits = [hit_of(row, rank) for rank, row in enumerate(rows, start=1)]
        return GraphResult(hits, op, reason, paths)
