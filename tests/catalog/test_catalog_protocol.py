"""The catalog protocol's promises, run against every backend (``catalog`` fixture)."""

from __future__ import annotations

import pytest

from lgent.catalog.protocol import Catalog
from lgent.catalog.records import EntryFilter, Owner
from lgent.errors import NotFoundError, ValidationError
from lgent.models import TypeDecl
from tests.conftest import make_entry


def test_register_get_and_history(store: Catalog) -> None:
    store.register_batch([make_entry("Sum", version="1.0.0", description="old")])
    store.register_batch([make_entry("Sum", version="2.0.0", description="new")])
    store.register_batch([make_entry("Sum", version="1.5.0", description="middle")])
    assert store.get("Sum").version == "2.0.0"  # latest by semver, not by arrival
    assert store.get("Sum", "1.0.0").description == "old"
    assert store.versions("Sum") == ["1.0.0", "1.5.0", "2.0.0"]
    assert store.count() == 1


def test_one_batch_of_several_versions_of_a_new_id_has_one_latest(store: Catalog) -> None:
    store.register_batch(
        [make_entry("Sum", version=v, description=v) for v in ("1.0.0", "2.0.0", "1.5.0")]
        + [make_entry("Other", version="0.1.0")]
    )
    assert store.get("Sum").description == "2.0.0"
    assert store.count() == 2
    assert [e.id for e in store.list_entries()] == ["Other", "Sum"]
    assert all(f.level == "ok" for f in store.check())


def test_same_version_new_content_replaces(store: Catalog) -> None:
    store.register_batch([make_entry("A", version="1.0.0", description="first")])
    result = store.register_batch([make_entry("A", version="1.0.0", description="second")])
    assert result.updated == ["A"]
    assert store.get("A").description == "second"
    assert store.versions("A") == ["1.0.0"]


def test_identical_content_records_no_change(store: Catalog) -> None:
    store.register_batch([make_entry("A")])
    before = store.change_number()
    result = store.register_batch([make_entry("A")])
    assert result.unchanged == ["A"]
    assert store.change_number() == before


def test_missing_ids(store: Catalog) -> None:
    with pytest.raises(NotFoundError, match="no artifact with id 'nope'"):
        store.get("nope")
    store.register_batch([make_entry("A", version="1.0.0")])
    with pytest.raises(NotFoundError, match=r"at version 9\.9\.9"):
        store.get("A", "9.9.9")
    with pytest.raises(NotFoundError):
        store.remove("nope")


def test_remove_all_versions_or_one(store: Catalog) -> None:
    store.register_batch([make_entry("A", version="1.0.0"), make_entry("A", version="2.0.0")])
    assert store.remove("A", "2.0.0") == 1
    assert store.get("A").version == "1.0.0"  # the older version becomes latest again
    assert store.remove("A") == 1
    assert not store.exists("A")


def test_list_filters(store: Catalog) -> None:
    store.register_batch(
        [
            make_entry("A", entity_type="agent", status="active", author="ann", input_type="PDF"),
            make_entry(
                "B", entity_type="tool", status="deprecated", author="bob", output_type="Text"
            ),
            make_entry("C", entity_type="agent", status="deprecated", author="ann"),
        ]
    )
    ids = lambda f: [e.id for e in store.list_entries(f)]  # noqa: E731
    assert ids(EntryFilter(entity_type="agent")) == ["A", "C"]
    assert ids(EntryFilter(status="deprecated", author="ann")) == ["C"]
    assert ids(EntryFilter(input_type="PDF")) == ["A"]
    assert ids(EntryFilter(output_type="Text")) == ["B"]
    assert [e.id for e in store.list_entries(limit=1, offset=1)] == ["B"]
    assert store.count(EntryFilter(status="deprecated")) == 2


