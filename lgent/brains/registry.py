"""The brain registry: each brain declared once, with everything fusion and the facade need to
know about it (how to make it, its default weight per query class, when fusion may skip it).

The facade, fusion, serving, the CLI and doctor iterate a ``BrainRegistry``; adding a brain is
its module plus one ``BrainSpec`` (``default_registry().with_brain(spec)``), nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lgent.brains.base import CAPABILITIES, KeepsGraph, QuestionReader
from lgent.errors import QueryError, SettingsError
from lgent.models import CatalogEntry, QueryType

if TYPE_CHECKING:
    from lgent.brains.base import Brain
    from lgent.brains.semantic.embedders import Embedder
    from lgent.config import Settings


class SkipRule(StrEnum):
    """When fusion may leave a brain out of a query (the rules live in ``fusion/plan.py``)."""

    NEVER = "never"
    """Asked whenever its weight for the query class is above 0."""
    NEEDS_READING = "needs_reading"
    """Asked only when the query names an artifact or was read as a type or relationship
    question: on plain words it has nothing to say."""
    AFTER_LEADER = "after_leader"
    """Asked only when the leading brain's answer leaves room for its votes in the results
    (it is the expensive one: the query embedding)."""


EntryLookup = Callable[[Sequence[str]], Mapping[str, CatalogEntry]]


@dataclass(frozen=True, slots=True)
class BrainContext:
    """What a brain's factory gets: its index folder (None: in memory), the settings, the
    embedder chosen by the caller, a progress callback (``progress(done, total)``; ``stage(name)``
    names the step a long build is in, such as "loading the model") and a catalog entry lookup.

    ``fresh``: the caller is about to ``build`` the brain from the catalog, so a persisted index
    need not be read. ``read_only``: the home cannot be written; open what is there without
    changing a file (a brain that needs to write says so with an ``IndexError_``).
    ``cancelled()``: asked at each batch boundary of a long build: true once the owner wants it
    to stop (raise ``BuildStoppedError``); the owner may also pause there a moment to let the
    queries in flight go first. ``background``: queries are answered from the brain's last
    state while it builds or catches up (a server), so a long build should leave the cores to
    them rather than hurry. ``replacing``: the instance this one is made to replace (a rebuild
    beside it), whose loaded resources (an embedding model) it may take over."""

    index_dir: Path | None
    settings: Settings
    embedder: Embedder | None = None
    progress: Callable[[int, int], None] | None = None
    entries: EntryLookup = field(default=lambda ids: {})
    stage: Callable[[str], None] | None = None
    fresh: bool = False
    read_only: bool = False
    cancelled: Callable[[], bool] = field(default=lambda: False)
    background: bool = False
    replacing: Brain | None = None


@dataclass(frozen=True, slots=True)
class Voting:
    """How fusion counts a brain's answers, beyond its weights. ``skip``: when fusion may leave
    it out. ``leads``: query classes whose answer order it leads (at most one leader per
    class). ``relations``: the relations of relationship questions it has something to say
    about (``Reading.relation``; None: every one); it is not asked about the others.
    ``matches_words``: it ranks by the query's words, so the rules for sentences that read
    words count its votes (``LONG_REQUESTS``, ``WORD_FEEDBACK``, ``WORD_COVERAGE``,
    ``WEAK_MATCHES``)."""

    skip: SkipRule = SkipRule.NEVER
    leads: frozenset[QueryType] = frozenset()
    relations: frozenset[str] | None = None
    matches_words: bool = False


@dataclass(frozen=True, slots=True)
class Hints:
    """How a brain's work is best scheduled (each optional). ``own_thread``: its calls run on
    one dedicated thread (the embedding model keeps its workers warm there). ``slow_build``:
    its builds are long (embedding every entry): before their first step and between batches
    they wait while another brain's build or catch-up is asked for or runs, so the quick
    brains answer a large load first. ``quick_reads``: a direct search of it is a short
    computation that waits on nothing (no model, no network), so ``LGent.search`` runs it on
    the event loop when the brain and the catalog can be read at once, saving the two thread
    switches of a hop (about 0.2 ms)."""

    own_thread: bool = False
    slow_build: bool = False
    quick_reads: bool = False
    build_rate: float | None = None
    """About how many entries a second a build indexes on 2 cores (for the time a long build
    is said to take; None: not said)."""


@dataclass(frozen=True, slots=True)
class BrainSpec:
    """One brain, declared once (in its own package: ``lgent/brains/<name>/spec.py``).

    Identity: ``name``, ``summary``, ``factory`` (imports the brain's modules only when
    called), ``settings`` (the type of its own section of ``lgent.toml``, ``[<name>]``, with
    defaults; None: it has none), ``index_files(manifest)`` (the files its persisted index
    names in its ``manifest.json``; None for a brain kept in memory only) and
    ``check_index(folder, manifest)`` (the problems ``lgent doctor`` finds in that index beyond
    the files its manifest checksums: the rows of a cache, a file its library rewrites). ``weights``: its
    default weight per query class (``[fusion.weights]`` overrides them); ``voting``: the rest
    of how fusion counts it. ``capabilities``: the optional protocols of ``lgent.brains.base``
    its brains implement (``QuestionReader``, ``GrammarFilter``, ``KeepsGraph``,
    ``PreparesChanges``), checked when a brain is made. ``hints``: scheduling."""

    name: str
    summary: str
    factory: Callable[[BrainContext], Brain]
    weights: Mapping[QueryType, float]
    voting: Voting = Voting()
    capabilities: frozenset[type] = frozenset()
    hints: Hints = Hints()
    index_files: Callable[[Mapping[str, Any]], list[str]] | None = None
    check_index: Callable[[Path, Mapping[str, Any]], list[str]] | None = None
    settings: type | None = None

    def weight(self, query_type: QueryType) -> float:
        return float(self.weights.get(query_type, 0.0))

    def can(self, capability: type) -> bool:
        """Whether the brain declares ``capability`` (one of ``CAPABILITIES``)."""
        return capability in self.capabilities

    def made(self, brain: Brain) -> Brain:
        """``brain``, checked to implement every capability the spec declares (a
        ``SettingsError`` naming the first it lacks)."""
        for capability in self.capabilities:
            if not isinstance(brain, capability):
                raise SettingsError(
                    f"brain {self.name!r} declares {capability.__name__}, but its "
                    f"{type(brain).__name__} does not implement it"
                )
        return brain


QUERY_CLASSES = (
    QueryType.EXACT_NAME,
    QueryType.KEYWORD_SYNTAX,
    QueryType.TYPE_QUERY,
    QueryType.RELATIONSHIP,
    QueryType.SEMANTIC_INTENT,
)
"""The order of ``class_weights``' arguments."""


