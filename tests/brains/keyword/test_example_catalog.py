"""Every grammar feature on the example catalog, checked against the catalog itself: the expected
ids are computed by filtering the entries in Python, not written down by hand."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from lgent.brains.keyword.brain import KeywordBrain
from lgent.catalog.store import CatalogStore
from lgent.models import CatalogEntry
from tests.conftest import entry_lookup


@pytest.fixture(scope="module")
def catalog(example_home: Path) -> tuple[KeywordBrain, list[CatalogEntry]]:
    with CatalogStore(example_home / "catalog.db") as store:
        entries = list(store.iter_latest())
        brain = KeywordBrain(None, entries=entry_lookup(entries))
        brain.build(entries, [], store.change_number())
    return brain, entries


def words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z0-9]+", text)}


def type_names(expr: str | None) -> set[str]:
    """The type names in a type expression: ``List[PDF]`` -> {"list", "pdf"}."""
    return {n.lower() for n in re.findall(r"[A-Za-z0-9_.\-]+", expr or "")}


Predicate = Callable[[CatalogEntry], bool]

CASES: list[tuple[str, Predicate]] = [
    ("author:ToolForge", lambda e: (e.author or "").lower() == "toolforge"),
    (
        "author:ToolForge type:agent",
        lambda e: (e.author or "").lower() == "toolforge" and e.entity_type.value == "agent",
    ),
    ("status:deprecated", lambda e: e.status.value == "deprecated"),
    ("tag:ocr", lambda e: "ocr" in {k.lower() for k in e.keywords}),
    (
        "tag:ocr -status:retired",
        lambda e: "ocr" in {k.lower() for k in e.keywords} and e.status.value != "retired",
    ),
    ("input:PDF", lambda e: "pdf" in type_names(e.input_type)),
    ("output:SentimentScore", lambda e: "sentimentscore" in type_names(e.output_type)),
    ("version:2.*", lambda e: e.version.startswith("2.")),
    (
        "execution:local AND type:agent",
        lambda e: (
            e.execution is not None
            and e.execution.value == "local"
            and e.entity_type.value == "agent"
        ),
    ),
    ("type:prompt OR type:dataset", lambda e: e.entity_type.value in ("prompt", "dataset")),
    ("name:News*", lambda e: e.name.lower().startswith("news") or e.id.lower().startswith("news")),
    ('description:"financial"', lambda e: "financial" in words(e.description)),
    (
        "status:active NOT execution:cloud",
        lambda e: (
            e.status.value == "active" and (e.execution is None or e.execution.value != "cloud")
        ),
    ),
]


@pytest.mark.parametrize(("query", "predicate"), CASES, ids=[c[0] for c in CASES])
def test_field_and_boolean_queries_match_the_catalog(
    catalog: tuple[KeywordBrain, list[CatalogEntry]], query: str, predicate: Predicate
) -> None:
    brain, entries = catalog
    expected = {e.id for e in entries if predicate(e)}
    assert expected, f"{query} should match something in the example catalog"
    got = {h.id for h in brain.search(query, limit=1000).hits}
    assert got == expected


@pytest.mark.parametrize(
    ("query", "must_include"),
    [
        ("NewsParser", {"NewsParser"}),
        ("pdfparser", {"PDFParser", "PDFParser_v2"}),
        ("PDFParser_v2", {"PDFParser_v2"}),
        ("*Parser", {"NewsParser", "PDFParser", "PDFParser_v2"}),
        ("parser~1", {"NewsParser", "PDFParser_v2"}),
        ("sentimnet~1", {"SentimentEngine"}),
        ('"financial metrics"', {"FinancialPDFAnalyzer"}),
        ("(pdf OR html) AND parser", {"PDFParser_v2", "NewsParser"}),
    ],
)
def test_names_wildcards_fuzzy_and_phrases(
    catalog: tuple[KeywordBrain, list[CatalogEntry]], query: str, must_include: set[str]
) -> None:
    brain, _ = catalog
    got = {h.id for h in brain.search(query, limit=50).hits}
    assert must_include <= got