def test_tag_and_source_filters_and_facts_agree(store: Catalog) -> None:
    store.register_batch(
        [
            make_entry("team/A", keywords=["pdf", "ocr"], status="draft"),
            make_entry("team/B", keywords=["pdf"], author="bob"),
        ],
        owners={"team/A": Owner("writer", "alice"), "team/B": Owner("file", "/c/team.jsonl")},
    )
    store.register_batch([make_entry("C", input_type="PDF")])
    ids = lambda f: [e.id for e in store.list_entries(f)]  # noqa: E731
    assert ids(EntryFilter(tag="pdf")) == ["team/A", "team/B"]
    assert ids(EntryFilter(tag="ocr", status="draft")) == ["team/A"]
    assert ids(EntryFilter(source="writer:alice")) == ["team/A"]
    assert ids(EntryFilter(source="file:/c/team.jsonl", tag="pdf")) == ["team/B"]
    assert store.count(EntryFilter(source="writer:")) == 1  # C: a writer with no name
    facts = {f.id: f for f in store.facts()}
    assert list(facts) == ["C", "team/A", "team/B"]
    a = facts["team/A"]
    assert (a.tags, a.status, a.source, a.namespace) == (
        ("pdf", "ocr"),
        "draft",
        "writer:alice",
        "team",
    )
    assert facts["C"].input_type == "PDF" and facts["C"].namespace == "C"
    for chosen in (EntryFilter(tag="pdf"), EntryFilter(source="writer:alice"), EntryFilter()):
        assert [f.id for f in facts.values() if chosen.admits(f)] == ids(chosen)


def test_each_change_names_its_writer_and_an_artifacts_history_shows_promotion(
    store: Catalog,
) -> None:
    store.register_batch([make_entry("A", status="draft")], writer="alice")
    store.register_batch([make_entry("A", status="active")], writer="bob")
    store.register_batch([make_entry("B")])
    store.remove("B", writer="carol")
    history = store.history("A")
    assert [(c.op, c.version, c.status, c.writer) for c in history] == [
        ("upsert", "0.1.0", "draft", "alice"),
        ("upsert", "0.1.0", "active", "bob"),
    ]
    assert all(c.at for c in history)
    assert [(c.op, c.writer) for c in store.history("B")] == [("upsert", None), ("remove", "carol")]
    assert [c.writer for c in store.changes_since(0)] == ["alice", "bob", None, "carol"]
    assert all(f.level == "ok" for f in store.check())


def test_change_log(store: Catalog) -> None:
    assert store.change_number() == 0
    store.register_batch([make_entry("A"), make_entry("B")], [TypeDecl(type="PDF")])
    n = store.change_number()
    store.register_batch([make_entry("A", description="changed")])
    store.remove("B")
    changes = store.changes_since(n)
    assert [(c.kind, c.op, c.key) for c in changes] == [
        ("entry", "upsert", "A"),
        ("entry", "remove", "B"),
    ]
    assert [c.seq for c in changes] == [n + 1, n + 2]
    assert store.changes_since(store.change_number()) == []
    kinds = {(c.kind, c.key) for c in store.changes_since(0)}
    assert ("type", "PDF") in kinds


def test_batch_is_atomic(store: Catalog) -> None:
    store.register_batch([make_entry("Keep")])
    before = (store.count(), store.change_number())

    def bad_batch():  # the third entry fails validation while the batch is being built
        yield make_entry("A")
        yield make_entry("B")
        yield make_entry("C", success_rate=7)

    with pytest.raises(ValidationError):
        store.register_batch(bad_batch())
    assert (store.count(), store.change_number()) == before
    assert not store.exists("A")


def test_types_round_trip(store: Catalog) -> None:
    store.register_batch(
        [], [TypeDecl(type="Document"), TypeDecl(type="PDF", subtype_of=("Document",))]
    )
    assert [t.type for t in store.types()] == ["Document", "PDF"]
    store.remove_type("PDF")
    assert [t.type for t in store.types()] == ["Document"]


