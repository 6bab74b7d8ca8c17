"""The keyword brain, declared: BM25 over analyzed fields (tantivy), with the query grammar."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lgent.brains.base import GrammarFilter
from lgent.brains.integrity import checksummed_files
from lgent.brains.keyword.settings import KeywordSettings
from lgent.brains.registry import BrainContext, BrainSpec, Hints, Voting, class_weights

if TYPE_CHECKING:
    from lgent.brains.base import Brain


def _keyword(context: BrainContext) -> Brain:
    from lgent.brains.keyword.brain import KeywordBrain

    return KeywordBrain(
        context.index_dir,
        context.settings.section("keyword", KeywordSettings),
        entries=context.entries,
        fresh=context.fresh,
        read_only=context.read_only,
        cancelled=context.cancelled,
    )


def _keyword_check(folder: Path, manifest: Mapping[str, Any]) -> list[str]:
    """tantivy's ``.managed.json`` lists every file of the committed index."""
    from lgent.brains.keyword.managed import managed_problem

    problem = managed_problem(folder, manifest)
    return [problem] if problem else []


KEYWORD = BrainSpec(
    name="keyword",
    summary="BM25 over analyzed fields (tantivy), with the keyword query grammar",
    factory=_keyword,
    weights=class_weights(0.8, 1.0, 0.2, 0.1, 0.2),
    voting=Voting(matches_words=True),
    capabilities=frozenset({GrammarFilter}),
    hints=Hints(quick_reads=True),
    index_files=checksummed_files,
    check_index=_keyword_check,
    settings=KeywordSettings,
)
