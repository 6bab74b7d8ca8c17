"""WEAK_MATCHES: a plain-language query whose best matches are far from it says so."""

from __future__ import annotations

from dataclasses import dataclass

from lgent.brains.base import BrainQuery, HitList
from lgent.brains.registry import BrainRegistry
from lgent.config import FusionSettings
from lgent.fusion.fusion import QueryFusion
from lgent.fusion.weak import WORD_EVIDENCE, weak_match_warning
from lgent.models import QueryType
from tests.conftest import make_entry
from tests.fusion.fakes import FakeBrain, run, snapshot_of, spec

ENTRIES = [
    make_entry("TextCleaner", description="Cleans messy text from scraped web pages."),
    make_entry("BreadBaker", description="Bakes sourdough bread at home."),
]


@dataclass
class JudgingBrain(FakeBrain):
    """A fake meaning brain that says its answer is weak when ``weak`` is set."""

    weak: str = ""

    def answer(self, query: BrainQuery) -> HitList:
        made = super().answer(query)
        return HitList(made.hits, made.warnings, weak=self.weak)


def fusion(weak: str, word_hits: list[tuple[str, float]]) -> QueryFusion:
    words = FakeBrain("words", lambda text: word_hits)
    meaning = JudgingBrain("meaning", lambda text: [("TextCleaner", 0.12)], weak=weak)
    specs = [
        spec(
            words, {QueryType.SEMANTIC_INTENT: 0.2, QueryType.EXACT_NAME: 0.5}, matches_words=True
        ),
        spec(meaning, {QueryType.SEMANTIC_INTENT: 0.8, QueryType.EXACT_NAME: 0.5}),
    ]
    registry = BrainRegistry(specs)
    brains = {s.name: s.factory(None) for s in specs}  # type: ignore[arg-type]
    return QueryFusion(brains, registry, snapshot_of(ENTRIES), FusionSettings(), run)


def weak_warnings(warnings: tuple[str, ...]) -> list[str]:
    return [w for w in warnings if w.startswith("weak match")]


def test_the_warning_names_each_weak_brain_and_needs_no_word_evidence() -> None:
    said = weak_match_warning({"meaning": "best similarity 0.12, weak below 0.20"}, [0.2])
    assert said is not None
    assert "meaning: best similarity 0.12, weak below 0.20" in said
    assert "nearest artifacts" in said
    assert weak_match_warning({"meaning": "far"}, [WORD_EVIDENCE]) is None
    assert weak_match_warning({}, []) is None
    assert weak_match_warning({"meaning": "far"}, []) is not None


async def test_a_far_request_is_answered_with_a_warning() -> None:
    found = await fusion("best similarity 0.12, weak below 0.20", []).query(
        "how do I fix a leaking kitchen faucet"
    )
    assert found.query_type == QueryType.SEMANTIC_INTENT
    assert [r.id for r in found.results] == ["TextCleaner"]  # the ranking is unchanged
    (warning,) = weak_warnings(found.warnings)
    assert "meaning: best similarity 0.12" in warning


async def test_no_warning_when_the_meaning_brain_is_not_weak() -> None:
    found = await fusion("", []).query("how do I fix a leaking kitchen faucet")
    assert found.results and not weak_warnings(found.warnings)


async def test_words_held_by_an_artifact_outweigh_a_weak_meaning() -> None:
    # BreadBaker holds every content word of the request: the words match on their own
    request = "bake sourdough bread at home"
    holding = await fusion("far", [("BreadBaker", 3.0)]).query(request)
    assert not weak_warnings(holding.warnings)
    # one incidental word is no evidence
    incidental = await fusion("far", [("TextCleaner", 1.0)]).query("messy kitchen faucet drips")
    assert weak_warnings(incidental.warnings)


async def test_only_plain_language_queries_are_judged() -> None:
    found = await fusion("far", []).query("TextCleaner")
    assert found.query_type == QueryType.EXACT_NAME
    assert not weak_warnings(found.warnings)
