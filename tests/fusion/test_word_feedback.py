"""WORD_FEEDBACK: the word-matching brains' well-covered hits move the meaning brain's query."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from lgent.brains.base import BrainQuery, HitList
from lgent.brains.registry import BrainRegistry
from lgent.config import FusionSettings
from lgent.errors import LGentError, SettingsError
from lgent.fusion.coverage import query_words
from lgent.fusion.feedback import feedback_ids
from lgent.fusion.fusion import QueryFusion
from lgent.models import BrainHit, QueryType
from tests.fusion.fakes import SENTENCE, SENTENCE_ENTRIES, FakeBrain, run, snapshot_of, spec

ENTRIES = SENTENCE_ENTRIES
BY_ID = {e.id: e for e in ENTRIES}
WORDS = query_words(SENTENCE)


def test_only_hits_holding_enough_of_the_words_feed_back() -> None:
    ranking = ["PageCounter", "TextCleaner", "Unrelated"]
    found = feedback_ids(WORDS, [ranking], BY_ID, depth=10, share=0.3, min_words=3)
    assert found == ("TextCleaner",)  # PageCounter holds one word ("page"), Unrelated none
    # the share and the least count each hold on their own
    more = WORDS | {"zebra", "quartz", "violin", "harbour"}
    assert feedback_ids(more, [ranking], BY_ID, depth=10, share=0.9, min_words=1) == ()
    lenient = feedback_ids(WORDS, [ranking], BY_ID, depth=10, share=0.0, min_words=1)
    assert lenient == ("PageCounter", "TextCleaner")


def test_depth_cuts_each_ranking_and_ids_come_once_in_order() -> None:
    first = ["PageCounter", "TextCleaner"]
    assert feedback_ids(WORDS, [first], BY_ID, depth=1, share=0.3, min_words=3) == ()
    twice = feedback_ids(
        WORDS, [first, ["TextCleaner", "PageCounter"]], BY_ID, depth=2, share=0.0, min_words=1
    )
    assert twice == ("PageCounter", "TextCleaner")
    assert feedback_ids(frozenset(), [first], BY_ID, depth=2, share=0.0, min_words=1) == ()
    assert feedback_ids(WORDS, [["missing"]], BY_ID, depth=2, share=0.0, min_words=1) == ()


@dataclass
class MovableHits(HitList):
    """A fake answer that can be moved: it records where to, and answers ``moved``."""

    moves: list[tuple[tuple[str, ...], float]] = field(default_factory=list)
    moved: list[tuple[str, float]] = field(default_factory=list)
    fail: bool = False

    def moved_toward(self, artifact_ids: Sequence[str], weight: float) -> HitList:
        self.moves.append((tuple(artifact_ids), weight))
        if self.fail:
            raise LGentError("index went away")
        return HitList(
            [
                BrainHit(id=i, score=s, brain="meaning", rank=n + 1)
                for n, (i, s) in enumerate(self.moved)
            ]
        )


@dataclass
class MovableBrain(FakeBrain):
    """A fake meaning brain whose answers can be moved (to ``moved``)."""

    moved: list[tuple[str, float]] = field(default_factory=list)
    fail_moving: bool = False
    answers_made: list[MovableHits] = field(default_factory=list)

    def answer(self, query: BrainQuery) -> MovableHits:
        made = super().answer(query)
        hits = MovableHits(made.hits, moved=self.moved, fail=self.fail_moving)
        self.answers_made.append(hits)
        return hits


IDS = ("PageCounter", "TextCleaner", "Unrelated")
WEIGHTS = {QueryType.SEMANTIC_INTENT: 0.5, QueryType.EXACT_NAME: 0.5}


def fusion(meaning: FakeBrain, **settings: float) -> QueryFusion:
    words = FakeBrain("words", lambda text: list(zip(IDS, (9.0, 5.0, 1.0), strict=True)))
    specs = [spec(words, WEIGHTS, matches_words=True), spec(meaning, WEIGHTS)]
    registry = BrainRegistry(specs)
    made = {s.name: s.factory(None) for s in specs}  # type: ignore[arg-type]
    return QueryFusion(made, registry, snapshot_of(ENTRIES), FusionSettings(**settings), run)  # type: ignore[arg-type]


def meaning_brain(**kwargs: bool) -> MovableBrain:
    ranking = list(zip(IDS[::-1], (0.5, 0.25, 0.1), strict=True))
    return MovableBrain("meaning", lambda text: ranking, moved=[("Unrelated", 0.9)], **kwargs)


async def test_a_sentence_moves_the_meaning_answer_toward_covered_hits() -> None:
    meaning = meaning_brain()
    response = await fusion(meaning, feedback_weight=0.4).query(SENTENCE)
    assert response.query_type == QueryType.SEMANTIC_INTENT
    assert len(meaning.asked) == 1  # the query is not asked again: the answer is moved
    assert meaning.answers_made[0].moves == [(("TextCleaner",), 0.4)]
    semantic_votes = [
        r.id for r in response.results if any(s.brain == "meaning" for s in r.sources)
    ]
    assert semantic_votes == ["Unrelated"]  # the moved answer replaced the first


@pytest.mark.parametrize(
    ("settings", "query"),
    [
        ({"feedback_weight": 0.0}, SENTENCE),  # the rule is off
        ({"feedback_min_words": 20}, SENTENCE),  # no hit holds enough of the words
        ({}, "TextCleaner"),  # a name, not a sentence
    ],
)
async def test_no_move_when_the_rule_does_not_apply(settings: dict[str, float], query: str) -> None:
    meaning = meaning_brain()
    await fusion(meaning, **settings).query(query)
    assert meaning.answers_made[0].moves == []


async def test_an_answer_that_cannot_move_stands() -> None:
    plain = FakeBrain("meaning", lambda text: [("TextCleaner", 0.5)])
    response = await fusion(plain).query(SENTENCE)
    assert len(plain.asked) == 1 and response.results


async def test_a_failing_move_leaves_the_first_answer() -> None:
    meaning = meaning_brain(fail_moving=True)
    response = await fusion(meaning).query(SENTENCE)
    assert meaning.answers_made[0].moves == [(("TextCleaner",), 0.3)]
    semantic_votes = {
        r.id for r in response.results if any(s.brain == "meaning" for s in r.sources)
    }
    assert semantic_votes == set(IDS)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("feedback_weight", 1.5),
        ("feedback_weight", True),
        ("feedback_share", -0.1),
        ("feedback_depth", 0),
        ("feedback_min_words", 0),
    ],
)
def test_feedback_settings_are_checked(field: str, value: object) -> None:
    with pytest.raises(SettingsError, match=field):
        FusionSettings(**{field: value})  # type: ignore[arg-type]
