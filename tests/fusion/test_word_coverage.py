"""WORD_COVERAGE: a word-matching brain's votes on a sentence count by the words a hit holds."""

from __future__ import annotations

import pytest

from lgent.brains.registry import BrainRegistry
from lgent.config import FusionSettings
from lgent.errors import SettingsError
from lgent.fusion.coverage import coverage, coverage_scales, query_words
from lgent.fusion.fusion import QueryFusion
from lgent.fusion.rrf import weighted_rrf, weighted_score_fusion
from lgent.models import QueryType
from tests.fusion.fakes import SENTENCE, SENTENCE_ENTRIES, FakeBrain, run, snapshot_of, spec

ENTRIES = SENTENCE_ENTRIES
BY_ID = {e.id: e for e in ENTRIES}


def test_query_words_are_stemmed_content_words() -> None:
    assert query_words("Cleaning the messy PDFParser pages") >= {"clean", "messi", "page"}
    assert "the" not in query_words("Cleaning the messy pages")


def test_coverage_is_the_share_of_query_words_an_artifact_holds() -> None:
    words = query_words(SENTENCE)
    assert coverage(words, BY_ID["TextCleaner"]) > 0.7
    assert 0 < coverage(words, BY_ID["PageCounter"]) < 0.3
    assert coverage(words, BY_ID["Unrelated"]) == 0
    assert coverage(frozenset(), BY_ID["Unrelated"]) == 1.0


def test_scales_saturate_at_one() -> None:
    words = query_words(SENTENCE)
    scales = coverage_scales(words, list(BY_ID), BY_ID, saturation=0.5)
    assert scales["TextCleaner"] == 1.0
    assert 0 < scales["PageCounter"] < 0.5
    assert scales["Unrelated"] == 0.0


def test_both_fusion_functions_apply_scales() -> None:
    rankings = {"kw": [("a", 2.0), ("b", 1.0)], "sem": [("b", 0.9), ("a", 0.1)]}
    weights = {"kw": 1.0, "sem": 1.0}
    assert weighted_score_fusion(rankings, weights)[0].id == "a"
    scaled = weighted_score_fusion(rankings, weights, {"kw": {"a": 0.0}})
    assert [f.id for f in scaled] == ["b", "a"]
    rrf = weighted_rrf(rankings, {"kw": 1.0, "sem": 0.5}, scales={"kw": {"a": 0.1}})
    assert rrf[0].id == "b"


def fusion_with(saturation: float, matches_words: bool = True) -> QueryFusion:
    # the word-matching brain puts an artifact that shares one word first
    ids = ("PageCounter", "TextCleaner", "Unrelated")
    words = FakeBrain("words", lambda text: list(zip(ids, (9.0, 5.0, 1.0), strict=True)))
    meaning = FakeBrain("meaning", lambda text: list(zip(ids[::-1], (0.5, 0.25, 0.1), strict=True)))
    specs = [
        spec(words, {QueryType.SEMANTIC_INTENT: 0.6}, matches_words=matches_words),
        spec(meaning, {QueryType.SEMANTIC_INTENT: 0.4}),
    ]
    settings = FusionSettings(method="score", coverage_saturation=saturation)
    registry = BrainRegistry(specs)
    brains = {s.name: s.factory(None) for s in specs}  # type: ignore[arg-type]
    return QueryFusion(brains, registry, snapshot_of(ENTRIES), settings, run)


async def test_a_one_word_hit_loses_its_lead_on_a_sentence() -> None:
    plain = await fusion_with(0.0).query(SENTENCE)
    assert plain.query_type == QueryType.SEMANTIC_INTENT
    assert plain.results[0].id == "PageCounter"  # 0.6 against 0.45 and 0.4
    covered = await fusion_with(0.5).query(SENTENCE)
    assert covered.results[0].id == "TextCleaner"
    ignored = await fusion_with(0.5, matches_words=False).query(SENTENCE)
    assert ignored.results[0].id == "PageCounter"


def test_saturation_is_checked() -> None:
    with pytest.raises(SettingsError, match="coverage_saturation"):
        FusionSettings(coverage_saturation=2)