def class_weights(
    exact_name: float,
    keyword_syntax: float,
    type_query: float,
    relationship: float,
    semantic_intent: float,
) -> dict[QueryType, float]:
    """A brain's default weight per query class, in ``QUERY_CLASSES`` order."""
    values = (exact_name, keyword_syntax, type_query, relationship, semantic_intent)
    return dict(zip(QUERY_CLASSES, values, strict=True))


class BrainRegistry:
    """An ordered, immutable set of brain specs (names unique; one leader per query class)."""

    def __init__(self, specs: Iterable[BrainSpec]) -> None:
        self._specs: dict[str, BrainSpec] = {}
        leaders: dict[QueryType, str] = {}
        for spec in specs:
            if spec.name in self._specs:
                raise SettingsError(f"brain {spec.name!r} is registered twice")
            unknown = [c.__name__ for c in spec.capabilities if c not in CAPABILITIES]
            if unknown:
                raise SettingsError(
                    f"brain {spec.name!r} declares {', '.join(sorted(unknown))}, which is no "
                    f"capability (expected {_alternatives([c.__name__ for c in CAPABILITIES])})"
                )
            for query_type in spec.voting.leads:
                if query_type in leaders:
                    raise SettingsError(
                        f"brains {leaders[query_type]!r} and {spec.name!r} both lead "
                        f"{query_type.value} queries"
                    )
                leaders[query_type] = spec.name
            self._specs[spec.name] = spec
        self._leaders = leaders
        readers = [spec.name for spec in self._specs.values() if spec.can(QuestionReader)]
        if len(readers) > 1:
            raise SettingsError(f"brains {readers[0]!r} and {readers[1]!r} both read questions")
        self.question_reader: str | None = readers[0] if readers else None
        """The brain that reads type and relationship questions, if one is registered."""
        keepers = [spec.name for spec in self._specs.values() if spec.can(KeepsGraph)]
        if len(keepers) > 1:
            raise SettingsError(f"brains {keepers[0]!r} and {keepers[1]!r} both keep the graph")
        self.graph_keeper: str | None = keepers[0] if keepers else None
        """The brain that keeps the catalog graph, if one is registered."""

    def __iter__(self) -> Iterator[BrainSpec]:
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._specs)

    def spec(self, name: str) -> BrainSpec:
        """The spec of ``name``; QueryError naming the known brains if there is none."""
        try:
            return self._specs[name]
        except KeyError:
            raise QueryError(
                f"unknown brain {name!r} (expected {_alternatives(self.names)})"
            ) from None

    def leader(self, query_type: QueryType) -> str | None:
        """The brain whose order leads ``query_type`` answers, if any."""
        return self._leaders.get(query_type)

    def with_brain(self, spec: BrainSpec) -> BrainRegistry:
        """A new registry with ``spec`` added after the others."""
        return BrainRegistry([*self, spec])


def _alternatives(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]
