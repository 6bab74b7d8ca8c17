"""Descriptions made plain text at import: HTML converted, placeholders kept, whitespace
normalised, and the source's own words kept in the entry's origin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lgent.catalog.loaders import read_path
from lgent.catalog.readers.plain_text import has_markup, plain_text
from lgent.models import CatalogEntry


@pytest.mark.parametrize(
    ("written", "plain"),
    [
        (
            "<p>Returns the pet&nbsp;<b>by id</b>.</p><p>Second.</p>",
            "Returns the pet by id.\n\nSecond.",
        ),
        ("<ul><li>one</li><li>two</li></ul>", "* one\n* two"),
        ("<important><p>Careful.</p></important><p>Then.</p>", "Careful.\n\nThen."),
        ("Line one<br/>line two", "Line one\nline two"),
        ("A &lt; B &amp;&amp; C &#40;x&#41;", "A < B && C (x)"),
        ("<p>Use <code>gs://<bucket>/<path></code></p>", "Use gs://<bucket>/<path>"),
        (
            "Markdown with <code>x</code>\n\n* item one\n* item two",
            "Markdown with x\n\n* item one\n* item two",
        ),
        (
            "See [docs](https://x.example) and `a  <x>`\n\n\n\nnext",
            "See [docs](https://x.example) and `a <x>`\n\nnext",
        ),
        (
            "Bearer <token> for projects/<project_id>/x",
            "Bearer <token> for projects/<project_id>/x",
        ),
        ("The <Dial> verb of TwiML", "The <Dial> verb of TwiML"),
        ("R&D x&y; plain", "R&D x&y; plain"),
        ("  indented\n    more\u00a0\u00a0space\u200b ", "indented\n  more space"),
    ],
)
def test_plain_text(written: str, plain: str) -> None:
    assert plain_text(written) == plain
    assert plain_text(plain) == plain  # cleaning clean text changes nothing


def test_markup_is_only_html_or_documentation_tags_and_references() -> None:
    assert has_markup("<p>x</p>") and has_markup("a&nbsp;b") and has_markup("<note>n</note>")
    assert not has_markup("gs://<bucket>/<path>") and not has_markup("a < b & c")


def test_the_sources_own_words_are_kept_in_the_origin(tmp_path: Path) -> None:
    spec = {
        "swagger": "2.0",
        "info": {"title": "Pets", "version": "1", "description": "<p>All the <b>pets</b>.</p>"},
        "host": "pets.example",
        "paths": {
            "/pets": {
                "get": {
                    "operationId": "listPets",
                    "summary": "List pets",
                    "description": "Plain words only.",
                    "parameters": [
                        {"name": "q", "in": "query", "type": "string", "description": "<i>Text</i>"}
                    ],
                }
            }
        },
    }
    (tmp_path / "pets.json").write_text(json.dumps(spec))
    entries = {
        r.record.id: r.record
        for r in read_path(tmp_path / "pets.json").records
        if isinstance(r.record, CatalogEntry)
    }
    api, operation = entries["pets"], entries["pets/listPets"]
    assert api.description.startswith("All the pets.\n\n")
    assert api.origin is not None and api.origin.description == "<p>All the <b>pets</b>.</p>"
    assert operation.description.startswith("List pets\n\nPlain words only.\n\nParameters: q")
    assert "Text" in operation.description and "<i>" not in operation.description
    assert operation.origin is not None and operation.origin.description is None  # unchanged
