"""Text as people and agents write it: query() never raises on it, answers it, and the semantic
brain votes on every sentence. Quotes, negative numbers, colons, operator-looking words,
trailing operators, parentheses, URLs, code and emoji are words, not grammar."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lgent import LGent, QueryError, QueryResponse, QuerySyntaxError, QueryType
from lgent.brains.semantic.embedders import Embedder, HashingEmbedder
from lgent.config import FusionSettings, Settings
from lgent.fusion.coverage import artifact_words, query_words
from lgent.limits import MAX_QUERY_LENGTH
from tests.conftest import OpenHome, make_entry
from tests.examples import examples

SENTENCES = [
    'my favourite word is "summary", find me something that writes one',
    'I need a tool that extracts "tables" from scanned invoices',
    'look for "sentiment" in customer reviews and score it',
    'what does "OCR" stand for and which tool does it',
    'the report says "Q3 revenue up" -- can you summarize the whole thing?',
    "-73.955968 longitude and 40.78 latitude: which tool finds the weather there?",
    "convert -40 degrees celsius readings into a daily report",
    "temperatures dropped to -12 overnight, alert the on-call team",
    "Name: Alice - Role: analyst, she needs a dashboard of sales numbers",
    "Note: the files are in French, translate them to English",
    "Subject: weekly digest of news articles",
    "Question: how do I clean up messy text before indexing?",
    "TODO: scrape the pricing page and store it in a database",
    "NOT sure which tool converts PDFs to plain text",
    "NOT urgent: schedule a meeting with the data team next week",
    "OR maybe something that detects the language of a sentence",
    "AND also check the grammar of the essay",
    "we use OR-tools for routing, is there an agent that plans delivery routes?",
    "summarize this meeting transcript AND",
    "find a parser for html pages OR",
    "extract named entities from legal contracts NOT",
    "tools for search AND summarization of long research papers in big archives",
    "classify support tickets (billing, outage, feature request) by topic",
    "I want to (quickly) redact personal data from emails",
    "score the tone of tweets (positive / negative)",
    "f(x) = x^2, plot this function for me",
    "parse the output of `git log --oneline` into a table",
    "run SELECT * FROM users WHERE age > 30 against my database",
    "turn {'name': 'x', 'age': 3} json into a csv file",
    "regex like ^[a-z]+$ to validate usernames",
    "embed these documents for semantic search 🔍",
    "translate this menu 🍕🍝 into Italian",
    "📈 forecast next quarter's sales from the spreadsheet",
    "check https://example.com/status and alert me if it is down",
    "download http://example.org/data.csv and load it into pandas",
    "read the README at github.com/acme/tool and explain it",
    "fetch www.example.com every hour and diff the page",
    "something that cleans up messy text",
    "I'm creating party appetizers using the ingredient shrimp",
    "help me write a polite reply to an angry customer",
    "which agent can review my pull request for security issues?",
    "detect anomalies in server logs from last night",
    "transcribe a podcast episode and pull out the key quotes",
    "build a knowledge graph from a folder of markdown notes",
    "answer questions about our internal wiki",
    "compare two versions of a contract and list what changed",
    "generate unit tests for a python function",
    "monitor the price of bitcoin and tell me when it drops 5%",
    "a tool to resize images to 512x512 for a model",
    "send an sms when the build fails",
    "book a table for 4 at 7:30pm tomorrow",
    "what's the weather in Paris at 08:00?",
    "split a 300-page PDF into chapters",
    "rate limit: 100 req/min -- which API client handles backoff?",
    "50% off coupon codes: find and validate them",
    "C++ and C# code review assistant",
    "email address validation (RFC 5322)",
    'search for "machine learning" papers published after 2020',
    "*urgent* summarize the incident report",
    "~5 minute summary of a long video",
    "don't use deprecated tools: I need an up-to-date translator",
    "author: someone who writes sql, generate queries from questions",
    "status: active tools only, something for OCR",
    "find tools named a*b*c*d*e*f*g*h*i*j* please",  # a wildcard past the grammar's limits
    "logs matching " + "x" * 70 + "* from yesterday",
]


def test_there_are_at_least_sixty_sentences() -> None:
    assert len(SENTENCES) >= 60


async def test_sentences_never_raise_return_results_and_get_the_semantic_vote(
    open_example: OpenHome,
) -> None:
    failures = []
    async with open_example() as lg:
        for sentence in SENTENCES:
            response = await lg.query(sentence)
            semantic = next(b for b in response.brains if b.brain == "semantic")
            if not response.results or not semantic.ran:
                failures.append(f"{sentence!r}: {response.query_interpretation}")
    assert failures == []


async def test_a_quoted_word_is_a_phrase_boost_and_the_interpretation_says_so(
    open_example: OpenHome,
) -> None:
    async with open_example() as lg:
        response = await lg.query('my word is "kalem"')
    assert response.query_type != QueryType.KEYWORD_SYNTAX
    assert '`"kalem"` read as a phrase that adds to a match' in response.query_interpretation


async def test_grammar_still_restricts_when_clearly_meant(open_example: OpenHome) -> None:
    async with open_example() as lg:
        response = await lg.query("author:ToolForge type:agent", limit=20)
        strict_error = None
        try:
            await lg.query("pdf AND (parser", strict=True)
        except QueryError as err:
            strict_error = err
        relaxed = await lg.query("pdf AND (parser")
    assert response.query_type == QueryType.KEYWORD_SYNTAX and response.results
    assert all(
        (r.entry.author or "").lower() == "toolforge" and r.entry.entity_type.value == "agent"
        for r in response.results
    )
    assert strict_error is not None and "^" in str(strict_error.pretty())  # type: ignore[attr-defined]
    assert relaxed.results


@pytest.mark.parametrize(
    ("query", "position", "expected"),
    [
        ("(", 1, "a term, phrase or '('"),
        ("foo:bar", 0, "a field name"),
        ("name:" + "a*" * 10, 5, "a wildcard of at most 64 characters"),
    ],
)
async def test_strict_reads_groups_fields_and_wildcards_as_grammar(
    query: str, position: int, expected: str
) -> None:
    """``strict=True`` is how a caller checks a query in the grammar: a lone parenthesis or an
    unknown field is an error at its position, not plain words."""
    async with LGent.open(None) as lg:
        await lg.register(make_entry("PDFParser"))
        with pytest.raises(QuerySyntaxError) as info:
            await lg.query(query, strict=True)
        assert info.value.position == position and info.value.expected.startswith(expected)
        url = await lg.query("docs at https://example.com/pdf", strict=True)
        assert url.query_type != QueryType.KEYWORD_SYNTAX  # a URL's scheme is no field


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.text(
        st.characters(min_codepoint=32, max_codepoint=0x2FFF, blacklist_categories=("Cs", "Cc")),
        max_size=MAX_QUERY_LENGTH + 50,
    )
)
def test_any_printable_string_gets_a_response_or_a_typed_length_error(text: str) -> None:
    import asyncio

    async def ask() -> None:
        async with LGent.open(None, embedder=HashingEmbedder()) as lg:
            await lg.register_many([make_entry("Summarizer", description="Summarizes long text")])
            try:
                await lg.query(text)
            except QueryError as err:
                assert len(text) > MAX_QUERY_LENGTH or not text.strip(), err
                assert "characters long" in str(err) or "empty" in str(err)

    asyncio.run(ask())


async def test_a_graph_question_about_an_unknown_artifact_warns_that_it_was_not_read() -> None:
    async with LGent.open(None, embedder=HashingEmbedder()) as lg:
        await lg.register_many([make_entry("PDFParser", description="parses pdf files")])
        unknown = await lg.query("what depends on PDFWriter")
        nothing = await lg.query("what depends on PDFParser")
    assert unknown.query_type == QueryType.SEMANTIC_INTENT
    assert unknown.warnings[0] == (
        "not read as a graph question: 'PDFWriter' is no artifact's name or id "
        "(did you mean PDFParser?)"
    )
    assert nothing.query_type == QueryType.RELATIONSHIP
    assert "the graph found none: artifacts that depend on PDFParser" in nothing.warnings


async def test_a_long_request_moves_the_semantic_query_toward_what_its_words_found(
    example_home: Path, real_embedder: Embedder
) -> None:
    request = (
        "extract the main readable article text from an HTML web page and drop the boilerplate"
    )
    async with LGent.open(example_home, embedder=real_embedder) as lg:
        moved = await lg.query(request)
        entries = {e.id: e for e in await lg.list_entries(limit=1000)}
    off = Settings(fusion=FusionSettings(feedback_weight=0.0))
    async with LGent.open(example_home, off, embedder=real_embedder) as lg:
        plain = await lg.query(request)
    assert "The semantic brain's query was moved toward" in moved.query_interpretation
    toward = next(
        child["query_moved_toward"]
        for r in moved.results
        for child in r.explanation["children"]
        if child["brain"] == "semantic"
    )
    words = query_words(request)
    assert toward and all(len(words & artifact_words(entries[i])) >= 3 for i in toward)
    assert "moved toward" not in plain.query_interpretation

    # the semantic brain's scores are similarities to the moved query
    def semantic_scores(response: QueryResponse) -> list[float]:
        return [s.score for r in response.results for s in r.sources if s.brain == "semantic"]

    assert semantic_scores(plain) != semantic_scores(moved)
