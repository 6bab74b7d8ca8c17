"""LGent.query end to end on the example catalog, with the real brains."""

from __future__ import annotations

from pathlib import Path

import pytest

from lgent import ConstraintError, LGent, QueryContext, QuerySyntaxError, QueryType
from lgent.brains.keyword.brain import _typed_query
from lgent.brains.keyword.typefields import type_tokens
from lgent.brains.semantic.brain import SemanticBrain
from lgent.brains.semantic.embedders import Embedder
from lgent.errors import QueryError
from lgent.fusion.ask import brain_query
from lgent.fusion.classify import classify
from lgent.models import BrainRun, QueryResponse
from tests.conftest import OpenHome, make_entry

pytestmark = pytest.mark.real_model


async def test_seed_scenario(open_example: OpenHome) -> None:
    async with open_example() as lg:
        response = await lg.query(
            "process financial PDFs and extract sentiment",
            constraints=["latency < 2s", "local execution"],
            context=QueryContext(
                user_history=("previously used Summarizer_v4",),
                current_pipeline=("DataSource", "???", "Database"),
            ),
        )
    first = response.results[0]
    assert first.id == "FinancialPDFAnalyzer"
    assert {s.brain for s in first.sources} >= {"semantic"}
    for result in response.results:
        assert result.entry.latency_ms is not None and result.entry.latency_ms < 2000
        assert result.entry.execution is not None and result.entry.execution.value == "local"
    assert response.query_type == QueryType.SEMANTIC_INTENT
    assert "latency < 2s" in response.query_interpretation
    assert "local execution only" in response.query_interpretation
    assert "graph (" in response.query_interpretation  # says which brain did not run, and why
    assert response.serendipity
    assert any(
        len(item.composition) >= 1 and "DataSource -> ??? -> Database" in item.reason
        for item in response.serendipity
    )
    top = {r.id for r in response.results}
    assert not top & {item.artifact_id for item in response.serendipity}
    assert response.total_matches >= len(response.results) and response.search_time_ms > 0


@pytest.mark.parametrize(
    ("query", "query_type", "expected_first"),
    [
        ("NewsParser", QueryType.EXACT_NAME, "NewsParser"),
        ("summarizer v4", QueryType.EXACT_NAME, "Summarizer_v4"),
        ("author:ToolForge type:agent", QueryType.KEYWORD_SYNTAX, None),
        # the graph's order leads a type query: the exact signature before a subtype output
        ("PDF -> SentimentScore", QueryType.TYPE_QUERY, "ReportToneScorer"),
        ("a path from RawHTML to Summary", QueryType.TYPE_QUERY, None),
        ("what replaced PDFParser", QueryType.RELATIONSHIP, "PDFParser_v2"),
        ("something that cleans up messy text", QueryType.SEMANTIC_INTENT, None),
    ],
)
async def test_classification_and_top_result(
    open_example: OpenHome, query: str, query_type: QueryType, expected_first: str | None
) -> None:
    async with open_example() as lg:
        response = await lg.query(query)
    assert response.query_type == query_type
    assert response.classification_reason
    assert response.results
    if expected_first:
        assert response.results[0].id == expected_first


async def test_results_explain_themselves(open_example: OpenHome) -> None:
    async with open_example() as lg:
        response = await lg.query("pdf text extraction")
    result = response.results[0]
    assert result.explanation["fusion"] == "weighted min-max score fusion"
    children = result.explanation["children"]
    assert {c["brain"] for c in children} == {s.brain for s in result.sources}
    assert sum(c["contribution"] for c in children) == pytest.approx(result.score, abs=1e-5)
    ran = {run.brain: run for run in response.brains}
    assert ran["keyword"].ran and ran["semantic"].ran


async def test_deprecated_results_point_at_their_successor(open_example: OpenHome) -> None:
    async with open_example() as lg:
        named = await lg.query("PDFParser")
        described = await lg.query("pull the text layer out of pdf files")
    assert named.results[0].id == "PDFParser"  # the query names the old one: it stays first
    assert named.results[0].superseded_by == "PDFParser_v2"
    ids = [r.id for r in described.results]
    assert "PDFParser_v2" in ids
    if "PDFParser" in ids:
        assert ids.index("PDFParser_v2") < ids.index("PDFParser")


async def test_relationship_subject_is_not_a_result(open_example: OpenHome) -> None:
    async with open_example() as lg:
        response = await lg.query("what depends on PDFParser_v2")
    ids = [r.id for r in response.results]
    assert "PDFParser_v2" not in ids and "FinancialPDFAnalyzer" in ids


async def test_constraints_in_the_query_text(open_example: OpenHome) -> None:
    async with open_example() as lg:
        response = await lg.query("PDF -> SentimentScore, runs locally, under 2 seconds")
    assert response.query_type == QueryType.TYPE_QUERY
    assert [r.id for r in response.results][:1] == ["FinancialPDFAnalyzer"]
    assert "2 read from the query text" in response.query_interpretation