def test_stats(store: Catalog) -> None:
    store.register_batch(
        [
            make_entry("A", entity_type="agent", relations=[{"type": "depends_on", "target": "B"}]),
            make_entry("B", version="1.0.0"),
            make_entry("B", version="1.1.0"),
        ],
        [TypeDecl(type="PDF")],
    )
    stats = store.stats()
    assert stats["artifacts"] == 2 and stats["versions"] == 3
    assert stats["types"] == 1 and stats["relations"] == 1
    assert stats["by_entity_type"] == {"agent": 1, "tool": 1}


def test_snapshot_reads_together_and_decodes_on_demand(store: Catalog) -> None:
    store.register_batch(
        [make_entry("A", version="1.0.0"), make_entry("B", status="deprecated")], []
    )
    store.register_batch([make_entry("A", version="2.0.0", description="newer")], [])
    snap = store.snapshot(["A", "B", "missing"])
    assert snap.change_number == store.change_number()
    assert "missing" not in snap and len(snap) == 2
    assert snap.status("B").value == "deprecated"
    assert snap._entries == {}  # a status needs no decoding
    assert snap.entry("A").version == "2.0.0" and snap.entry("A") is snap.entry("A")
    with pytest.raises(KeyError):
        snap.entry("missing")
    store.remove("A")
    assert "A" in snap and "A" not in store.snapshot(["A"])  # a snapshot keeps its moment


def test_snapshot_text_holds_the_entry_fields_explanations_read(store: Catalog) -> None:
    full = make_entry(
        "PDFParser_v2",
        name="PDF Parser",
        entity_type="agent",
        version="2.1.0",
        description="Extracts text.",
        keywords=["pdf", "ocr"],
        author="ToolForge",
        status="deprecated",
        input_type="List[PDF]",
        output_type="Text",
        execution="local",
        success_rate=0.9,
    )
    store.register_batch([full, make_entry("Bare")], [])
    snap = store.snapshot(["PDFParser_v2", "Bare"])
    for artifact_id in ("PDFParser_v2", "Bare"):
        text, entry = snap.text(artifact_id), snap.entry(artifact_id)
        assert {f: getattr(text, f) for f in text._fields} == {
            f: getattr(entry, f) for f in text._fields
        }


def test_backend_implements_the_protocol_and_checks_clean(store: Catalog) -> None:
    assert isinstance(store, Catalog)
    assert store.location
    store.register_batch([make_entry("A")])
    assert [f.level for f in store.check()] == ["ok"]


def test_changes_since_never_skips_and_follows_commit_order(store: Catalog) -> None:
    """Every committed change appears once, oldest first, with no hole in the numbers."""
    seen: list[int] = []
    for n in range(6):
        store.register_batch([make_entry(f"A{n}"), make_entry(f"B{n}")])
        if n % 2:
            store.remove(f"A{n - 1}")
        tail = store.changes_since(seen[-1] if seen else 0)
        seen.extend(c.seq for c in tail)
        assert seen[-1] == store.change_number()
    assert seen == list(range(1, len(seen) + 1))
    assert [c.seq for c in store.changes_since(0)] == seen
    assert [c.key for c in store.changes_since(4)][:1] == [store.changes_since(0)[4].key]


def test_parts_of_reads_latest_versions_of_any_status(store: Catalog) -> None:
    part = [{"type": "part_of", "target": "Server"}]
    store.register_batch(
        [
            make_entry("Server"),
            make_entry("ToolB", relations=part, status="deprecated"),
            make_entry("ToolA", relations=part),
            make_entry("Moved", version="1.0.0", relations=part),
            make_entry("Moved", version="2.0.0"),  # its latest version left the server
        ]
    )
    assert store.parts_of(["Server", "Lonely"]) == {"Server": ["ToolA", "ToolB"], "Lonely": []}
    assert store.parts_of([]) == {}
