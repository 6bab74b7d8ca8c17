"""The brains L-gent ships, declared once: keyword, semantic and graph.

Each factory imports its brain (and the brain its heavy libraries) only when called. The
weights are each brain's default per query class (``[fusion.weights]`` overrides them), the
table docs/architecture.md shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lgent.brains.base import SIMILAR_RELATION
from lgent.brains.integrity import CHECKSUMS
from lgent.brains.registry import BrainContext, BrainRegistry, BrainSpec, SkipRule
from lgent.models import QueryType

if TYPE_CHECKING:
    from lgent.brains.base import Brain

_CLASSES = (
    QueryType.EXACT_NAME,
    QueryType.KEYWORD_SYNTAX,
    QueryType.TYPE_QUERY,
    QueryType.RELATIONSHIP,
    QueryType.SEMANTIC_INTENT,
)
_WEIGHTS = {  # exact_name, keyword_syntax, type_query, relationship, semantic_intent
    "keyword": (0.8, 1.0, 0.2, 0.1, 0.2),
    "semantic": (0.1, 0.3, 0.0, 0.1, 0.8),
    "graph": (0.1, 0.0, 0.6, 0.7, 0.2),
}
"""The semantic brain has no say in type questions: the graph's answer leads them, and on the
205 labeled queries its votes there changed no result (fused nDCG@10 0.914 either way), while
asking it meant loading the embedding model for a graph question. In a relationship question
it only orders the answers the graph scores alike (``LEADER_TIES``), by closeness in meaning to
the artifact asked about: it ranks by that artifact's stored vector, as for an exact name,
which needs no model. A
keyword-grammar query that has words to compare asks it (0.3: natural text read as grammar
keeps its meaning), so that one does load the model."""


def _weights(brain: str) -> dict[QueryType, float]:
    return dict(zip(_CLASSES, _WEIGHTS[brain], strict=True))


def _keyword(context: BrainContext) -> Brain:
    from lgent.brains.keyword.brain import KeywordBrain

    return KeywordBrain(
        context.index_dir,
        context.settings.keyword,
        entries=context.entries,
        fresh=context.fresh,
        read_only=context.read_only,
        cancelled=context.cancelled,
    )


def _semantic(context: BrainContext) -> Brain:
    from lgent.brains.semantic.brain import SemanticBrain

    embedder = context.embedder
    if embedder is None and isinstance(context.replacing, SemanticBrain):
        embedder = context.replacing.embedder  # a rebuild keeps the model loaded for queries
    return SemanticBrain(
        context.index_dir,
        context.settings.semantic,
        embedder,
        progress=context.progress,
        stage=context.stage,
        cancelled=context.cancelled,
        fresh=context.fresh,
        read_only=context.read_only,
        background=context.background,
    )


def _graph(context: BrainContext) -> Brain:
    from lgent.brains.graph.brain import GraphBrain

    return GraphBrain(context.cancelled)


def _checksummed_files(manifest: Mapping[str, Any]) -> list[str]:
    """The files a manifest records checksums for (every file its index reads)."""
    recorded = manifest.get(CHECKSUMS)
    return sorted(str(name) for name in recorded) if isinstance(recorded, Mapping) else []


def _keyword_check(folder: Path, manifest: Mapping[str, Any]) -> list[str]:
    """tantivy's ``.managed.json`` lists every file of the committed index."""
    from lgent.brains.keyword.managed import managed_problem

    problem = managed_problem(folder, manifest)
    return [problem] if problem else []


def _semantic_check(folder: Path, manifest: Mapping[str, Any]) -> list[str]:
    """Every row of the embedding cache passes its checksum."""
    from lgent.brains.semantic.cache import FILENAME, damaged_rows
    from lgent.errors import IndexError_

    path = folder / FILENAME
    if not path.exists():
        return []
    dimensions = manifest.get("dimensions")
    try:
        count, keys = damaged_rows(path, dimensions if isinstance(dimensions, int) else None)
    except IndexError_ as err:
        return [str(err)]
    if not count:
        return []
    return [
        f"{path}: {count} cached vector(s) fail their checksum (never served: they are embedded "
        f"again when next needed), e.g. {', '.join(k[:12] for k in keys)}"
    ]


KEYWORD = BrainSpec(
    name="keyword",
    summary="BM25 over analyzed fields (tantivy), with the keyword query grammar",
    factory=_keyword,
    weights=_weights("keyword"),
    honours_grammar=True,
    index_files=_checksummed_files,
    matches_words=True,
    quick_reads=True,
    check_index=_keyword_check,
)
SEMANTIC = BrainSpec(
    name="semantic",
    summary="cosine similarity of MiniLM sentence embeddings (faiss)",
    factory=_semantic,
    weights=_weights("semantic"),
    skip=SkipRule.AFTER_LEADER,
    own_thread=True,
    relations=frozenset({SIMILAR_RELATION}),
    slow_build=True,
    index_files=_checksummed_files,
    check_index=_semantic_check,
)
GRAPH = BrainSpec(
    name="graph",
    summary="type lattice, lineage and composition paths (kept in memory)",
    factory=_graph,
    weights=_weights("graph"),
    skip=SkipRule.NEEDS_READING,
    leads=frozenset({QueryType.TYPE_QUERY, QueryType.RELATIONSHIP}),
    reads_questions=True,
)


def default_registry() -> BrainRegistry:
    """Keyword, semantic and graph: the three brains L-gent ships."""
    return BrainRegistry([KEYWORD, SEMANTIC, GRAPH])
