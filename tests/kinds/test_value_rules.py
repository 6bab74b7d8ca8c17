"""Each evidence rule on one value, in a vocabulary of one or two kinds, then the confidence
arithmetic against a hand computation."""

from __future__ import annotations

import pytest

from lgent.kinds import CONFIDENCE
from lgent.kinds.rules import ANCESTOR_WEIGHT, TAIL_CONFIDENCE
from tests.kinds.helpers import best_input, kind, one_parameter, vocab

URLS = vocab(
    kind(
        "URL",
        json_type="string",
        formats=["uri"],
        names=["(?:.+_)?url"],
        values=["https?://\\S+"],
        phrases=["\\burls?\\b"],
    )
)


def test_formats() -> None:
    assert best_input(URLS, "x", {"type": "string", "format": "URI"}) == "URL"
    assert best_input(URLS, "x", {"type": "string", "format": "email"}) is None


def test_names_in_snake_case_matched_whole() -> None:
    assert best_input(URLS, "pageURL", {"type": "string"}) == "URL"
    assert best_input(URLS, "url_count", {"type": "string"}) is None


def test_values_from_examples_defaults_and_descriptions() -> None:
    assert best_input(URLS, "x", {"type": "string", "examples": ["https://a.b/c"]}) == "URL"
    assert best_input(URLS, "x", {"type": "string", "default": "http://x.y"}) == "URL"
    described = {"type": "string", "description": "Where to go (e.g. 'https://example.com')"}
    assert best_input(URLS, "x", described) == "URL"
    assert best_input(URLS, "x", {"type": "string", "example": "not a url"}) is None


def test_patterns_search_the_schema_pattern() -> None:
    asn = vocab(kind("ASN", patterns=["\\^?AS\\\\d"]))
    assert best_input(asn, "x", {"type": "string", "pattern": "^AS\\d+$"}) == "ASN"
    assert best_input(asn, "x", {"type": "string", "pattern": "^[a-z]+$"}) is None


def test_enums_need_most_values_listed() -> None:
    currency = vocab(kind("Currency", enums=["USD", "EUR", "GBP", "JPY"]))
    assert best_input(currency, "x", {"type": "string", "enum": ["USD", "EUR"]}) == "Currency"
    assert (
        best_input(currency, "x", {"type": "string", "enum": ["USD", "EUR", "GBP", "JPY", "XX"]})
        == "Currency"
    )
    assert best_input(currency, "x", {"type": "string", "enum": ["USD", "EUR", "X", "Y"]}) is None
    assert best_input(currency, "x", {"type": "string", "enum": ["USD"]}) is None


def test_units_only_for_numbers() -> None:
    length = vocab(kind("Pixels", units=["\\bpixels?\\b"]), kind("Millis", units=["\\bms\\b"]))
    assert (
        best_input(length, "width", {"type": "number", "description": "Width in pixels"})
        == "Pixels"
    )
    assert best_input(length, "timeout_ms", {"type": "integer"}) == "Millis"
    assert best_input(length, "width", {"type": "string", "description": "Width in pixels"}) is None


def test_phrases_count_in_full_only_ending_the_leading_noun_phrase() -> None:
    colors = vocab(kind("Color", phrases=["\\bcolou?rs?\\b"]))
    found = one_parameter(colors, "x", {"type": "string", "description": "Fill color of the box"})
    best = found.inputs[0].best
    assert best is not None and best.confidence == pytest.approx(CONFIDENCE["phrases"])
    assert best_input(colors, "x", {"type": "string", "description": "Color scheme to use"}) is None
    assert (
        best_input(colors, "x", {"type": "string", "description": "Scheme; its color is set"})
        is None
    )
    assert TAIL_CONFIDENCE < 0.5


def test_json_type_and_booleans_rule_a_kind_out() -> None:
    assert best_input(URLS, "url", {"type": "integer"}) is None
    anything = vocab(kind("Query", names=["(?:.+_)?query"]))
    assert best_input(anything, "explain_query", {"type": "boolean"}) is None
    assert best_input(anything, "search_query", {}) == "Query"


