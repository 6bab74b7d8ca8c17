"""The contract every brain implements: a derived index that answers one query object with one
ranked answer.

A brain is built from entries, kept current by applying the catalog's changes, stamped with
the change number it reflects, and asked ``answer(BrainQuery) -> RankedAnswer``. Brains never
import each other or the catalog store; fusion (``lgent/fusion``) and the resolver compose
them, and the registry (``lgent/brains/registry.py``) declares each one once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from lgent.models import BrainHit, CatalogEntry, EntryText, QueryType, SearchFilters, TypeDecl

if TYPE_CHECKING:
    from lgent.graph.protocol import GraphReader


@dataclass(frozen=True, slots=True)
class ChangeSet:
    """What changed in the catalog since a brain's change number, resolved to latest entries."""

    upserts: Sequence[CatalogEntry]
    removals: Sequence[str]
    types: Sequence[TypeDecl] | None  # the full type list when any type changed, else None
    change_number: int


@dataclass(frozen=True, slots=True)
class BrainStatus:
    """What a brain can say about itself: whether it is usable, and what it reflects."""

    name: str
    ready: bool
    documents: int
    change_number: int
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


ReadingKind = Literal["type", "composition", "relationship"]
SIMILAR_RELATION = "similar"
"""``Reading.relation`` of a question about alternatives to an artifact ("similar to X")."""


@dataclass(frozen=True, slots=True)
class Reading:
    """A query read as a question about types or relations (by a brain that reads questions,
    see ``QuestionReader``): what it asks, in plain fields any brain can use, and the reading
    brain's own parsed form in ``detail``."""

    kind: ReadingKind
    description: str
    input_type: str | None = None
    output_type: str | None = None
    artifact: str | None = None
    detail: object = None
    relation: str | None = None
    """For a relationship question, which relation it asks about: ``similar`` (alternatives to
    the artifact), ``dependents``, ``downstream`` ... (the reading brain's names)."""


@dataclass(frozen=True, slots=True)
class BrainQuery:
    """One query as a brain is asked it.

    ``query_type`` is how fusion classified the query (None: the caller asked this brain
    directly, e.g. ``lgent search --brain``). ``strict``: a malformed keyword grammar query is
    an error, not repaired (a query in the grammar is read by it; others are plain words).
    ``min_should_match``: for plain words, the share of them a lexical
    hit must match. ``reading``: the type or relationship question, when one was recognised.
    """

    text: str
    limit: int
    query_type: QueryType | None = None
    filters: SearchFilters | None = None
    strict: bool = True
    min_should_match: float = 0.0
    reading: Reading | None = None
    named_artifact: str | None = None
    plain_text: str | None = None
    """The words a meaning-based brain reads (None: ``text``); set for keyword-grammar queries,
    whose field names and operators are no words."""


@runtime_checkable
class RankedAnswer(Protocol):
    """A brain's answer: its ranking (id and the brain's own score, best first), how many
    artifacts matched in all, warnings for the caller, notes on how it was made (the embedding
    model was loaded for it, and how long that took: the query's interpretation repeats them),
    ``weak`` (why even its best match is far from the request, "" when it is not: fusion's
    ``WEAK_MATCHES`` rule, ``lgent/fusion/weak.py``), and the explained hit of any ranked id,
    made on demand (fusion explains only the results it shows). ``HitList`` gives the defaults:
    no notes, not weak."""

    @property
    def ranking(self) -> Sequence[tuple[str, float]]: ...

    @property
    def total(self) -> int: ...

    @property
    def warnings(self) -> Sequence[str]: ...

    @property
    def notes(self) -> Sequence[str]: ...

    @property
    def weak(self) -> str: ...

    def explain(self, artifact_id: str, entry: EntryText) -> BrainHit | None:
        """The hit for ``artifact_id`` with its explanation subtree; None if not ranked
        (``entry``: the catalog's entry, or the text fields of it that explanations read)."""
        ...


