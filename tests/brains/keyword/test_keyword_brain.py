"""KeywordBrain end to end on a small hand-made catalog: every grammar feature finds the right ids."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lgent.brains.keyword.brain import KeywordBrain
from lgent.errors import QuerySyntaxError
from lgent.models import SearchFilters
from tests.conftest import entry_lookup, make_entry
from tests.examples import examples

ENTRIES = [
    make_entry(
        "PDFParser_v2",
        version="2.1.0",
        entity_type="agent",
        author="ToolForge",
        description="Extracts clean text and tables from PDF files.",
        keywords=["pdf", "text extraction"],
        input_type="PDF",
        output_type="List[Document]",
        execution="local",
    ),
    make_entry(
        "PDFParser",
        version="1.4.0",
        status="deprecated",
        author="ToolForge",
        description="Legacy PDF text extractor.",
        keywords=["pdf"],
        input_type="PDF",
        output_type="Text",
        execution="local",
    ),
    make_entry(
        "NewsParser",
        version="1.0.0",
        author="F-gent",
        input_type="RawHTML",
        output_type="NewsArticle",
        description="Parses news articles out of raw HTML pages.",
        keywords=["news", "html", "scraping"],
        execution="cloud",
    ),
    make_entry(
        "SentimentEngine",
        version="3.0.0",
        entity_type="model",
        description="Scores the sentiment of English text from -1 to 1.",
        keywords=["nlp", "sentiment"],
        input_type="Text",
        output_type="SentimentScore",
    ),
    make_entry(
        "html_to_markdown",
        version="0.9.0",
        status="experimental",
        description="Converts HTML documents into Markdown.",
        keywords=["html", "markdown"],
    ),
    make_entry(
        "ExecutiveSummarizer",
        version="2.0.0",
        entity_type="agent",
        description="Writes an executive summary of long reports.",
        keywords=["summarization"],
    ),
]


@pytest.fixture(scope="module")
def brain() -> KeywordBrain:
    b = KeywordBrain(None, entries=entry_lookup(ENTRIES))
    b.build(ENTRIES, [], change_number=len(ENTRIES))
    return b


def ids(brain: KeywordBrain, query: str, **kwargs: object) -> list[str]:
    return [h.id for h in brain.search(query, limit=20, **kwargs).hits]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # identifier-aware analysis
        ("pdf", {"PDFParser_v2", "PDFParser"}),
        ("parser", {"PDFParser_v2", "PDFParser", "NewsParser"}),
        ("pdfparser", {"PDFParser_v2", "PDFParser"}),
        ("PDFParser_v2", {"PDFParser_v2"}),
        ("pdfparser_v2", {"PDFParser_v2"}),
        ("markdown", {"html_to_markdown"}),
        ("HtmlToMarkdown", {"html_to_markdown"}),
        # stemming in descriptions
        ("extracting", {"PDFParser_v2"}),  # Snowball keeps "extractor" apart
        ("summaries", {"ExecutiveSummarizer"}),
        # phrases
        ('"raw HTML"', {"NewsParser"}),
        ('"text extraction"', {"PDFParser_v2"}),
        ('description:"executive summary"', {"ExecutiveSummarizer"}),
        # fields
        ("name:news", {"NewsParser"}),
        ("author:ToolForge", {"PDFParser_v2", "PDFParser"}),
        ("author:F-gent", {"NewsParser"}),
        ("tag:nlp", {"SentimentEngine"}),
        ("keywords:scraping", {"NewsParser"}),
        ("type:agent", {"PDFParser_v2", "ExecutiveSummarizer"}),
        ("status:deprecated", {"PDFParser"}),
        ("input:PDF", {"PDFParser_v2", "PDFParser"}),
        ("output:document", {"PDFParser_v2"}),
        ("output:SentimentScore", {"SentimentEngine"}),
        ("version:2.1.0", {"PDFParser_v2"}),
        ("execution:cloud", {"NewsParser"}),
        ("id:html_to_markdown", {"html_to_markdown"}),
        # boolean
        ("pdf AND deprecated", set()),
        ("pdf AND status:deprecated", {"PDFParser"}),
        ("news OR sentiment", {"NewsParser", "SentimentEngine"}),
        ("(pdf OR html) AND parser", {"PDFParser_v2", "PDFParser", "NewsParser"}),
        ("parser NOT status:deprecated", {"PDFParser_v2", "NewsParser"}),
        ("parser -pdf", {"NewsParser"}),
        ("-tag:pdf -tag:html", {"SentimentEngine", "ExecutiveSummarizer"}),
        ("html +markdown", {"html_to_markdown"}),
        # wildcards
        ("News*", {"NewsParser"}),
        ("*Parser", {"PDFParser_v2", "PDFParser", "NewsParser"}),
        ("version:2.*", {"PDFParser_v2", "ExecutiveSummarizer"}),
        ("name:Sentim?ntEngine", {"SentimentEngine"}),
        # fuzzy
        ("sentimnet~1", {"SentimentEngine"}),
        ("summarizr~", {"ExecutiveSummarizer"}),
        ("parsr~1 AND news", {"NewsParser"}),
    ],
)
def test_grammar_features(brain: KeywordBrain, query: str, expected: set[str]) -> None:
    assert set(ids(brain, query)) == expected


def test_default_operator_or_widens(brain: KeywordBrain) -> None:
    assert ids(brain, "news sentiment") == []
    assert set(ids(brain, "news sentiment", default_operator="OR")) == {
        "NewsParser",
        "SentimentEngine",
    }


def test_name_outranks_description(brain: KeywordBrain) -> None:
    # "summarizer" is in one name; "summary" only in its description: the exact name wins by far.
    hits = brain.search("PDFParser").hits
    assert hits[0].id == "PDFParser"


def test_filters(brain: KeywordBrain) -> None:
    only_local = SearchFilters(execution=("local",))  # type: ignore[arg-type]
    assert set(ids(brain, "parser", filters=only_local)) == {"PDFParser_v2", "PDFParser"}
    active_agents = SearchFilters(status=("active",), entity_type=("agent",))  # type: ignore[arg-type]
    assert ids(brain, "pdf", filters=active_agents) == ["PDFParser_v2"]
    assert ids(brain, "parser", filters=SearchFilters(author=("F-gent",))) == ["NewsParser"]


def test_hits_carry_fields_highlights_and_explanation(brain: KeywordBrain) -> None:
    hit = brain.search("pdf extracts").hits[0]
    assert hit.id in {"PDFParser_v2", "PDFParser"}
    assert {"name", "description"} <= set(hit.matched_fields)
    assert "<mark>PDF</mark>" in hit.highlights["name"]
    assert (
        "<mark>Extracts</mark>" in hit.highlights["description"]
        or "<mark>extractor</mark>" in hit.highlights["description"]
    )
    assert (
        hit.explanation["brain"] == "keyword"
        and hit.explanation["query"] == "And(Term('pdf'), Term('extracts'))"
    )
    assert hit.rank == 1


def test_a_description_snippet_is_one_line_whatever_the_source_indentation() -> None:
    """Descriptions imported from MCP servers keep their source's line breaks and indentation;
    the highlighted snippet shows them as single spaces (fewer tokens, a readable line)."""
    text = "List all running processes.\n\n                        Returns each\tprocess ID."
    entries = [make_entry("ps", description=text)]
    small = KeywordBrain(None, entries=entry_lookup(entries))
    small.build(entries, [], change_number=1)
    (hit,) = small.search("processes").hits
    snippet = hit.highlights["description"]
    assert snippet == (
        "List all running <mark>processes</mark>. Returns each <mark>process</mark> ID."
    )


def test_highlights_are_html_with_the_source_markup_escaped() -> None:
    """An imported description's own markup is text in a highlight: a page that shows
    highlights as HTML runs none of it."""
    text = '<p>Resizes <img src=x onerror="alert(1)"> images & <mark>thumbnails</mark></p>'
    entries = [make_entry("resizer", description=text, keywords=["a<b>", "images"])]
    small = KeywordBrain(None, entries=entry_lookup(entries))
    small.build(entries, [], change_number=1)
    (hit,) = small.search("images").hits
    assert hit.highlights["description"] == (
        '&lt;p&gt;Resizes &lt;img src=x onerror="alert(1)"&gt; <mark>images</mark> &amp; '
        "&lt;mark&gt;thumbnails&lt;/mark&gt;&lt;/p&gt;"
    )
    assert hit.highlights["keywords"] == "a&lt;b&gt;, <mark>images</mark>"
    long = "&amp; <b>" * 30 + "images"
    wide = KeywordBrain(None, entries=entry_lookup([make_entry("w", description=long)]))
    wide.build([make_entry("w", description=long)], [], change_number=1)
    (cut,) = wide.search("images").hits
    snippet = cut.highlights["description"].strip("…")
    assert "<" not in snippet.replace("<mark>", "").replace("</mark>", "")
    assert all(part.split(";")[0] in ("amp", "lt", "gt") for part in snippet.split("&")[1:])


def test_strict_errors_and_lenient_repairs(brain: KeywordBrain) -> None:
    with pytest.raises(QuerySyntaxError) as info:
        brain.search("pdf AND (parser")
    assert info.value.position == 15 and "')' to close the '(' at position 8" in info.value.expected
    result = brain.search("pdf AND (parser", lenient=True)
    assert result.warnings and {h.id for h in result.hits} >= {"PDFParser"}
    with pytest.raises(QuerySyntaxError, match="field name"):
        brain.search("colour:red")


def test_overcomplex_wildcard_is_a_syntax_error(brain: KeywordBrain) -> None:
    with pytest.raises(QuerySyntaxError) as info:
        brain.search("pdf " + "?" * 400)
    assert info.value.position == 4 and "wildcard of at most" in info.value.expected
    with pytest.raises(QuerySyntaxError) as info:
        brain.search("name:" + "a*" * 10)
    assert info.value.position == 5  # the wildcard, not its field
    lenient = brain.search("pdf " + "a*" * 10, lenient=True)
    assert any("searched as words" in w for w in lenient.warnings)


def test_only_stop_words_says_so(brain: KeywordBrain) -> None:
    result = brain.search("description:the")
    assert result.hits == [] and "only stop words" in result.warnings[0]


def test_persistence_and_incremental_changes(tmp_path: Path) -> None:
    from lgent.brains.base import ChangeSet

    path = tmp_path / "kw"
    catalog = entry_lookup([*ENTRIES, make_entry("BrandNewTool", description="fresh")])
    brain = KeywordBrain(path, entries=catalog)
    assert brain.change_number == -1
    brain.build(ENTRIES, [], 6)
    brain.apply_changes(
        ChangeSet([make_entry("BrandNewTool", description="fresh")], ["NewsParser"], None, 8)
    )
    assert ids(brain, "BrandNewTool") == ["BrandNewTool"] and ids(brain, "NewsParser") == []
    reopened = KeywordBrain(path, entries=catalog)
    assert reopened.change_number == 8
    assert ids(reopened, "BrandNewTool") == ["BrandNewTool"] and ids(reopened, "NewsParser") == []
    assert reopened.status().documents == 6


QUERY_ALPHABET = st.sampled_from(
    [
        *list('()"*:~-+\\?'),
        "AND",
        "OR",
        "NOT",
        "&&",
        "||",
        "name:",
        "tag:",
        "version:",
        " ",
        "pdf",
        "Parser",
        "é",
        "日本",
        "\x00",
        "~2",
        "~9",
    ]
)


@settings(
    max_examples=examples(10_000), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    st.one_of(
        st.text(max_size=60),
        st.lists(QUERY_ALPHABET, max_size=30).map("".join),
        st.lists(QUERY_ALPHABET, min_size=1, max_size=5).map("".join),
        # long input (up to ~2,000 characters, the facade's query limit)
        st.tuples(st.lists(QUERY_ALPHABET, min_size=1, max_size=3), st.integers(20, 200)).map(
            lambda pair: ("".join(pair[0]) * pair[1])[:2000]
        ),
    )
)
def test_any_string_gives_results_or_a_syntax_error(brain: KeywordBrain, query: str) -> None:
    try:
        result = brain.search(query, limit=3)
    except QuerySyntaxError as err:
        assert 0 <= err.position <= len(query)
        return
    assert all(h.id for h in result.hits)
    lenient = brain.search(query, limit=3, lenient=True)
    assert isinstance(lenient.hits, list)


def test_free_text_boosts_replace_the_name_boost_for_plain_language() -> None:
    """Prototype (issue 15): in a sentence a name part is one word among many."""
    from lgent.brains.base import BrainQuery
    from lgent.brains.keyword.settings import KeywordSettings
    from lgent.models import QueryType

    entries = [
        make_entry("NewsDigest", description="Sends a morning email."),
        make_entry(
            "HeadlineCollector", description="Collects news headlines and a digest of stories."
        ),
    ]
    sentence = BrainQuery(
        "I want a digest of the news headlines", 5, query_type=QueryType.SEMANTIC_INTENT
    )
    first = {}
    for boosts in ({}, {"name_exact": 0.0, "keywords_exact": 0.0}):
        b = KeywordBrain(
            None, KeywordSettings(free_text_boosts=boosts), entries=entry_lookup(entries)
        )
        b.build(entries, [], change_number=2)
        first[bool(boosts)] = b.answer(sentence).ids[0]
        assert b.search("NewsDigest").ids == ["NewsDigest"]  # names still found by name
    assert first[False] == "NewsDigest"  # its name parts carry the boost 4
    assert first[True] == "HeadlineCollector"  # three words of its text match


def test_a_relationship_question_finds_mentions_of_its_artifact_not_its_words() -> None:
    """Asked what can take an artifact's output, the keyword brain answers with the artifacts
    whose text names it (not the artifact itself, nor entries that merely say "output")."""
    from lgent.brains.base import BrainQuery, Reading
    from lgent.models import QueryType

    entries = [
        make_entry("start_process", description="Starts a process; its output is a PID."),
        make_entry("interact", description="Sends input to a process from start_process."),
        make_entry("Converter", description="Writes any output you can take to PDF."),
        make_entry("Sibling", name="start_process_v2", description="Starts a job."),
    ]
    b = KeywordBrain(None, entries=entry_lookup(entries))
    b.build(entries, [], change_number=4)
    question = "what can take start_process's output"
    asked = BrainQuery(
        question,
        10,
        query_type=QueryType.RELATIONSHIP,
        reading=Reading("relationship", "consumers of start_process", artifact="start_process"),
    )
    found = b.answer(asked)
    assert found.ids == ["interact"]
    hit = found.explain("interact", entries[1])  # as fusion explains the results it shows
    assert hit is not None
    assert hit.matched_fields == ("description",) and "<mark>" in hit.highlights["description"]
    nowhere = Reading("relationship", "consumers of Converter", artifact="Converter")
    assert (
        b.answer(BrainQuery(question, 10, reading=nowhere, query_type=QueryType.RELATIONSHIP)).ids
        == []
    )


def test_a_question_about_alternatives_finds_namesakes_not_mentions() -> None:
    """For "alternatives to X" a name holding X's name is evidence (another server's
    ``read_file``); a text that merely mentions X is not."""
    from lgent.brains.base import SIMILAR_RELATION, BrainQuery, Reading
    from lgent.models import QueryType

    entries = [
        make_entry("files/read_file", name="read_file", description="Reads a file."),
        make_entry("disk/read_file", name="read_file", description="Reads a file from disk."),
        make_entry("config", description="Call read_file first, then set a value."),
        make_entry("memory/read_file_lines", name="read_file_lines", description="Lines."),
    ]
    b = KeywordBrain(None, entries=entry_lookup(entries))
    b.build(entries, [], change_number=4)
    reading = Reading(
        "relationship", "alternatives", artifact="files/read_file", relation=SIMILAR_RELATION
    )
    asked = BrainQuery("alternatives to read_file", 10, QueryType.RELATIONSHIP, reading=reading)
    assert set(b.answer(asked).ids) == {"disk/read_file", "memory/read_file_lines"}
