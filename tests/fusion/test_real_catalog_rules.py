"""The rules for real catalogs (issue 34), each on small fakes: contracts as constraints,
NAME_MATCHES, UNREAD_SCRIPTS, calibrated weak matches, quotations read as phrases, and a
sentence read as grammar that matches nothing read as plain words."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from lgent.analysis.scripts import script_of, script_share
from lgent.brains.base import BrainQuery, HitList
from lgent.brains.registry import BrainRegistry
from lgent.config import FusionSettings
from lgent.fusion.constraints import contract_key, extract_constraints, parse_constraint
from lgent.fusion.fusion import QueryFusion
from lgent.fusion.language import UNREAD_KEEP, lean_on_words
from lgent.fusion.names import lift
from lgent.fusion.rrf import Fused
from lgent.grammar import ast
from lgent.grammar.reading import grammar_meant, quoted_spans, read_words
from lgent.models import QueryType
from tests.conftest import make_entry
from tests.fusion.fakes import FakeBrain, run, snapshot_of, spec

Q = QueryType


# -- contracts --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["contract:read-only", "read-only", "read only", "contract: read_only", "Read-Only"]
)
def test_contracts_match_whatever_their_separators(text: str) -> None:
    constraint = parse_constraint(text)
    assert constraint.admits(make_entry("A", contracts=["read-only"]))
    assert constraint.admits(make_entry("B", contracts=["read_only"]))
    assert not constraint.admits(make_entry("C", contracts=["destructive"]))
    assert not constraint.admits(make_entry("D"))


def test_a_contract_constraint_is_read_off_the_end_of_a_query() -> None:
    text, found = extract_constraints("list the files, read-only")
    assert text == "list the files"
    assert [c.description for c in found] == ["contract read-only"]
    assert contract_key("Open World") == contract_key("open-world") == "openworld"


# -- quotations -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Reverse the words in 'Hello world! How are you?'", "Hello world! How are you?"),
        ("Translate “good morning” into French", "good morning"),
        ("Translate ‘good morning’ into French", "good morning"),
        ("traduce «buenos días» al inglés", "buenos días"),
        ("Übersetze „guten Morgen“ ins Englische", "guten Morgen"),
        ("查询「余票」", "余票"),
    ],
)
def test_quotations_of_every_kind_are_phrases_of_plain_words(text: str, phrase: str) -> None:
    assert grammar_meant(text) is None
    tree = read_words(text).tree
    assert tree is not None
    assert phrase in [n.text for n in ast.iter_nodes(tree) if isinstance(n, ast.Phrase)]


def test_an_apostrophe_quotes_nothing_and_a_question_mark_before_a_quote_is_no_wildcard() -> None:
    assert quoted_spans("Can you tell me today's date? The users' files") == []
    assert grammar_meant("is it 'you?'") is None
    assert grammar_meant("pars?r") is not None  # a wildcard inside a word still is one


# -- names ------------------------------------------------------------------------------------


def test_lift_moves_one_result_up_and_keeps_scores_falling() -> None:
    fused = [Fused(i, s) for i, s in (("a", 0.9), ("b", 0.8), ("c", 0.7), ("d", 0.6))]
    lifted = lift(fused, "d", 2)
    assert [f.id for f in lifted] == ["a", "d", "b", "c"]
    scores = [f.score for f in lifted]
    assert scores == sorted(scores, reverse=True)
    assert lift(fused, "a", 2) == fused  # already above


ENTRIES = [
    make_entry("ListChannels", description="Lists the channels of a team chat."),
    make_entry("ListUsers", description="Lists the users of a team chat."),
    make_entry("ArchiveChat", description="Archives a team chat."),
    make_entry("PostMessage", description="Sends a message."),
]


def names_fusion(position: int) -> QueryFusion:
    words = FakeBrain("words", lambda text: [("PostMessage", 9.0), ("ListUsers", 1.0)])
    meaning = FakeBrain(
        "meaning",
        lambda text: [
            ("ListChannels", 0.9),
            ("ListUsers", 0.85),
            ("ArchiveChat", 0.8),
            ("PostMessage", 0.1),
        ],
    )
    specs = [
        spec(words, {Q.SEMANTIC_INTENT: 0.2}, matches_words=True),
        spec(meaning, {Q.SEMANTIC_INTENT: 0.8}),
    ]
    brains = {s.name: s.factory(None) for s in specs}  # type: ignore[arg-type]
    settings = FusionSettings(name_matches=position, feedback_weight=0.0)
    return QueryFusion(brains, BrainRegistry(specs), snapshot_of(ENTRIES), settings, run)


async def test_the_words_first_hit_named_by_the_query_is_not_buried() -> None:
    off = await names_fusion(0).query("post a message to the team")
    assert [r.id for r in off.results].index("PostMessage") == 3
    # its name holds two of the words: past every result whose name holds fewer
    on = await names_fusion(2).query("post a message to the team")
    assert [r.id for r in on.results][:2] == ["PostMessage", "ListChannels"]
    assert "PostMessage was lifted to result 1" in on.query_interpretation
    # one word: only up to the position the setting gives
    one = await names_fusion(2).query("a message to the team")
    assert [r.id for r in one.results][:2] == ["ListChannels", "PostMessage"]
    # a query none of whose words the name holds lifts nothing
    plain = await names_fusion(2).query("share something with the team")
    assert [r.id for r in plain.results].index("PostMessage") == 3


# -- scripts ----------------------------------------------------------------------------------


def test_scripts_of_letters() -> None:
    assert script_of("a") == "LATIN" and script_of("余") == "CJK" and script_of("ラ") == "KATAKANA"
    assert script_of("Ｈ") == "LATIN" and script_of("1") == ""
    assert script_share("余票", {"LATIN"}) == 0.0
    assert script_share("12306", {"LATIN"}) == 1.0
    assert 0 < script_share("arXivで論文を検索する", {"LATIN"}) < 0.5


def test_an_unread_brain_keeps_a_quarter_and_the_words_get_the_rest() -> None:
    moved = lean_on_words({"words": 0.2, "meaning": 0.8, "graph": 0.2}, {"meaning"}, {"words"})
    assert moved["meaning"] == pytest.approx(0.8 * UNREAD_KEEP)
    assert moved["words"] == pytest.approx(0.2 + 0.8 * (1 - UNREAD_KEEP))
    assert moved["graph"] == 0.2
    assert lean_on_words({"meaning": 1.0}, {"meaning"}, {"words"}) == {"meaning": 1.0}


@dataclass
class ReadingBrain(FakeBrain):
    """A fake meaning brain whose answers say how much of the query its model reads."""

    def answer(self, query: BrainQuery) -> HitList:
        made = super().answer(query)
        return ScriptAnswer(made.hits, made.warnings, reads=script_share(query.text, {"LATIN"}))


@dataclass
class ScriptAnswer(HitList):
    reads: float = 1.0


async def test_a_query_in_an_unread_script_leans_on_the_words() -> None:
    words = FakeBrain("words", lambda text: [("PostMessage", 3.0), ("ListUsers", 1.0)])
    meaning = ReadingBrain("meaning", lambda text: [("ListChannels", 0.5), ("ListUsers", 0.45)])
    specs = [
        spec(words, {Q.SEMANTIC_INTENT: 0.2}, matches_words=True),
        spec(meaning, {Q.SEMANTIC_INTENT: 0.8}),
    ]
    brains = {s.name: s.factory(None) for s in specs}  # type: ignore[arg-type]
    f = QueryFusion(brains, BrainRegistry(specs), snapshot_of(ENTRIES), FusionSettings(), run)
    latin = await f.query("send news")
    assert latin.results[0].id == "ListChannels"
    other = await f.query("发送消息")
    assert other.results[0].id == "PostMessage"
    weights = {b.brain: b.weight for b in other.brains}
    assert weights["meaning"] == pytest.approx(0.8 * UNREAD_KEEP)
    assert "a script the embedding model does not read" in other.query_interpretation


# -- weak matches: calibrated -----------------------------------------------------------------


@dataclass
class DoubtingBrain(FakeBrain):
    def answer(self, query: BrainQuery) -> HitList:
        made = super().answer(query)
        return DoubtfulAnswer(made.hits, made.warnings, weak="its model knows none of the words")


@dataclass
class DoubtfulAnswer(HitList):
    confidence: float = 0.0


async def test_a_weak_answer_names_the_closest_and_its_scores_say_how_little_they_are() -> None:
    words = FakeBrain("words", lambda text: [])
    meaning = DoubtingBrain("meaning", lambda text: [("ListChannels", 0.4), ("ListUsers", 0.3)])
    specs = [
        spec(words, {Q.SEMANTIC_INTENT: 0.2}, matches_words=True),
        spec(meaning, {Q.SEMANTIC_INTENT: 0.8}),
    ]
    brains = {s.name: s.factory(None) for s in specs}  # type: ignore[arg-type]
    f = QueryFusion(brains, BrainRegistry(specs), snapshot_of(ENTRIES), FusionSettings(), run)
    response = await f.query("qwzxqv plorf")
    said = [w for w in response.warnings if w.startswith("weak match")]
    assert said and "the closest: ListChannels, ListUsers" in said[0]
    assert [r.id for r in response.results] == ["ListChannels", "ListUsers"]  # order kept
    assert all(r.score == 0.0 for r in response.results)


# -- relationship questions without a graph answer ---------------------------------------------


@pytest.mark.parametrize(
    ("name", "names_it"),
    [
        ("fetch", False),
        ("search", False),
        ("read_file", True),
        ("PDFParser_v2", True),
        ("chat.postMessage", True),
        ("TextCleaner", True),
        ("Ant Design Components", True),
    ],
)
def test_only_a_distinctive_name_met_in_a_text_is_a_mention(name: str, names_it: bool) -> None:
    from lgent.brains.keyword.brain import distinctive

    assert distinctive(name) is names_it


# -- direction ----------------------------------------------------------------------------------


def test_pairs_are_read_from_requests_and_names() -> None:
    from lgent.fusion.direction import artifact_pairs, direction, query_pairs

    assert query_pairs("translate from English to Italian") == [("en", "it")]
    assert query_pairs("convert docx into pdf") == [("docx", "pdf")]
    assert artifact_pairs(("Helsinki-NLP/opus-mt-en-it",)) == {("en", "it")}
    assert artifact_pairs(("pdf2docx",)) == {("pdf", "docx")}
    assert artifact_pairs(("PdfToDocx", "english-german")) == {("pdf", "docx"), ("en", "de")}
    assert artifact_pairs(("t5-small", "get_it_done")) == frozenset()
    asked = [("en", "it")]
    assert direction(asked, frozenset({("en", "it")})) == 1
    assert direction(asked, frozenset({("it", "en")})) == -1
    assert direction(asked, frozenset()) == 0


TRANSLATORS = [
    make_entry("opus-mt-it-en", description="Translation model, Italian and English."),
    make_entry("opus-mt-en-it", description="Translation model, English and Italian."),
    make_entry("opus-mt-en-de", description="Translation model, English and German."),
    make_entry("Summarizer", description="Summarizes long documents."),
]


async def test_a_request_from_a_to_b_ranks_a_to_b_above_b_to_a() -> None:
    meaning = FakeBrain(
        "meaning",
        lambda text: [("opus-mt-it-en", 0.9), ("opus-mt-en-de", 0.85), ("opus-mt-en-it", 0.8)],
    )
    specs = [spec(meaning, {Q.SEMANTIC_INTENT: 1.0})]
    brains = {s.name: s.factory(None) for s in specs}  # type: ignore[arg-type]
    f = QueryFusion(brains, BrainRegistry(specs), snapshot_of(TRANSLATORS), FusionSettings(), run)
    asked = await f.query("translate from English to Italian")
    assert [r.id for r in asked.results] == ["opus-mt-en-de", "opus-mt-en-it", "opus-mt-it-en"]
    assert "opus-mt-it-en goes the other way" in asked.query_interpretation.lower()
    scores = [r.score for r in asked.results]
    assert scores == sorted(scores, reverse=True)
    other = await f.query("translate from Italian to English")
    assert other.results[0].id == "opus-mt-it-en"  # already first: nothing moves
