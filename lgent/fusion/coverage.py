"""Word coverage: how much of a plain-language query an artifact's own words hold.

A brain that matches words (BM25) always returns something for a sentence, even when the best
hit shares one incidental word with it ("make a smaller preview picture for each item" matches
any artifact that says "item"). Its min-max normalized score says nothing about that: the best
hit is 1.0 either way. Fusion's ``WORD_COVERAGE`` rule scales such a brain's votes on a
plain-language query by ``min(1, coverage / saturation)``, where ``coverage`` is the share of the
query's content words (stemmed, stop words dropped, identifiers split) found in the artifact's
name, description and keywords. A hit holding ``saturation`` of the words or more votes fully.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

from lgent.analysis.tokens import token_texts
from lgent.models import CatalogEntry, EntryText

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

CACHED_ENTRIES = 8192
"""Artifacts whose analyzed words are kept between queries."""


def query_words(text: str) -> frozenset[str]:
    """The stemmed content words of a query."""
    return frozenset(token_texts(text, stemmed=True, drop_stop_words=True))


@lru_cache(maxsize=CACHED_ENTRIES)
def _artifact_words(name: str, description: str, keywords: tuple[str, ...]) -> frozenset[str]:
    return query_words(" ".join((name, description, *keywords)))


def artifact_words(entry: EntryText) -> frozenset[str]:
    """The stemmed content words of an artifact's name, description and keywords."""
    return _artifact_words(entry.name, entry.description, entry.keywords)


def coverage(words: frozenset[str], entry: CatalogEntry) -> float:
    """The share of ``words`` (a query's) that ``entry`` holds; 1.0 for no words."""
    if not words:
        return 1.0
    return len(words & artifact_words(entry)) / len(words)


def coverage_scales(
    words: frozenset[str],
    ids: Iterable[str],
    entries: Mapping[str, CatalogEntry],
    saturation: float,
    floor: float = 0.0,
) -> dict[str, float]:
    """``floor + (1 - floor) * min(1, coverage / saturation)`` per id: the factor its
    word-matching votes get."""
    return {
        i: floor + (1.0 - floor) * min(1.0, coverage(words, entries[i]) / saturation)
        for i in ids
        if i in entries
    }


async def read_words(state: QueryState, context: FusionContext) -> None:
    """The step: the content words the rules for plain-language queries read (LONG_REQUESTS,
    WORD_FEEDBACK, WORD_COVERAGE, WEAK_MATCHES), analyzed once."""
    if state.plain:
        state.words = query_words(state.c.plain or state.text)


async def word_coverage(state: QueryState, context: FusionContext) -> None:
    """``WORD_COVERAGE``: on a plain-language query, each word-matching brain's vote for an
    artifact is scaled by how many of the query's words it holds."""
    settings = context.settings
    if settings.coverage_saturation <= 0 or not state.plain:
        return
    snap = state.catalog
    for spec in context.registry:
        if spec.voting.matches_words and state.rankings.get(spec.name):
            ids = [i for i, _ in state.rankings[spec.name]]
            entries = {i: snap.entry(i) for i in ids if i in snap}
            found = coverage_scales(
                state.words, ids, entries, settings.coverage_saturation, settings.coverage_floor
            )
            if settings.coverage_scope == "query":
                best = max(found.values(), default=1.0)
                found = dict.fromkeys(found, best)
            state.scales[spec.name] = found
