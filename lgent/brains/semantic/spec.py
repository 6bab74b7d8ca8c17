"""The semantic brain, declared: cosine similarity of MiniLM sentence embeddings (faiss)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lgent.brains.base import SIMILAR_RELATION, PreparesChanges
from lgent.brains.integrity import checksummed_files
from lgent.brains.registry import BrainContext, BrainSpec, Hints, SkipRule, Voting, class_weights
from lgent.brains.semantic.settings import SemanticSettings

if TYPE_CHECKING:
    from lgent.brains.base import Brain


BUILD_RATE = 50.0
"""About how many entries a second a build embeds on 2 cores, for the time a long build is said
to take (docs/benchmarks.md, "Embedding long texts")."""


def _semantic(context: BrainContext) -> Brain:
    from lgent.brains.semantic.brain import SemanticBrain

    embedder = context.embedder
    if embedder is None and isinstance(context.replacing, SemanticBrain):
        embedder = context.replacing.embedder  # a rebuild keeps the model loaded for queries
    return SemanticBrain(
        context.index_dir,
        context.settings.section("semantic", SemanticSettings),
        embedder,
        progress=context.progress,
        stage=context.stage,
        cancelled=context.cancelled,
        fresh=context.fresh,
        read_only=context.read_only,
        background=context.background,
    )


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


SEMANTIC = BrainSpec(
    name="semantic",
    summary="cosine similarity of MiniLM sentence embeddings (faiss)",
    factory=_semantic,
    weights=class_weights(0.1, 0.3, 0.0, 0.1, 0.8),
    voting=Voting(skip=SkipRule.AFTER_LEADER, relations=frozenset({SIMILAR_RELATION})),
    capabilities=frozenset({PreparesChanges}),
    hints=Hints(own_thread=True, slow_build=True, build_rate=BUILD_RATE),
    index_files=checksummed_files,
    check_index=_semantic_check,
    settings=SemanticSettings,
)
"""It has no say in type questions: the graph's answer leads them, and on the 205 labeled
queries its votes there changed no result (fused nDCG@10 0.914 either way), while asking it
meant loading the embedding model for a graph question. In a relationship question it only
orders the answers the graph scores alike (``LEADER_TIES``), by closeness in meaning to the
artifact asked about: it ranks by that artifact's stored vector, as for an exact name, which
needs no model. A keyword-grammar query that has words to compare asks it (0.3: natural text
read as grammar keeps its meaning), so that one does load the model."""
