"""CONTENT_POOLING: entries pooled from their content words, long requests also by clause."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pytest

from lgent.analysis.clauses import clause_spans, clauses
from lgent.brains.semantic.brain import SemanticBrain
from lgent.brains.semantic.embedders import HashingEmbedder, Vectors
from lgent.brains.semantic.pooling import (
    POOLING_TAG,
    Pools,
    PoolsPieces,
    clause_pools,
    clause_share,
    content_pools,
    content_weights,
    pool,
)
from lgent.brains.semantic.ranking import clause_lifted
from lgent.brains.semantic.settings import SemanticSettings
from lgent.errors import SettingsError
from tests.brains.semantic.conftest import RealEmbedder, entry

_PIECE = re.compile(r"\S+")


class WordPieces:
    """A stand-in for a transformer: one piece per word (its hashed vector, so a piece says
    only what its word says), framed by two special pieces with empty spans."""

    def __init__(self, dimensions: int = 64) -> None:
        self.words = HashingEmbedder(dimensions)
        self.pooled: list[str] = []

    @property
    def name(self) -> str:
        return "word-pieces"

    @property
    def dimensions(self) -> int:
        return self.words.dimensions

    def _pieces(self, text: str) -> tuple[Vectors, list[tuple[int, int]]]:
        found = [(m.start(), m.end()) for m in _PIECE.finditer(text)]
        words = [text[a:b] for a, b in found]
        special = np.full((1, self.dimensions), 0.01, dtype=np.float32)
        states = [special, *([self.words.embed_batch(words)] if words else []), special]
        return np.concatenate(states), [(0, 0), *found, (0, 0)]

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """The plain mean of every piece, as a model trained that way embeds."""
        rows = []
        for text in texts:
            states, spans = self._pieces(text)
            rows.append(pool(states, np.ones((1, len(spans)), dtype=np.float32))[0])
        return np.stack(rows)

    def embed_pooled(self, texts: Sequence[str], pools: Pools) -> list[Vectors]:
        self.pooled.extend(texts)
        out = []
        for text in texts:
            states, spans = self._pieces(text)
            out.append(pool(states, pools(text, spans)))
        return out


def spans_of(text: str) -> list[tuple[int, int]]:
    return [(0, 0), *((m.start(), m.end()) for m in _PIECE.finditer(text)), (0, 0)]


def test_stop_words_weigh_nothing_and_special_pieces_count() -> None:
    text = "I want to convert the dollars into euros"
    weights = content_weights(text, spans_of(text))
    kept = [text[a:b] for (a, b), w in zip(spans_of(text), weights, strict=True) if w and b > a]
    assert kept == ["convert", "dollars", "euros"]
    assert weights[0] == weights[-1] == 1.0  # [CLS] and [SEP]


def test_a_text_of_stop_words_keeps_the_plain_mean() -> None:
    text = "what is it for"
    assert content_weights(text, spans_of(text)).tolist() == [1.0] * 6


def test_an_identifier_holding_a_stop_word_is_content() -> None:
    text = "the html_to_markdown converter"
    weights = content_weights(text, spans_of(text))
    assert weights.tolist() == [1.0, 0.0, 1.0, 1.0, 1.0]


def test_content_pooling_is_the_mean_of_the_content_pieces() -> None:
    states = np.eye(4, dtype=np.float32)
    text = "the weather"  # [CLS] the weather [SEP]
    vector = pool(states, content_pools(text, [(0, 0), (0, 3), (4, 11), (0, 0)]))
    assert vector.shape == (1, 4)
    np.testing.assert_allclose(vector[0], np.array([1, 0, 1, 1]) / np.sqrt(3), rtol=1e-6)


def test_clause_spans_cover_the_clauses() -> None:
    text = "Find the weather in Paris, and convert 20 dollars into euros please."
    spans = clause_spans(text)
    assert [text[a:b] for a, b in spans] == clauses(text)
    merged = "I am interested in esports and WNBA and want the scores of last night"
    # a part too short alone joins the clause before it: the span runs across the joiner
    assert [merged[a:b] for a, b in clause_spans(merged)] == [
        "I am interested in esports and WNBA",
        "want the scores of last night",
    ]
    assert clauses(merged)[0] == "I am interested in esports WNBA"


def test_a_request_gets_its_plain_mean_then_one_row_per_clause() -> None:
    text = "check the weather in Paris and convert twenty dollars into euros"
    rows = clause_pools(text, spans_of(text))
    assert rows.shape == (3, len(spans_of(text)))
    assert rows[0].tolist() == [1.0] * len(spans_of(text))  # the request as trained
    words = [text[a:b] for a, b in spans_of(text)]
    first = [w for w, x in zip(words, rows[1], strict=True) if x]
    second = [w for w, x in zip(words, rows[2], strict=True) if x]
    assert first == ["check", "weather", "Paris"]
    assert second == ["convert", "twenty", "dollars", "euros"]
    assert clause_pools("check the weather", spans_of("check the weather")).shape[0] == 1


def test_the_clause_share_grows_with_the_request() -> None:
    settings = SemanticSettings(clause_share=0.8, clause_short_words=10, clause_long_words=20)
    assert clause_share(10, settings) == 0.0
    assert clause_share(15, settings) == pytest.approx(0.4)
    assert clause_share(30, settings) == pytest.approx(0.8)
    assert clause_share(30, SemanticSettings(clause_share=0)) == 0.0


@pytest.mark.parametrize(
    "values",
    [
        {"pooling": "max"},
        {"clause_share": 1.5},
        {"clause_share": True},
        {"clause_short_words": 20, "clause_long_words": 20},
        {"clause_short_words": -1},
    ],
)
def test_bad_pooling_settings_are_refused(values: dict[str, object]) -> None:
    with pytest.raises(SettingsError, match="semantic"):
        SemanticSettings(**values)  # type: ignore[arg-type]


def test_clause_lifted_rescores_what_the_request_found() -> None:
    stored = {"a": [1.0, 0.0], "b": [0.6, 0.8], "c": [0.0, 1.0]}
    vectors = [np.array([1.0, 0.0], dtype=np.float32), np.array([0.0, 1.0], dtype=np.float32)]

    def matrix(ids: Sequence[str]) -> Vectors:
        return np.array([stored[i] for i in ids], dtype=np.float32)

    found = [("a", 1.0), ("b", 0.6), ("c", 0.0)]
    half = clause_lifted(vectors, found, matrix, 0.5)
    assert dict(half) == pytest.approx({"a": 1.0, "b": 0.7, "c": 0.5})
    assert [i for i, _ in clause_lifted(vectors, found, matrix, 1.0)] == ["a", "c", "b"]
    assert dict(clause_lifted(vectors, found, matrix, 0.0)) == pytest.approx(dict(found))
    assert clause_lifted(vectors, found[:1], matrix, 1.0) == [("a", 1.0)]  # nothing added
    assert clause_lifted(vectors[:1], found, matrix, 1.0) == found


CATALOG = [
    entry("weather", name="Forecast", description="the weather forecast for a city"),
    entry("money", name="Exchange", description="convert dollars into euros and other currencies"),
    entry("mail", name="Mailer", description="send an email message to a person"),
]
LONG = (
    "I am planning a holiday in Paris next month with my family, could you check the "
    "weather forecast there; also convert two hundred dollars into euros for the trip"
)


def test_the_brain_pools_entries_and_names_its_vectors_apart() -> None:
    embedder = WordPieces()
    brain = SemanticBrain(None, SemanticSettings(threshold=-1.0), embedder)
    brain.build(CATALOG, [], 1)
    assert isinstance(embedder, PoolsPieces)
    assert brain.status().extra["model"] == f"word-pieces+{POOLING_TAG}"
    assert len(embedder.pooled) == len(CATALOG)  # every entry text pooled, once
    plain = SemanticBrain(None, SemanticSettings(threshold=-1.0, pooling="mean"), embedder)
    plain.build(CATALOG, [], 1)
    assert plain.status().extra["model"] == "word-pieces"
    pooled_vector = brain._vectors.vector("weather")
    plain_vector = plain._vectors.vector("weather")
    assert float(pooled_vector @ plain_vector) < 0.999  # "the", "for", "a" left out


def test_a_long_request_of_two_needs_finds_both() -> None:
    embedder = WordPieces()
    on = SemanticBrain(None, SemanticSettings(threshold=-1.0, clause_share=1.0), embedder)
    off = SemanticBrain(None, SemanticSettings(threshold=-1.0, clause_share=0.0), embedder)
    for brain in (on, off):
        brain.build(CATALOG, [], 1)
    with_clauses = on.rank(LONG, limit=3)
    alone = off.rank(LONG, limit=3)
    scores = dict(with_clauses.ranking)
    before = dict(alone.ranking)
    # the clause of each need lifts its artifact; nothing falls
    assert scores["weather"] > before["weather"]
    assert scores["money"] > before["money"]
    assert all(scores[i] >= before[i] - 1e-6 for i in before)
    assert {i for i, _ in with_clauses.ranking[:2]} == {"money", "weather"}
    pooled_before = len(embedder.pooled)
    on.rank(LONG, limit=3)
    assert len(embedder.pooled) == pooled_before  # the request's vectors are cached


def test_a_short_request_is_searched_whole() -> None:
    embedder = WordPieces()
    brain = SemanticBrain(None, SemanticSettings(threshold=-1.0), embedder)
    brain.build(CATALOG, [], 1)
    asked = len(embedder.pooled)
    brain.rank("check the weather and convert dollars", limit=3)
    assert len(embedder.pooled) == asked  # under clause_short_words: no clause vectors


@pytest.mark.real_model
def test_real_embedders_pool_as_asked(real_embedder: RealEmbedder) -> None:
    texts = ["Converts CSV tables into JSON records for the web", "weather"]

    def everything(text: str, spans: Sequence[tuple[int, int]]) -> np.ndarray:
        return np.ones((1, len(spans)), dtype=np.float32)

    means = real_embedder.embed_batch(texts)
    pooled = real_embedder.embed_pooled(texts, everything)
    for n in range(len(texts)):
        assert pooled[n].shape == (1, means.shape[1])
        assert float(pooled[n][0] @ means[n]) > 0.9999
    content = real_embedder.embed_pooled(texts, content_pools)
    assert 0.8 < float(content[0][0] @ means[0]) < 0.999  # the stop words are left out
    parts = real_embedder.embed_pooled([LONG], clause_pools)[0]
    assert parts.shape == (1 + len(clauses(LONG)), means.shape[1])
    np.testing.assert_allclose(np.linalg.norm(parts, axis=1), 1.0, rtol=1e-5)
