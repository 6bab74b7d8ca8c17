"""The graph brain, declared: type lattice, lineage and composition paths (in memory, opened
from a snapshot)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lgent.brains.base import KeepsGraph, QuestionReader
from lgent.brains.integrity import checksummed_files
from lgent.brains.registry import BrainContext, BrainSpec, SkipRule, Voting, class_weights
from lgent.models import QueryType

if TYPE_CHECKING:
    from lgent.brains.base import Brain


def _graph(context: BrainContext) -> Brain:
    from lgent.brains.graph.brain import GraphBrain

    return GraphBrain(
        context.index_dir,
        fresh=context.fresh,
        read_only=context.read_only,
        cancelled=context.cancelled,
    )


GRAPH = BrainSpec(
    name="graph",
    summary="type lattice, lineage and composition paths (in memory, opened from a snapshot)",
    factory=_graph,
    weights=class_weights(0.1, 0.0, 0.6, 0.7, 0.2),
    voting=Voting(
        skip=SkipRule.NEEDS_READING,
        leads=frozenset({QueryType.TYPE_QUERY, QueryType.RELATIONSHIP}),
    ),
    capabilities=frozenset({QuestionReader, KeepsGraph}),
    index_files=checksummed_files,
)
