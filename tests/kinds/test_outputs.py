"""Output kinds: wrappers unwrapped, result clauses of descriptions and names, what a tool
writes or changes; and groups of parameters that make a record kind."""

from __future__ import annotations

from lgent.kinds import infer_tool_kinds
from lgent.kinds.clauses import description_clauses, head_ends, name_clause
from tests.kinds.helpers import best_output, kind, vocab

TEXTS = vocab(
    kind("Text", phrases=["\\btext\\b", "\\bcontents?\\b"]),
    kind("Markdown", ("Text",), phrases=["\\bmarkdown\\b"]),
    kind("URL", json_type="string", names=["url"], phrases=["\\burls?\\b"]),
    kind("Chart", phrases=["\\bcharts?\\b"]),
    kind("Weather", phrases=["\\bweather\\b"]),
    kind("Place", phrases=["\\bcity\\b"]),
    kind("Repo", phrases=["\\brepositor(?:y|ies)\\b"]),
)


def test_a_lone_result_wrapper_is_unwrapped() -> None:
    wrapped = {"type": "object", "properties": {"result": {"type": "string", "format": "uri"}}}
    urls = vocab(kind("URL", json_type="string", formats=["uri"]))
    assert best_output(urls, output_schema=wrapped) == "URL"
    named = {"type": "object", "properties": {"homepage": {"type": "string", "format": "uri"}}}
    assert best_output(urls, output_schema=named) is None  # a record, not a wrapper
    listed = {
        "type": "object",
        "properties": {"Results": {"type": "array", "items": {"type": "string", "format": "uri"}}},
    }
    assert best_output(urls, output_schema=listed) == "List[URL]"


def test_what_follows_returns_and_the_format_named() -> None:
    assert (
        best_output(TEXTS, description="Fetches a page. Returns the content as Markdown.")
        == "Markdown"
    )
    assert (
        best_output(TEXTS, description="Reads a page and gives it in markdown format") == "Markdown"
    )
    assert best_output(TEXTS, description="以 Markdown 格式返回。") == "Markdown"


def test_the_leading_verb_object_cut_before_its_inputs() -> None:
    assert best_output(TEXTS, description="Get weather for a city by name.") == "Weather"
    assert best_output(TEXTS, description="Generate a pie chart from data.") == "Chart"
    assert best_output(TEXTS, description="Convert Markdown content to a chart.") == "Chart"
    assert best_output(TEXTS, description="Search in title for things.") is None


def test_a_fetching_verb_reads_from_a_locator_it_does_not_return() -> None:
    assert best_output(TEXTS, description="Fetch a URL from the internet.") is None
    assert best_output(TEXTS, description="Get the URL of the page.") == "URL"


def test_the_head_noun_counts_in_full_a_modifier_less() -> None:
    assert best_output(TEXTS, description="Get repository statistics.") is None
    assert best_output(TEXTS, description="Get trending repositories and developers.") == "Repo"
    assert head_ends("markdown format") == {8, 15}
    assert head_ends("stories and comments") == {7, 20}


def test_the_name_says_what_comes_out() -> None:
    assert best_output(TEXTS, name="get_weather") == "Weather"
    assert best_output(TEXTS, name="html_to_markdown") is None  # a bare name counts 0.45
    assert best_output(TEXTS, name="html_to_markdown", description="Convert HTML.") is None
    clause = name_clause("fetchMarkdown")
    assert clause is not None and clause.text == "markdown" and clause.locator_source
    found = name_clause("docx_to_pdf")
    assert found is not None and found.text == "pdf"


def test_clauses_quote_where_they_come_from() -> None:
    clauses = description_clauses("Fetch a website and return the content as HTML.")
    assert [(c.text, c.where) for c in clauses] == [
        ("content", "description (returns)"),
        ("HTML", "description (format)"),
        ("website", "description (fetch)"),
    ]


FILES = vocab(
    kind("Path", json_type="string", names=["(?:.+_)?path|filename"]),
    kind("FilePath", ("Path",), json_type="string", names=["file_path"]),
    kind("Dir", ("Path",), json_type="string", names=["output_dir"]),
)


def test_an_output_parameter_names_what_is_written() -> None:
    schema = {
        "type": "object",
        "properties": {"input_path": {"type": "string"}, "output_path": {"type": "string"}},
    }
    found = infer_tool_kinds(FILES, name="tidy", input_schema=schema).output
    assert found is not None and found.kind == "Path"
    assert found.evidence[0].rule == "writes" and found.evidence[0].quote == "output_path"


def test_a_changing_verb_outputs_the_file_it_changes() -> None:
    schema = {
        "type": "object",
        "properties": {"file_path": {"type": "string"}, "text": {"type": "string"}},
        "required": ["file_path", "text"],
    }
    found = infer_tool_kinds(FILES, name="add_paragraph", input_schema=schema).output
    assert found is not None and found.kind == "FilePath" and found.evidence[0].rule == "changes"
    assert infer_tool_kinds(FILES, name="count_words", input_schema=schema).output is None
    source = {
        "type": "object",
        "properties": {"template_path": {"type": "string"}},
        "required": ["template_path"],
    }
    assert infer_tool_kinds(FILES, name="create_from_template", input_schema=source).output is None


GEO = vocab(
    kind("Lat", json_type="number", names=["(?:.+_)?(?:lat|latitude)"]),
    kind("Lon", json_type="number", names=["(?:.+_)?(?:lon|lng|longitude)"]),
    kind("Point", fields={"latitude": "Lat", "longitude": "Lon"}),
    kind(
        "Box",
        fields={
            "min_latitude": "Lat",
            "min_longitude": "Lon",
            "max_latitude": "Lat",
            "max_longitude": "Lon",
        },
    ),
)


def number_props(*names: str) -> dict[str, object]:
    return {
        "type": "object",
        "properties": {n: {"type": "number"} for n in names},
        "required": list(names),
    }


def test_parameters_make_record_kinds_one_group_per_prefix() -> None:
    one = infer_tool_kinds(GEO, input_schema=number_props("lat", "lng", "radius"))
    assert [(g.kind, g.fields) for g in one.groups] == [("Point", ("lat", "lng"))]
    assert [k.kind for k in one.needs] == ["Point"]
    two = infer_tool_kinds(
        GEO,
        input_schema=number_props("from_latitude", "from_longitude", "to_latitude", "to_longitude"),
    )
    assert sorted(g.fields for g in two.groups) == [
        ("from_latitude", "from_longitude"),
        ("to_latitude", "to_longitude"),
    ]
    box = infer_tool_kinds(
        GEO,
        input_schema=number_props("min_latitude", "min_longitude", "max_latitude", "max_longitude"),
    )
    assert [g.kind for g in box.groups] == ["Box"]  # its corners are not points of their own


def test_an_output_record_is_described_field_by_field() -> None:
    out = {
        "type": "object",
        "properties": {
            "latitude": {"type": "number"},
            "longitude": {"type": "number"},
            "city": {"type": "string"},
        },
    }
    found = infer_tool_kinds(GEO, output_schema=out)
    assert found.output is not None and found.output.kind == "Point"
    assert found.output_record is not None
    assert found.output_record.field("latitude") is not None
    assert found.output_record.to_dict()["latitude"]["kind"] == "Lat"