def test_an_enum_rules_out_kinds_whose_values_it_does_not_hold() -> None:
    domains = vocab(
        kind("Domain", names=["domain"], values=["[a-z]+\\.[a-z]{2,}"]),
        kind("Topic", names=["domain"]),
    )
    assert best_input(domains, "domain", {"type": "string"}) in {"Domain", "Topic"}
    assert best_input(domains, "domain", {"enum": ["article", "trial"]}) is None
    assert best_input(domains, "domain", {"enum": ["a.com", "b.org"]}) == "Domain"


def test_lists_and_unions_with_null() -> None:
    assert (
        best_input(URLS, "urls", {"type": "array", "items": {"type": "string", "format": "uri"}})
        == "List[URL]"
    )
    union = {"anyOf": [{"type": "string", "format": "uri"}, {"type": "null"}]}
    assert best_input(URLS, "x", union) == "URL"
    table = vocab(kind("Table", json_type="array", names=["rows"]))
    assert best_input(table, "rows", {"type": "array", "items": {"type": "object"}}) == "Table"
    assert best_input(table, "rows", {"type": "string"}) is None


def test_refs_are_followed_in_the_document() -> None:
    document = {"$defs": {"Link": {"type": "string", "format": "uri"}}}
    found = one_parameter(URLS, "x", {"$ref": "#/$defs/Link"}, document=document)
    assert found.inputs[0].best is not None and found.inputs[0].best.kind == "URL"


def test_fields_find_a_record_kind_in_an_object() -> None:
    geo = vocab(
        kind("Lat", json_type="number", names=["lat|latitude"]),
        kind("Lon", json_type="number", names=["lon|lng|longitude"]),
        kind("Point", fields={"latitude": "Lat", "longitude": "Lon", "label?": "any"}),
    )
    point = {"type": "object", "properties": {"lat": {"type": "number"}, "lng": {"type": "number"}}}
    assert best_input(geo, "where", point) == "Point"
    partial = {"type": "object", "properties": {"lat": {"type": "number"}}}
    assert best_input(geo, "where", partial) is None


def test_confidence_is_a_noisy_or_of_distinct_rules_plus_half_the_ancestors() -> None:
    files = vocab(
        kind("Path", names=["(?:.+_)?path"]),
        kind("FilePath", ("Path",), phrases=["\\bfile\\b"]),
        kind("PdfPath", ("FilePath",), formats=["pdf-path"], values=["\\S+\\.pdf", "\\S+\\.PDF"]),
    )
    schema = {
        "type": "string",
        "format": "pdf-path",
        "examples": ["a.pdf", "b.PDF"],
        "description": "A file to read",
    }
    found = one_parameter(files, "input_path", schema).inputs[0].best
    assert found is not None and found.kind == "PdfPath"
    own = 1 - (1 - CONFIDENCE["formats"]) * (1 - CONFIDENCE["values"])  # two examples: once
    inherited = 1 - (1 - ANCESTOR_WEIGHT * CONFIDENCE["names"]) * (
        1 - ANCESTOR_WEIGHT * CONFIDENCE["phrases"]
    )
    assert found.confidence == pytest.approx(min(0.99, 1 - (1 - own) * (1 - inherited)))
    assert {e.kind for e in found.evidence} == {"PdfPath", "FilePath", "Path"}
    assert [k.kind for k in one_parameter(files, "input_path", schema).inputs[0].kinds] == [
        "PdfPath"
    ]


def test_the_description_refines_a_parameter_without_one_of_its_own() -> None:
    files = vocab(
        kind("Path", names=["(?:.+_)?path|filename"]),
        kind("DocPath", ("Path",), phrases=["\\bword documents?\\b"]),
        kind("PdfPath", ("Path",), phrases=["\\bpdf\\b"]),
    )
    tool = {"description": "Add a paragraph to a Word document."}
    assert best_input(files, "filename", {"type": "string"}, **tool) == "DocPath"
    described = {"type": "string", "description": "The path"}
    assert best_input(files, "filename", described, **tool) == "Path"
    both = {"description": "Convert a Word document to PDF."}
    assert best_input(files, "filename", {"type": "string"}, **both) == "Path"
    returns = {"description": "Set the path and returns a Word document."}
    assert best_input(files, "filename", {"type": "string"}, **returns) == "Path"
    assert best_input(files, "output_path", {"type": "string"}, **tool) == "Path"
