"""GraphBrain.search on a small catalog: pipeline members beyond the best paths, deprecated steps,
and substitutes as alternatives."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from lgent.brains.graph.brain import GraphBrain
from lgent.graph.signatures import CompositionPath
from lgent.models import CatalogEntry, TypeDecl
from tests.conftest import make_entry

Warned = Callable[[str], list[str]]

TYPES = [
    TypeDecl.parse({"type": "Doc"}),
    TypeDecl.parse({"type": "Content"}),
    TypeDecl.parse({"type": "Text", "subtype_of": ["Content"]}),
    TypeDecl.parse({"type": "Score"}),
    TypeDecl.parse({"type": "FinScore", "subtype_of": ["Score"]}),
    TypeDecl.parse({"type": "Mid"}),
]


def brain() -> GraphBrain:
    entries = [
        make_entry("parser2", input_type="Doc", output_type="Text", success_rate=0.95),
        make_entry(
            "parser1",
            input_type="Doc",
            output_type="Text",
            status="deprecated",
            success_rate=0.7,
            relations=[{"type": "successor_to", "target": "parser0"}],
        ),
        make_entry(
            "scorer",
            input_type="Text",
            output_type="Score",
            success_rate=0.9,
            relations=[{"type": "similar_to", "target": "lite"}],
        ),
        make_entry("lite", input_type="Text", output_type="Score", success_rate=0.5),
        make_entry("finscorer", input_type="Text", output_type="FinScore", success_rate=0.8),
        make_entry("old_scorer", input_type="Text", output_type="Score", status="retired"),
        make_entry("general", input_type="Text", output_type="Mid", success_rate=0.9),
        make_entry("mid_scorer", input_type="Mid", output_type="Score", success_rate=0.9),
        make_entry("anything", input_type="Content", output_type="Score", success_rate=0.6),
    ]
    b = GraphBrain()
    b.build(entries, TYPES, 1)
    return b


def ids(brain: GraphBrain, text: str, limit: int = 50) -> list[str]:
    return [h.id for h in brain.search(text, None, limit).hits]


def test_a_composition_lists_every_step_then_deprecated_ones_with_their_pipeline() -> None:
    b = brain()
    k = 5  # the best paths searched for limit 5: their members come first
    first = ids(b, "a path from Doc to Score in two steps", limit=k)
    assert first == ["parser2", "scorer", "finscorer", "anything", "lite"]
    result = b.search("a path from Doc to Score in two steps", None, 50)
    found = [h.id for h in result.hits]
    assert found[:5] == first
    assert found[5:] == ["old_scorer", "parser1"]  # pipelines with one unusable step
    why = {h.id: h.explanation for h in result.hits}
    assert why["parser1"]["path"] == ["parser1", "finscorer"]  # 0.7 either way: ids decide
    assert why["old_scorer"]["path"] == ["parser2", "old_scorer"]
    assert "the best pipeline through it" in why["old_scorer"]["reason"]
    assert {why[i]["relationship"] for i in found} == {"composition", "pipeline_member"}
    assert why["old_scorer"]["relationship"] == "pipeline_member"
    assert [h.score for h in result.hits] == sorted((h.score for h in result.hits), reverse=True)
    assert ids(b, "a path from Doc to Score in one step") == []  # no artifact does it alone


def test_members_are_not_searched_when_the_best_paths_fill_the_limit() -> None:
    b = brain()

    def refuse(*args: object, **kwargs: object) -> Iterator[tuple[str, CompositionPath]]:
        raise AssertionError("members searched although the limit was already reached")

    b.graph.members = refuse  # type: ignore[method-assign]
    assert len(ids(b, "a path from Doc to Score in two steps", limit=5)) == 5
    assert len(ids(b, "Doc -> Score", limit=5)) == 5


def test_a_type_query_lists_artifacts_on_three_step_pipelines() -> None:
    found = ids(brain(), "Doc -> Score")
    assert found[5:7] == ["general", "mid_scorer"]  # Doc -> Text -> Mid -> Score
    assert ids(brain(), "Doc -> Score", limit=5) == found[:5]
    assert ids(brain(), "Doc -> Score") == found  # deterministic


def test_alternatives_are_declared_ones_then_substitutes_usable_first() -> None:
    result = brain().search("alternatives to scorer", None, 50)
    found = [(h.id, h.explanation["relationship"]) for h in result.hits]
    assert found == [
        ("lite", "similar_to"),
        ("finscorer", "substitute"),  # gives a FinScore, which is a Score
        ("anything", "substitute"),  # accepts any Content, so Text
        ("old_scorer", "same_signature"),  # retired: last
    ]
    # a supertype output, or an input that does not accept Text, is no substitute
    assert "mid_scorer" not in [h.id for h in result.hits]
    assert [h.id for h in brain().search("alternatives to finscorer", None, 50).hits] == []


def test_a_signature_of_primitives_makes_no_stand_ins() -> None:
    """``json.uri -> -`` fits every tool that takes text: no substitute by types alone."""
    types = [
        TypeDecl.parse({"type": "json.string", "primitive": True}),
        TypeDecl.parse({"type": "json.uri", "subtype_of": ["json.string"]}),
        TypeDecl.parse({"type": "Page"}),
    ]
    entries = [
        make_entry(
            "fetch", input_type="json.uri", relations=[{"type": "similar_to", "target": "get"}]
        ),
        make_entry("get", input_type="json.uri"),
        make_entry("notes", input_type="json.string"),
        make_entry("pager", input_type="json.uri", output_type="Page"),
        make_entry("pager2", input_type="json.string", output_type="Page"),
    ]
    b = GraphBrain()
    b.build(entries, types, 1)
    assert [h.id for h in b.search("alternatives to fetch", None, 50).hits] == ["get"]  # declared
    found = b.search("alternatives to pager", None, 50).hits  # a typed output: stand-ins count
    assert [h.id for h in found] == ["pager2"]
    assert "takes json.string, gives Page" in found[0].explanation["reason"]


def asked(entries: list[CatalogEntry], types: list[TypeDecl]) -> tuple[GraphBrain, Warned]:
    """A graph brain built on ``entries`` and the warnings of its answer to a question it
    must read."""
    from lgent.brains.base import BrainQuery

    b = GraphBrain()
    b.build(entries, types, 1)

    def warnings(text: str) -> list[str]:
        reading = b.read_question(text)
        assert reading is not None
        return list(b.answer(BrainQuery(text=text, limit=10, reading=reading)).warnings)

    return b, warnings


def test_an_empty_composition_answer_says_which_type_is_missing() -> None:
    types = [TypeDecl.parse({"type": "json.string", "primitive": True}), *TYPES]
    entries = [
        make_entry("reader", input_type="json.string"),
        make_entry("texter", input_type="Doc", output_type="json.string"),
        make_entry("taker", input_type="json.string"),
    ]
    _, warnings = asked(entries, types)

    assert warnings("what can take reader's output") == [
        "reader declares no output type, so nothing composes with it there"
    ]
    assert warnings("what can take texter's output") == [
        "texter's output is json.string, a primitive: composition never chains two artifacts "
        "through one"
    ]
    # types declared, but nothing fits: said plainly
    assert warnings("what can feed texter") == [
        "the graph found none: what can feed the input of texter"
    ]


def test_a_question_about_a_shared_name_says_which_artifact_it_answers_for() -> None:
    from lgent.brains.base import ChangeSet

    entries = [
        make_entry("srv1/reader", name="reader", input_type="Doc"),
        make_entry("srv2/reader", name="reader", input_type="Doc"),
        make_entry("writer", output_type="Doc"),
    ]
    b, warnings = asked(entries, TYPES)

    assert warnings("what can feed reader") == [
        "'reader' names 2 artifacts (srv1/reader, srv2/reader): this answers for srv1/reader; "
        "name another by its id to ask about it"
    ]
    assert warnings("what can feed srv2/reader") == []  # an id names one
    assert warnings("what can take writer's output") == []
    b.apply_changes(ChangeSet([], ["srv1/reader"], None, 2))
    assert warnings("what can feed reader") == []  # one left: no longer shared


def test_a_relationship_reading_names_its_relation() -> None:
    """Other brains read the relation from the reading's plain fields, not the graph's own
    parsed form: "similar to X" is ``SIMILAR_RELATION``."""
    from lgent.brains.base import SIMILAR_RELATION

    alike = brain().read_question("alternatives to scorer")
    assert alike is not None and alike.kind == "relationship"
    assert (alike.relation, alike.artifact) == (SIMILAR_RELATION, "scorer")
    after = brain().read_question("what depends on scorer")
    assert after is not None and after.relation == "dependents"
    # the composition questions in the words the answers themselves use
    for question, relation in (
        ("what can consume the output of scorer", "downstream"),
        ("what takes the results of scorer", "downstream"),
        ("what can receive scorer output", "downstream"),
        ("what produces the input of scorer", "upstream"),
        ("tools that provide input for scorer", "upstream"),
    ):
        read = brain().read_question(question)
        assert read is not None and (read.relation, read.artifact) == (relation, "scorer"), question


def test_unread_names_what_kept_a_graph_question_from_being_read() -> None:
    b = brain()
    assert b.interpret("Doc -> Scor") is None
    assert b.unread("Doc -> Scor") == ("'Scor' is no declared type (did you mean Score, FinScore?)")
    assert b.unread("Dok -> ??? -> Score") == "'Dok' is no declared type (did you mean Doc?)"
    assert b.unread("Dok -> ??? -> Scre") == (
        "'Dok' is no declared type (did you mean Doc?) and "
        "'Scre' is no declared type (did you mean Score, FinScore?)"
    )
    assert b.unread("what depends on scorerr2") == (
        "'scorerr2' is no artifact's name or id (did you mean scorer, finscorer, mid_scorer?)"
    )
    assert b.unread("what depends on zzqx") == "'zzqx' is no artifact's name or id"
    # readable questions, plain words, and several words after a relation word name nothing
    for text in ("Doc -> Score", "what depends on scorer", "a tool like a good text scorer", ""):
        assert b.unread(text) is None, text


def test_author_filter_ignores_case_like_every_other_brain() -> None:
    """``lgent search --brain graph --author toolforge`` finds ToolForge's artifacts (it once
    compared authors case-sensitively, unlike the keyword and semantic brains)."""
    from lgent.models import SearchFilters

    b = GraphBrain()
    b.build(
        [
            make_entry("forged", input_type="Doc", output_type="Text", author="ToolForge"),
            make_entry("other", input_type="Doc", output_type="Text", author="Someone"),
        ],
        TYPES,
        1,
    )
    for spelled in ("toolforge", "TOOLFORGE", "ToolForge"):
        found = b.search("what accepts Doc", SearchFilters(author=(spelled,)), 10).hits
        assert [h.id for h in found] == ["forged"]


def test_a_sentence_names_types_as_types_or_it_is_a_request() -> None:
    """ "turn a Doc into Text" asks the type lattice; "turn a doc into text" is an everyday
    request (every brain reads it); a path question may use everyday words."""
    b = brain()
    assert b.read_question("something that turns a Doc into Text") is not None
    assert b.read_question("something that turns a doc into text") is None
    assert b.read_question("turn a Doc into text") is None  # one side in everyday words
    assert b.read_question("a path from doc to score") is not None
