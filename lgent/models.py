"""L-gent's data models (pydantic v2), all importable from here: catalog entries and type
declarations (defined by family in ``lgent.model``) and, defined here, the search filters and the
answers to searches, queries and resolutions.

Construct them with ``CatalogEntry.parse(data)`` / ``TypeDecl.parse(data)`` (or the class
directly): either way a rule broken raises :class:`lgent.errors.ValidationError` naming the field,
never a pydantic error.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from lgent import limits
from lgent.ids import ID_RE as ID_RE  # once defined here; still importable from here
from lgent.model.entries import CatalogEntry as CatalogEntry
from lgent.model.entries import EntityType as EntityType
from lgent.model.entries import EntryText as EntryText
from lgent.model.entries import Execution as Execution
from lgent.model.entries import Relation as Relation
from lgent.model.entries import RelationType as RelationType
from lgent.model.entries import Status as Status
from lgent.model.entries import StoredText as StoredText
from lgent.model.strict import Container as Container
from lgent.model.strict import StrictModel as StrictModel
from lgent.model.type_decls import KindEvidence as KindEvidence
from lgent.model.type_decls import TypeDecl as TypeDecl


def now_utc() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


def author_key(author: str) -> str:
    """How authors compare in every filter: case-insensitively (``ToolForge`` == ``toolforge``)."""
    return author.lower()


class SearchFilters(StrictModel):
    """Structured filters every brain applies: each given list holds the allowed values."""

    entity_type: tuple[EntityType, ...] = ()
    status: tuple[Status, ...] = ()
    author: tuple[str, ...] = ()
    execution: tuple[Execution, ...] = ()
    ids: frozenset[str] | None = None
    """Only these artifacts may be hits (a reader's scope and listing filters, computed by
    the facade: ``lgent.scopes``); None: any."""

    @field_validator("entity_type", "status", "author", "execution", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any, info: ValidationInfo) -> Any:
        """One value stands for a list of one; kinds, statuses and executions in any case."""
        values = (value,) if isinstance(value, str) else value
        if info.field_name == "author" or not isinstance(values, list | tuple):
            return values
        return tuple(v.lower() if isinstance(v, str) else v for v in values)

    @field_validator("author")
    @classmethod
    def _named_authors(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """An empty author name would match only artifacts without one: refused, not guessed."""
        if any(not author.strip() for author in value):
            raise ValueError("an author filter needs a name (leave the filter out for any author)")
        return value

    def admits(self, entry: CatalogEntry) -> bool:
        """True when ``entry`` passes every filter."""
        return self.allows(entry.id) and self.matches(
            entry.entity_type, entry.status, entry.author, entry.execution
        )

    def allows(self, artifact_id: str) -> bool:
        """Whether ``ids`` lets ``artifact_id`` be a hit."""
        return self.ids is None or artifact_id in self.ids

    def matches(
        self, entity_type: str, status: str, author: str | None, execution: str | None
    ) -> bool:
        """The one filter rule, on an artifact's plain attribute values (brains keep compact
        rows, not entries): each given list must hold the value; authors compare by
        ``author_key``, so ``toolforge`` finds ToolForge's artifacts."""
        return (
            (not self.entity_type or entity_type in self.entity_type)
            and (not self.status or status in self.status)
            and (not self.author or author_key(author or "") in self.author_keys)
            and (not self.execution or execution in self.execution)
        )

    @property
    def author_keys(self) -> frozenset[str]:
        """The allowed authors as ``author_key``s (what the keyword index stores)."""
        return frozenset(author_key(a) for a in self.author)

    @property
    def empty(self) -> bool:
        attributes = self.entity_type or self.status or self.author or self.execution
        return not attributes and self.ids is None


class BrainHit(BaseModel):
    """One ranked answer from one brain, with a JSON-serializable explanation tree."""

    model_config = ConfigDict(frozen=True)

    id: str
    score: float
    brain: str
    rank: int = 0
    matched_fields: tuple[str, ...] = ()
    highlights: dict[str, str] = Field(default_factory=dict)
    explanation: dict[str, Any] = Field(default_factory=dict)


