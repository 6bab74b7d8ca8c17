"""SemanticBrain with the hashing embedder: build, search, filters, find_similar, explanations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lgent.brains.base import Brain, ChangeSet
from lgent.brains.semantic.brain import SemanticBrain
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.brains.semantic.settings import SemanticSettings
from lgent.errors import IndexError_, NotFoundError, QueryError
from lgent.models import BrainHit, EntityType, Execution, SearchFilters, Status
from tests.brains.semantic.conftest import CATALOG, entry


def ids(hits: list[BrainHit]) -> list[str]:
    return [h.id for h in hits]


def test_is_a_brain_and_reports_status(brain: SemanticBrain) -> None:
    assert isinstance(brain, Brain)
    status = brain.status()
    assert (status.name, status.ready, status.documents, status.change_number) == (
        "semantic",
        True,
        len(CATALOG),
        1,
    )
    assert status.extra == {
        "model": "hashing:64d",
        "dimensions": 64,
        "text_mode": "plain",
        "entry_tokens": None,  # the hashing embedder counts no word pieces: texts stay whole
        "texts_cut": 0,
        "index": "flat",
        "tombstones": 0,
    }


def test_unbuilt_brain_says_so_and_refuses_search(hashing: HashingEmbedder) -> None:
    brain = SemanticBrain(None, SemanticSettings(), hashing)
    assert brain.change_number == -1 and not brain.status().ready
    with pytest.raises(IndexError_, match="not built"):
        brain.search("anything")


def test_changes_need_a_built_index(hashing: HashingEmbedder) -> None:
    brain = SemanticBrain(None, SemanticSettings(), hashing)
    with pytest.raises(IndexError_, match="not built"):
        brain.apply_changes(ChangeSet(CATALOG, [], None, 3))


def test_search_ranks_by_cosine_and_explains(brain: SemanticBrain) -> None:
    hits = brain.search("clean up messy text", limit=3)
    assert hits[0].id == "text-normalizer"
    assert [h.rank for h in hits] == [1, 2, 3]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    top = hits[0]
    assert top.brain == "semantic" and -1.0 <= top.score <= 1.0
    assert top.explanation["brain"] == "semantic"
    assert top.explanation["similarity"] == round(top.score, 4)
    assert top.explanation["reason"] == "mentions clean, messy, text from the query"
    assert top.matched_fields == ("name", "description", "keywords")
    json.dumps(top.explanation)  # JSON-serializable


def test_reason_without_shared_words_quotes_the_description(brain: SemanticBrain) -> None:
    hit = next(h for h in brain.search("zzz qqq", limit=10) if h.id == "sentiment")
    assert hit.explanation["reason"] == (
        "closest in meaning to: Scores the sentiment of product reviews as positive or negative."
    )
    assert hit.matched_fields == ()


def test_threshold_and_limit(brain: SemanticBrain) -> None:
    everything = brain.search("pdf documents", limit=100)
    assert len(everything) == len(CATALOG)  # settings.threshold is -1 in these tests
    strict = brain.search("pdf documents", threshold=0.3, limit=100)
    assert strict and all(h.score >= 0.3 for h in strict) and len(strict) < len(everything)
    assert brain.search("pdf documents", limit=0) == []
    assert len(brain.search("pdf documents", limit=2)) == 2


def test_default_threshold_comes_from_settings(hashing: HashingEmbedder) -> None:
    brain = SemanticBrain(None, SemanticSettings(threshold=0.99), hashing)
    brain.build(CATALOG, [], 1)
    assert brain.search("pdf documents") == []


def test_an_answer_whose_best_match_is_below_weak_match_says_so(hashing: HashingEmbedder) -> None:
    brain = SemanticBrain(None, SemanticSettings(threshold=-1, weak_match=0.3), hashing)
    brain.build(CATALOG, [], 1)
    close = brain.rank("clean up messy text")
    assert close.ranking[0][1] >= 0.3 and close.weak == ""
    far = brain.rank("zebra quokka xylophone")
    best = far.ranking[0][1]
    assert best < 0.3
    assert far.weak == f"best similarity {best:.2f}, weak below 0.30"
    # the threshold may hide every hit: the answer is still judged by the best of them
    hidden = SemanticBrain(None, SemanticSettings(threshold=0.99, weak_match=0.3), hashing)
    hidden.build(CATALOG, [], 1)
    assert hidden.rank("zebra quokka xylophone").ranking == []
    assert hidden.rank("zebra quokka xylophone").weak.startswith("best similarity")
    never = SemanticBrain(None, SemanticSettings(threshold=-1, weak_match=-1), hashing)
    never.build(CATALOG, [], 1)
    assert never.rank("zebra quokka xylophone").weak == ""


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"intent": "   "}, "non-empty intent"),
        ({"intent": "x", "limit": -1}, "limit must be >= 0"),
        ({"intent": "x", "threshold": 1.5}, r"threshold must be a number in \[-1, 1\]"),
    ],
)
def test_bad_arguments_are_query_errors(
    brain: SemanticBrain, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(QueryError, match=message):
        brain.search(**kwargs)


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (SearchFilters(status=(Status.DEPRECATED,)), {"sentiment"}),
        (
            SearchFilters(entity_type=(EntityType.AGENT, EntityType.MODEL)),
            {"translator", "sentiment"},
        ),
        (SearchFilters(author=("ADA",)), {"pdf-parser", "pdf-parser-v2"}),
        (SearchFilters(execution=(Execution.LOCAL,)), {"pdf-reader"}),
        (SearchFilters(status=(Status.ACTIVE,), execution=(Execution.CLOUD,)), {"translator"}),
        (SearchFilters(), {e.id for e in CATALOG}),
    ],
)
def test_filters(brain: SemanticBrain, filters: SearchFilters, expected: set[str]) -> None:
    assert set(ids(brain.search("pdf text", filters, limit=100))) == expected


def test_find_similar_excludes_itself_and_its_versions(brain: SemanticBrain) -> None:
    similar = ids(brain.find_similar("pdf-parser-v2", limit=10))
    assert similar[0] == "pdf-reader"
    assert not {"pdf-parser", "pdf-parser-v2", "pdf-parser-v3"} & set(similar)
    assert len(similar) == len(CATALOG) - 3
    assert brain.lineage("pdf-parser") == {"pdf-parser", "pdf-parser-v2", "pdf-parser-v3"}
    assert brain.lineage("translator") == {"translator"}


def test_find_similar_explains_and_limits(brain: SemanticBrain) -> None:
    hits = brain.find_similar("pdf-reader", limit=2)
    assert [h.rank for h in hits] == [1, 2]
    assert hits[0].explanation["similar_to"] == "pdf-reader"
    assert hits[0].explanation["reason"].startswith("shares pdf")
    assert hits[0].explanation["reason"].endswith("with PDFReader")
    assert brain.find_similar("pdf-reader", limit=0) == []


def test_find_similar_of_an_unknown_id_is_not_found(brain: SemanticBrain) -> None:
    with pytest.raises(NotFoundError, match="'nope'"):
        brain.find_similar("nope")


def test_apply_changes_re_embeds_only_changed_text(brain: SemanticBrain) -> None:
    before = brain.counters.texts_embedded
    changed = entry(
        "translator",
        name="Translator",
        entity_type="agent",
        description="Translates spoken words between human languages.",
    )
    retyped = entry(
        "csv-to-json",
        name="CsvToJson",
        status="deprecated",
        description="Converts CSV tables into JSON records.",
        keywords=["convert", "format"],
        input_type="CSV",
        output_type="JSON",
    )
    brain.apply_changes(ChangeSet([changed, retyped], ["sentiment"], None, 2))
    assert brain.counters.texts_embedded == before + 1  # status-only change: no re-embedding
    assert brain.change_number == 2 and brain.status().documents == len(CATALOG) - 1
    assert "sentiment" not in ids(brain.search("sentiment of reviews", limit=100))
    deprecated = SearchFilters(status=(Status.DEPRECATED,))
    assert ids(brain.search("csv", deprecated, limit=100)) == ["csv-to-json"]
    assert brain.search("spoken words", limit=1)[0].id == "translator"


def test_build_replaces_everything(brain: SemanticBrain) -> None:
    brain.build([CATALOG[0], CATALOG[5]], [], 9)
    assert brain.change_number == 9
    assert set(ids(brain.search("text", limit=100))) == {"text-normalizer", "translator"}


def test_query_embeddings_are_cached(brain: SemanticBrain) -> None:
    calls = brain.counters.embed_calls
    brain.search("parse pdf")
    brain.search("  parse pdf ")
    brain.search("parse pdf", SearchFilters(status=(Status.ACTIVE,)))
    assert brain.counters.embed_calls == calls + 1
    assert (brain.counters.query_cache_misses, brain.counters.query_cache_hits) == (1, 2)


def test_a_zero_sized_query_cache_embeds_every_time(hashing: HashingEmbedder) -> None:
    brain = SemanticBrain(None, SemanticSettings(query_cache_size=0), hashing)
    brain.build(CATALOG, [], 1)
    brain.search("parse pdf")
    brain.search("parse pdf")
    assert brain.counters.embed_calls == 3  # one build batch, two queries


def test_progress_reports_cached_and_embedded_entries(hashing: HashingEmbedder) -> None:
    seen: list[tuple[int, int]] = []
    brain = SemanticBrain(
        None, SemanticSettings(), hashing, progress=lambda done, total: seen.append((done, total))
    )
    brain.build(CATALOG, [], 1)
    assert seen[0] == (0, len(CATALOG)) and seen[-1] == (len(CATALOG), len(CATALOG))


def test_hnsw_brain_searches_filters_and_updates(hashing: HashingEmbedder, tmp_path: Path) -> None:
    settings = SemanticSettings(threshold=-1, hnsw_threshold=2)
    brain = SemanticBrain(tmp_path, settings, hashing)
    brain.build(CATALOG, [], 1)
    assert brain.status().extra["index"] == "hnsw"
    assert brain.search("clean messy text", limit=1)[0].id == "text-normalizer"
    assert ids(brain.search("pdf", SearchFilters(execution=(Execution.LOCAL,)))) == ["pdf-reader"]
    brain.apply_changes(ChangeSet([], ["text-normalizer"], None, 2))
    assert "text-normalizer" not in ids(brain.search("clean messy text", limit=100))
    assert ids(brain.find_similar("pdf-parser"))[0] == "pdf-reader"
    brain.close()
    again = SemanticBrain(tmp_path, settings, HashingEmbedder(64))
    assert again.change_number == 2 and again.status().extra["index"] == "hnsw"
    assert "text-normalizer" not in ids(again.search("clean messy text", limit=100))


def test_closed_brain_refuses_work(brain: SemanticBrain) -> None:
    brain.close()
    with pytest.raises(IndexError_, match="closed"):
        brain.search("pdf")


def test_a_question_about_alternatives_ranks_by_the_artifacts_own_vector(
    brain: SemanticBrain,
) -> None:
    """ "Similar to X" is answered with X's stored vector (no query embedding); a question about
    another relation has nothing to compare, and the question's words are never embedded."""
    from lgent.brains.base import SIMILAR_RELATION, BrainQuery, Reading
    from lgent.models import QueryType

    def ask(relation: str, about: str = "pdf-reader") -> list[str]:
        reading = Reading("relationship", f"{relation} {about}", artifact=about, relation=relation)
        query = BrainQuery(
            f"what is {relation} to {about}",
            5,
            query_type=QueryType.RELATIONSHIP,
            reading=reading,
        )
        return [i for i, _ in brain.answer(query).ranking]

    calls = brain.counters.embed_calls
    alike = ask(SIMILAR_RELATION)
    assert alike[0] == "pdf-reader" and alike[1:3] == ids(brain.find_similar("pdf-reader", 2))
    assert ask("dependents") == [] and ask(SIMILAR_RELATION, about="nope") == []
    assert brain.counters.embed_calls == calls


def test_a_query_moved_toward_artifacts_ranks_them_higher_and_says_so(
    brain: SemanticBrain,
) -> None:
    plain = brain.rank("parse pdf files", limit=len(CATALOG))
    calls = brain.counters.embed_calls
    before = [i for i, _ in plain.ranking].index("translator")
    moved = plain.moved_toward(("translator", "gone"), 1.0)
    assert brain.counters.embed_calls == calls  # the query is not embedded again
    assert [i for i, _ in moved.ranking].index("translator") < before
    assert moved.notes == (
        "the semantic brain's query was moved toward 1 artifact that its words found (translator)",
    )
    assert moved.weak == plain.weak
    hit = moved.explain("translator", CATALOG[5])
    assert hit is not None and hit.explanation["query_moved_toward"] == ["translator"]
    unmoved = plain.explain("translator", CATALOG[5])
    assert unmoved is not None and "query_moved_toward" not in unmoved.explanation
    # no weight, or only ids the index does not hold: the answer itself
    assert plain.moved_toward(("translator",), 0.0) is plain
    assert plain.moved_toward(("gone",), 1.0) is plain
