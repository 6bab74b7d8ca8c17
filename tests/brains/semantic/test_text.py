"""Entry text builders, and the display splitting of identifiers they use."""

from __future__ import annotations

import pytest

from lgent.analysis.identifiers import spaced
from lgent.brains.semantic.text import entry_text, plain_text, weighted_text
from tests.brains.semantic.conftest import entry


@pytest.mark.parametrize(
    ("identifier", "words"),
    [
        ("PDFParser_v2", "PDF Parser v2"),
        ("camelCaseWord", "camel Case Word"),
        ("snake_case-and-kebab", "snake case and kebab"),
        ("XMLToJSON", "XML To JSON"),
        ("URLsToFetch", "URLs To Fetch"),
        ("PDFs", "PDFs"),
        ("Base64Encoder", "Base64 Encoder"),
        ("Text Normalizer", "Text Normalizer"),
        ("Straße_Ümlaut", "Straße Ümlaut"),
        ("  spaced   out ", "spaced out"),
        ("Node.js v2.1", "Node.js v2.1"),
    ],
)
def test_spaced_identifier(identifier: str, words: str) -> None:
    assert spaced(identifier) == words


def test_plain_text_is_name_description_keywords_signature() -> None:
    e = entry(
        "p",
        name="PDFParser_v2",
        description="Extracts text from PDF files",
        keywords=["pdf", "textExtraction"],
        input_type="PDF",
        output_type="List[Document]",
    )
    assert plain_text(e) == (
        "PDF Parser v2. Extracts text from PDF files. pdf, text Extraction. PDF -> List[Document]."
    )


def test_plain_text_leaves_out_empty_parts_and_keeps_final_punctuation() -> None:
    assert plain_text(entry("x", name="Echo")) == "Echo."
    assert plain_text(entry("x", name="Echo", description="Says it back!")) == "Echo. Says it back!"
    assert plain_text(entry("x", name="Sink", input_type="Text")) == "Sink. Text -> Any."


def test_weighted_text_repeats_name_twice_and_description_three_times() -> None:
    e = entry(
        "p",
        name="TextNormalizer",
        description="Cleans text.",
        keywords=["clean"],
        input_type="Text",
        output_type="Text",
    )
    assert weighted_text(e).splitlines() == [
        "Name: Text Normalizer",
        "Name: Text Normalizer",
        "Description: Cleans text.",
        "Description: Cleans text.",
        "Description: Cleans text.",
        "Keywords: clean",
        "Type: Text -> Text",
    ]
    assert weighted_text(entry("x", name="Echo")) == "Name: Echo\nName: Echo"


def test_entry_text_dispatches_on_mode() -> None:
    e = entry("x", name="Echo", description="Says it back.")
    assert entry_text(e) == plain_text(e)
    assert entry_text(e, "weighted") == weighted_text(e)