def cap_warnings(items: Any) -> tuple[str, ...]:
    """At most ``MAX_WARNINGS`` warnings, the same one said once; the rest summed up in one last
    line ("... and 990 more warnings"), so odd input cannot make an answer huge."""
    unique = tuple(dict.fromkeys(str(item) for item in items))
    if len(unique) <= limits.MAX_WARNINGS:
        return unique
    rest = len(unique) - limits.MAX_WARNINGS
    return (*unique[: limits.MAX_WARNINGS], f"... and {rest} more warning{'s' * (rest > 1)}")


class SearchResult(BaseModel):
    """One brain's answer to ``LGent.search``: its hits, best first, how many artifacts matched
    in all, and anything the caller should know (lenient repairs, an unrecognised question)."""

    model_config = ConfigDict(frozen=True)

    query: str
    hits: tuple[BrainHit, ...]
    total: int
    warnings: tuple[str, ...] = ()

    _capped = field_validator("warnings")(classmethod(lambda cls, v: cap_warnings(v)))


class QueryType(StrEnum):
    """How a query was understood; it picks the brain weights."""

    EXACT_NAME = "exact_name"
    KEYWORD_SYNTAX = "keyword_syntax"
    TYPE_QUERY = "type_query"
    RELATIONSHIP = "relationship"
    SEMANTIC_INTENT = "semantic_intent"


HOLE = "???"
"""A gap in a pipeline (``["DataSource", "???", "Database"]``), for an artifact to fill."""
ContextItem = Annotated[str, Field(min_length=1, max_length=limits.MAX_TYPE_NAME_LENGTH)]
"""A type name, an artifact id or ``HOLE`` in a query's context."""


class QueryContext(StrictModel):
    """What the caller was doing: artifacts used before, and the pipeline being built
    (type names and ``???`` for the holes, e.g. ``["DataSource", "???", "Database"]``)."""

    user_history: tuple[ContextItem, ...] = Field(default=(), max_length=limits.MAX_HISTORY)
    current_pipeline: tuple[ContextItem, ...] = Field(default=(), max_length=limits.MAX_PIPELINE)


class SourceHit(BaseModel):
    """One brain's vote for a result: its rank, its own score, and the fused contribution."""

    model_config = ConfigDict(frozen=True)

    brain: str
    rank: int
    score: float
    contribution: float


class Companion(BaseModel):
    """Why a result is offered as a companion (``lgent/fusion/companions.py``): the result
    above it needs a value of ``kind`` that the request does not supply, and this one gives
    it."""

    model_config = ConfigDict(frozen=True)

    of: str
    """The result that needs it."""
    kind: str

    @property
    def reason(self) -> str:
        return f"companion of {self.of}: gives the {self.kind} it needs"


class QueryResult(BaseModel):
    """A fused result: the entry, its score, which brains found it, and why; a ``companion``
    of a result above it when it gives a value that one needs."""

    model_config = ConfigDict(frozen=True)

    id: str
    score: float
    sources: tuple[SourceHit, ...]
    entry: CatalogEntry
    highlights: dict[str, str] = Field(default_factory=dict)
    explanation: dict[str, Any] = Field(default_factory=dict)
    superseded_by: str | None = None
    notes: tuple[str, ...] = ()
    companion: Companion | None = None


class SerendipityItem(BaseModel):
    """An unexpected but potentially useful suggestion (never one of the results)."""

    model_config = ConfigDict(frozen=True)

    artifact_id: str
    reason: str
    confidence: float
    composition: tuple[str, ...] = ()


class BrainRun(BaseModel):
    """Whether a brain ran for a query, with what weight and how many hits, or why not.

    ``change_number``: the catalog change number the state it answered from reflects (below
    the response's own when the brain is still catching up); ``catching_up``: what its indexer
    was doing meanwhile ("" when idle)."""

    model_config = ConfigDict(frozen=True)

    brain: str
    ran: bool
    weight: float
    hits: int = 0
    reason: str = ""
    change_number: int | None = None
    catching_up: str = ""


