"""Plain words asked of the keyword brain directly, ranked as a search box ranks them.

The grammar's implicit operator is AND, so a sentence typed into ``lgent search --brain
keyword`` ("current stock price for a ticker symbol") used to require every one of its words and
found nothing although tools hold most of them. A search engine's box does not: Elasticsearch's
``minimum_should_match`` and Meilisearch's ``matchingStrategy`` match most of the words and rank
by how many an artifact holds. ``rank_by_coverage`` does the same for a direct search whose text
is only plain words (no field, operator, phrase or wildcard: those keep the grammar's meaning):
the artifacts holding all the words first, then those holding one fewer, and so on down to the
minimum (every word up to ``ALL_WORDS_UP_TO`` words, else ``COVERAGE_SHARE`` of them, rounded
up), each tier in BM25 order. When no artifact reaches the minimum, the best tier that holds any
is shown, and the answer says so. A hit's score is the number of words it holds plus its BM25
score squashed into [0, 1) (``bm25 / (bm25 + 1)``), so the order reads off the scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from lgent.brains.keyword.cjk import with_cjk_parts
from lgent.grammar import ast
from lgent.models import SearchFilters

if TYPE_CHECKING:
    from lgent.brains.keyword.brain import KeywordBrain, KeywordResult

ALL_WORDS_UP_TO = 2
"""A query of at most this many words must match all of them (if any artifact holds them)."""
COVERAGE_SHARE = 0.5
"""Longer queries: an artifact must hold at least this share of the words (rounded up)."""


def plain_words(node: ast.Node | None) -> ast.Or | None:
    """The words of a query tree that is only plain words (an AND of unfielded terms), as the
    OR a minimum-should-match counts, with the parts of words written without spaces
    (``cjk.with_cjk_parts``); None for anything else (one word of one part, fields, phrases,
    operators, wildcards: the grammar's own meaning)."""
    if isinstance(node, ast.Term) and node.field is None:
        expanded = with_cjk_parts(node)
        return expanded if isinstance(expanded, ast.Or) else None
    if isinstance(node, ast.And) and all(
        isinstance(child, ast.Term) and child.field is None for child in node.children
    ):
        expanded = with_cjk_parts(ast.Or(node.children))
        return expanded if isinstance(expanded, ast.Or) else None
    return None


def minimum_words(words: int) -> int:
    """How many of ``words`` query words an artifact must hold."""
    return words if words <= ALL_WORDS_UP_TO else math.ceil(words * COVERAGE_SHARE)


def coverage_score(held: int, bm25: float) -> float:
    """A hit's score: the words it holds, then its BM25 score squashed into [0, 1)."""
    return held + bm25 / (bm25 + 1.0)


def rank_by_coverage(
    brain: KeywordBrain,
    words: ast.Or,
    text: str,
    filters: SearchFilters | None,
    limit: int,
    warnings: Sequence[str] = (),
) -> KeywordResult:
    """The first ``limit`` artifacts by the number of ``words`` they hold, then BM25; the
    total counts those holding the minimum (``minimum_words``)."""
    n = brain.compiler.clauses(words)
    least = minimum_words(n)
    ranking: list[tuple[str, float]] = []
    seen: set[str] = set()
    held_by: dict[int, int] = {}
    result: KeywordResult | None = None

    def tier(k: int, room: int) -> KeywordResult:
        found = brain.search_tree(
            words, text, filters, max(room, 1), min_count=k, explain_top=0, warnings=warnings
        )
        held_by[k] = found.total
        for artifact_id, score in found.ranking:
            if artifact_id not in seen and len(ranking) < limit:
                seen.add(artifact_id)
                ranking.append((artifact_id, coverage_score(k, score)))
        return found

    for k in range(n, least - 1, -1):
        result = tier(k, limit)
        if len(ranking) >= limit and k > least:
            tier(least, 1)  # the total: every artifact holding the minimum
            break
    assert result is not None, "a query of plain words has at least one word"
    used = least
    said = [*warnings]
    if held_by.get(least, 0) == 0:
        for k in range(least - 1, 0, -1):
            result = tier(k, limit)
            if held_by[k]:
                used = k
                said.append(f"no artifact holds {least} of the {n} words; these hold {k} of them")
                break
    said.append(
        f"the {n} words were matched as a search box matches them: ranked by how many of "
        f"them an artifact holds (at least {used}), then by BM25; {held_by.get(n, 0)} hold "
        f"all {n} (the grammar's AND applies to queries with fields or operators)"
    )
    result.ranking = ranking
    result.total = held_by.get(used, 0)
    result.warnings = said
    return result
