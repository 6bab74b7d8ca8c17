"""Model validation: each broken rule names its field; good records round-trip."""

from __future__ import annotations

import pytest

from lgent.errors import ValidationError
from lgent.models import CatalogEntry, EntityType, Relation, SearchFilters, Status, TypeDecl
from tests.conftest import make_entry


def test_defaults_and_round_trip() -> None:
    entry = make_entry(
        "PDFParser_v2",
        version="2.1.0",
        keywords=["pdf", " parsing ", "pdf"],
        last_used="2026-03-01T10:00:00Z",
        relations=[{"type": "successor_to", "target": "PDFParser"}],
    )
    assert entry.entity_type is EntityType.TOOL
    assert entry.status is Status.ACTIVE
    assert entry.keywords == ("pdf", "parsing")  # stripped and de-duplicated
    assert entry.relation_targets(entry.relations[0].type) == ["PDFParser"]
    assert CatalogEntry.parse(entry.to_record()) == entry


@pytest.mark.parametrize(
    ("data", "field", "fragment"),
    [
        ({"version": ""}, "version", "is empty"),
        ({"version": "1" * 101}, "version", "longer than 100"),
        ({"version": "1.0\x07"}, "version", "control character"),
        ({"success_rate": 3}, "success_rate", "less than or equal to 1"),
        ({"success_rate": -0.1}, "success_rate", "greater than or equal to 0"),
        ({"entity_type": "robot"}, "entity_type", "'agent'"),
        ({"status": "gone"}, "status", "'retired'"),
        ({"execution": "edge"}, "execution", "'hybrid'"),
        ({"relations": [{"type": "replaces", "target": "X"}]}, "relations.0.type", "successor_to"),
        (
            {"relations": [{"type": "depends_on", "target": "!!!"}]},
            "relations.0.target",
            "not a valid",
        ),
        ({"usage_count": -1}, "usage_count", "greater than or equal to 0"),
        ({"latency_ms": "fast"}, "latency_ms", "number"),
        ({"colour": "red"}, "colour", "unknown field"),
        ({"name": "bad\x07bell"}, "name", "control character"),
        ({"input_type": "List[PDF"}, "input_type", "not a type name"),
        ({"keywords": [""]}, "keywords", "empty string"),
        ({"last_used": "yesterday"}, "last_used", "datetime"),
    ],
)
def test_bad_values_name_the_field(data: dict[str, object], field: str, fragment: str) -> None:
    with pytest.raises(ValidationError) as info:
        CatalogEntry.parse({"id": "X", "name": "X", **data}, source="cat.jsonl", line=7)
    err = info.value
    assert err.fields[0] == field
    assert fragment in str(err)
    assert str(err).startswith("cat.jsonl:7: entry 'X': invalid " + field)


def test_missing_required_fields() -> None:
    with pytest.raises(ValidationError) as info:
        CatalogEntry.parse({"description": "no id"})
    assert set(info.value.fields) == {"id", "name"}
    assert "is required" in str(info.value)


def test_direct_construction_raises_our_error_not_pydantics() -> None:
    with pytest.raises(ValidationError, match="success_rate"):
        CatalogEntry(id="X", name="X", success_rate=2)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="type"):
        Relation(type="bogus", target="Y")  # type: ignore[arg-type]


def test_non_object_record() -> None:
    with pytest.raises(ValidationError, match="expected an object, got list"):
        CatalogEntry.parse([1, 2], source="f.jsonl", line=3)


def test_description_limit_and_control_characters() -> None:
    with pytest.raises(ValidationError, match="description"):
        make_entry("X", description="x" * 10_000_000)
    assert make_entry("X", description="line one\nline two\ttab").description.count("\n") == 1
    with pytest.raises(ValidationError, match="control character"):
        make_entry("X", description="nul\x00byte")


def test_keyword_count_limit() -> None:
    with pytest.raises(ValidationError, match="keywords"):
        make_entry("X", keywords=[f"k{i}" for i in range(100_000)])


def test_type_declarations() -> None:
    decl = TypeDecl.parse({"type": "FinancialPDF", "subtype_of": ["PDF", "PDF"]})
    assert decl.subtype_of == ("PDF",)
    assert TypeDecl.parse({"type": "List", "params": 1}).params == 1
    with pytest.raises(ValidationError, match="built-in top type"):
        TypeDecl.parse({"type": "Any"})
    with pytest.raises(ValidationError, match="type"):
        TypeDecl.parse({"type": "List[PDF]"})
    with pytest.raises(ValidationError, match="params"):
        TypeDecl.parse({"type": "X", "params": -1})


def test_naive_timestamps_are_utc() -> None:
    entry = make_entry("X", last_used="2026-01-01T00:00:00")
    assert entry.last_used is not None and entry.last_used.utcoffset() is not None


def test_stored_text_reads_a_record_and_refuses_what_to_record_never_writes() -> None:
    from lgent.catalog.records import decode_text
    from lgent.errors import CatalogCorruptError
    from lgent.models import StoredText

    entry = CatalogEntry.parse(
        {"id": "A", "name": "A", "keywords": ["x"], "execution": "cloud", "author": "Me"}
    )
    text = StoredText.of(entry.to_record())
    assert {f: getattr(text, f) for f in text._fields} == {
        f: getattr(entry, f) for f in text._fields
    }
    for junk in (
        "not json",
        "[1, 2]",
        '{"name": "no id"}',
        '{"id": "A", "name": 3}',
        '{"id": "A", "name": "A", "keywords": "x"}',
        '{"id": "A", "name": "A", "keywords": [1]}',
        '{"id": "A", "name": "A", "status": "lost"}',
        '{"id": "A", "name": "A", "author": ["x"]}',
    ):
        with pytest.raises(CatalogCorruptError, match="stored entry is unreadable"):
            decode_text(junk)


def test_search_filters_take_one_value_or_many_in_any_case() -> None:
    one = SearchFilters(status="Active", entity_type="AGENT", author="ToolForge")
    assert one == SearchFilters(
        status=(Status.ACTIVE,), entity_type=(EntityType.AGENT,), author=("ToolForge",)
    )
    with pytest.raises(ValidationError, match=r"invalid status\.0"):
        SearchFilters(status="zombie")
    for blank in ("", ("ToolForge", "  ")):
        with pytest.raises(
            ValidationError, match=r"invalid author: .*an author filter needs a name"
        ):
            SearchFilters(author=blank)


@pytest.mark.parametrize(
    ("field", "value"), [("success_rate", float("nan")), ("latency_ms", float("inf"))]
)
def test_measurements_must_be_finite(field: str, value: float) -> None:
    with pytest.raises(ValidationError, match=f"invalid {field}: Input should be a finite number"):
        CatalogEntry.parse({"id": "a", "name": "a", field: value})