class QueryResponse(BaseModel):
    """The answer to ``LGent.query``."""

    model_config = ConfigDict(frozen=True)

    query: str
    results: tuple[QueryResult, ...]
    serendipity: tuple[SerendipityItem, ...]
    query_type: QueryType
    classification_reason: str
    query_interpretation: str
    total_matches: int
    """How many artifacts the fused answer holds: each brain is asked for
    ``fusion.min_brain_hits`` hits (50) whatever the ``limit``, so the total and the scores are
    the same for every limit up to 50, in Python and on every surface (a larger limit asks
    each brain for that many)."""
    search_time_ms: float
    brains: tuple[BrainRun, ...] = ()
    constraints: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    change_number: int = 0
    cached: bool = False
    matched: tuple[str, ...] = Field(default=(), exclude=True)
    """Every artifact the fused answer holds, in its order (``total_matches`` of them): what
    a query's facets count (``LGent.facets(among=...)``). Never serialized."""

    _capped = field_validator("warnings")(classmethod(lambda cls, v: cap_warnings(v)))


class TypeRequirement(StrictModel):
    """A pipeline hole to fill: what goes in, what must come out, contracts and constraints."""

    input_type: str = Field(min_length=1, max_length=limits.MAX_TYPE_NAME_LENGTH)
    output_type: str = Field(min_length=1, max_length=limits.MAX_TYPE_NAME_LENGTH)
    contracts: tuple[
        Annotated[str, Field(min_length=1, max_length=limits.MAX_KEYWORD_LENGTH)], ...
    ] = Field(default=(), max_length=limits.MAX_CONTRACTS)
    constraints: tuple[
        Annotated[str, Field(min_length=1, max_length=limits.MAX_CONSTRAINT_LENGTH)], ...
    ] = Field(default=(), max_length=limits.MAX_CONTRACTS)


class ResolutionPreferences(StrictModel):
    """Weights of the resolver's ranking (each 0..1) and the scales of recency and usage."""

    success_weight: float = Field(default=0.4, ge=0.0, le=1.0)
    recency_weight: float = Field(default=0.2, ge=0.0, le=1.0)
    usage_weight: float = Field(default=0.2, ge=0.0, le=1.0)
    version_weight: float = Field(default=0.2, ge=0.0, le=1.0)
    recency_half_life_days: float = Field(default=90.0, gt=0.0)
    usage_saturation: int = Field(default=100, ge=1)


class ScoreBreakdown(BaseModel):
    """Each preference's component (0..1), its weight, and the weighted total."""

    model_config = ConfigDict(frozen=True)

    success: float
    recency: float
    usage: float
    version: float
    fit: float = 1.0
    """How well the candidate's types fit the requirement (1: declared types; else the
    confidence and specificity of the inferred kinds it matched by), weighed in the version's
    place when its success is unmeasured (``weights["fit"]``)."""
    total: float
    weights: dict[str, float]


class RankedCandidate(BaseModel):
    model_config = ConfigDict(frozen=True)

    entry: CatalogEntry
    score: ScoreBreakdown


class Rejection(BaseModel):
    """A candidate the resolver could not use, and why (type mismatch, unhealthy, ...)."""

    model_config = ConfigDict(frozen=True)

    id: str
    reasons: tuple[str, ...]


class Resolution(BaseModel):
    """The resolver's answer: the best artifact, its score breakdown, the runners-up."""

    model_config = ConfigDict(frozen=True)

    requirement: TypeRequirement
    best: CatalogEntry
    score: ScoreBreakdown
    runners_up: tuple[RankedCandidate, ...] = ()
    rejected: tuple[Rejection, ...] = ()
    considered: int = 0


class PipelineStep(BaseModel):
    """One position of a filled pipeline: a given type/artifact, or what fills a hole."""

    model_config = ConfigDict(frozen=True)

    given: str | None = None
    filled_with: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    reason: str = ""


class FilledPipeline(BaseModel):
    """The pipeline as given and its steps: one per known step and one per run of holes (two
    ``???`` side by side are one gap, bridged by one artifact or one path)."""

    model_config = ConfigDict(frozen=True)

    pipeline: tuple[str, ...]
    steps: tuple[PipelineStep, ...]