@runtime_checkable
class MovableAnswer(Protocol):
    """What an answer offers when its brain can search again with its query moved toward
    artifacts found by other means (the semantic brain's answers do: the mean of their vectors
    is added to the query's). Fusion's ``WORD_FEEDBACK`` rule (``lgent/fusion/feedback.py``)
    asks it on the brain's runner; the query is not read or embedded again."""

    def moved_toward(self, artifact_ids: Sequence[str], weight: float) -> RankedAnswer:
        """The answer to the query moved toward ``artifact_ids`` by ``weight`` (this answer
        itself when none of them is known or the weight is 0)."""
        ...


@dataclass(slots=True)
class HitList:
    """A ranked answer over hits already made and explained."""

    hits: list[BrainHit]
    warnings: list[str] = field(default_factory=list)
    notes: tuple[str, ...] = ()
    weak: str = ""

    @property
    def ranking(self) -> list[tuple[str, float]]:
        return [(h.id, h.score) for h in self.hits]

    @property
    def total(self) -> int:
        return len(self.hits)

    def explain(self, artifact_id: str, entry: EntryText) -> BrainHit | None:
        return next((h for h in self.hits if h.id == artifact_id), None)


@runtime_checkable
class Brain(Protocol):
    """A derived index: build, apply changes, answer queries, report status."""

    name: str

    @property
    def change_number(self) -> int:
        """The catalog change number this brain reflects (-1 when it has never been built)."""
        ...

    def build(
        self, entries: Iterable[CatalogEntry], types: Sequence[TypeDecl], change_number: int
    ) -> None:
        """Replace the whole index with ``entries`` and stamp it with ``change_number``."""
        ...

    def apply_changes(self, changes: ChangeSet) -> None:
        """Index new/changed entries, drop removed ids, and stamp the change number."""
        ...

    def answer(self, query: BrainQuery) -> RankedAnswer:
        """This brain's ranking for ``query`` (at most ``query.limit`` ids)."""
        ...

    def status(self) -> BrainStatus: ...

    def close(self) -> None: ...


@runtime_checkable
class PreparesChanges(Protocol):
    """What a brain offers when applying changes has a slow part (the semantic brain embeds new
    texts): ``prepare_changes`` does it without changing what ``answer`` sees, so queries keep
    reading the brain meanwhile, and the ``apply_changes`` that follows is quick."""

    def prepare_changes(self, changes: ChangeSet) -> None: ...


@runtime_checkable
class QuestionReader(Protocol):
    """What a brain offers when it can read type and relationship questions (the graph brain
    does): classification asks it before deciding how a query is answered."""

    def read_question(self, text: str) -> Reading | None:
        """The type, composition or relationship question in ``text``, or None."""
        ...

    def artifact_id(self, text: str, *, fuzzy: bool = True) -> str | None:
        """The id of the artifact ``text`` names (id or name; close misspellings if fuzzy)."""
        ...

    def unread(self, text: str) -> str | None:
        """Why ``text``, shaped like a question, could not be read as one; None otherwise."""
        ...


@runtime_checkable
class KeepsGraph(Protocol):
    """What a brain offers when it keeps the catalog graph (the graph brain does): the
    resolver, hole filling, fusion's lineage notes and suggestions, and serving read the graph
    through it, pinned with the brain for the call."""

    def catalog_graph(self) -> GraphReader:
        """The graph, in the state this brain reflects."""
        ...


@runtime_checkable
class GrammarFilter(Protocol):
    """What a brain offers when it can apply the keyword grammar to any set of artifacts (the
    keyword brain does): fusion restricts every brain's candidates to what a grammar query
    matches."""

    def matching(self, text: str, artifact_ids: Sequence[str]) -> set[str]:
        """The ids among ``artifact_ids`` that the grammar query ``text`` matches."""
        ...


CAPABILITIES: tuple[type, ...] = (QuestionReader, GrammarFilter, KeepsGraph, PreparesChanges)
"""The optional protocols a brain may declare in its ``BrainSpec.capabilities``."""