async def test_response_cache_and_invalidation(
    example_home: Path, real_embedder: Embedder, tmp_path: Path
) -> None:
    import shutil

    home = tmp_path / "copy"
    shutil.copytree(example_home, home)
    async with LGent.open(home, embedder=real_embedder) as lg:
        first = await lg.query("quantum teleportation widget")
        again = await lg.query("quantum   teleportation widget")
        assert again.cached and not first.cached
        assert [r.id for r in again.results] == [r.id for r in first.results]
        await lg.register(
            make_entry("QuantumTeleporter", description="quantum teleportation widget")
        )
        fresh = await lg.query("quantum teleportation widget")
        assert not fresh.cached and fresh.results[0].id == "QuantumTeleporter"


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        ({"query": "author:(unclosed", "strict": True}, QuerySyntaxError, "expected ')'"),
        (
            {"query": "pdf", "constraints": ["latency < soon"]},
            ConstraintError,
            "bad constraint 'latency < soon'",
        ),
        ({"query": "   "}, QueryError, "the query is empty"),
        ({"query": "pdf", "limit": 0}, QueryError, "limit must be an integer from 1 to 1000"),
    ],
)
async def test_query_errors(
    open_example: OpenHome, call: dict[str, object], error: type[Exception], message: str
) -> None:
    async with open_example() as lg:
        with pytest.raises(error) as info:
            await lg.query(**call)  # type: ignore[arg-type]
    assert message in str(info.value)


def test_a_type_question_asks_the_keyword_brain_for_the_typed_fields() -> None:
    assert _typed_query("List[PDF]", "SentimentScore") == (
        'input:"List[PDF]" OR output:"SentimentScore"'
    )
    assert _typed_query('Odd"Type', "Summary") == 'input:"Odd\\"Type" OR output:"Summary"'
    assert _typed_query(None, "Summary") == 'output:"Summary"'
    assert _typed_query(None, None) is None


async def test_the_keyword_answer_to_a_type_question_names_a_side(open_example: OpenHome) -> None:
    async with open_example() as lg:
        graph, keyword = lg.brain("graph"), lg.brain("keyword")
        question = classify("PDF -> SentimentScore", graph)
        asked = brain_query("PDF -> SentimentScore", question, 50, None, lg.settings.fusion)
        ids = [i for i, _ in keyword.answer(asked).ranking]
        found = lg.store.get_many(ids)
    assert "ReportToneScorer" in ids[:3]  # both sides named: it ranks near the top

    def names(type_expr: str | None) -> set[str]:  # List[PDF] names list and pdf
        return {t.text for t in type_tokens(type_expr or "")}

    assert found and all(
        "pdf" in names(e.input_type) or "sentimentscore" in names(e.output_type)
        for e in found.values()
    )


async def test_a_graph_question_or_a_name_never_needs_the_model(open_example: OpenHome) -> None:
    """Type and relationship questions are the graph's (the semantic brain's weight for type
    questions is 0, and of the relations it speaks only to alternatives, by the artifact's
    stored vector); a name is answered by the named artifact's stored vector. None embeds the
    query."""
    async with open_example() as lg:
        semantic = lg.brain("semantic")
        assert isinstance(semantic, SemanticBrain)
        before = semantic.counters.query_cache_hits + semantic.counters.query_cache_misses
        questions = [
            await lg.query("a path from RawHTML to Summary", limit=50),
            await lg.query("what depends on PDFParser_v2"),
            await lg.query("PDF -> SentimentScore", limit=100),
        ]
        name = await lg.query("PDFParser_v2")
        await lg.query("alternatives to PDFParser_v2")
        after = semantic.counters.query_cache_hits + semantic.counters.query_cache_misses

    def run_of(response: QueryResponse, brain: str) -> BrainRun:
        return next(r for r in response.brains if r.brain == brain)

    for response in questions:
        assert not run_of(response, "semantic").ran
        reason = run_of(response, "semantic").reason
        assert "weight for this query type is 0" in reason or "nothing to say about" in reason
        assert run_of(response, "graph").ran
    assert name.results[0].id == "PDFParser_v2" and run_of(name, "semantic").ran
    assert after == before  # no query text was embedded


async def test_a_graph_question_with_an_unknown_name_says_which_name(
    open_example: OpenHome,
) -> None:
    async with open_example() as lg:
        typo = await lg.query("PDF -> SentimentScor", limit=3)
        unknown = await lg.query("what depends on NoSuchThing", limit=3)
    assert typo.query_type == QueryType.SEMANTIC_INTENT
    assert "'SentimentScor' is no declared type (did you mean SentimentScore" in (
        typo.query_interpretation
    )
    assert typo.results  # still answered, as plain words
    assert "'NoSuchThing' is no artifact's name or id" in unknown.query_interpretation


async def test_a_shown_range_is_that_slice_of_the_whole_answer(open_example: OpenHome) -> None:
    """``shown`` makes only the results at those positions; they, the total, the order and the
    suggestions are exactly those of the whole answer."""
    pipeline = QueryContext(
        user_history=("previously used Summarizer_v4",),
        current_pipeline=("DataSource", "???", "Database"),
    )
    asked = [
        ("process financial PDFs and extract sentiment", ["local execution"], pipeline),
        ("PDF -> SentimentScore", [], None),
        ("pdf parser", [], pipeline),  # a deprecated result: its lineage note and order
        ("author:ToolForge", [], None),
    ]
    async with open_example() as lg:
        for query, constraints, context in asked:
            whole = await lg.query(query, constraints, context, limit=40)
            assert len(whole.results) > 6, query
            for start, stop in ((0, 3), (3, 7), (len(whole.results) - 2, 45)):
                page = await lg.query(
                    query, constraints, context, limit=40, shown=range(start, stop)
                )
                assert page.results == whole.results[start:stop], (query, start)
                same = {"results", "search_time_ms"}
                assert page.model_dump(exclude=same) == whole.model_dump(exclude=same), query
        with pytest.raises(QueryError, match="shown must be a range"):
            await lg.query("pdf", shown=range(5, 2))
        with pytest.raises(QueryError, match="shown must be a range"):
            await lg.query("pdf", shown=(0, 3))  # type: ignore[arg-type]
