"""The graph brain's snapshot: a brain opened from it equals the brain that wrote it (inferred
kinds and ports included); a damaged or foreign snapshot is never served; a read-only brain
writes nothing; changes are saved at close unless a newer snapshot is on disk; and a home
opens its graph without reading a catalog entry."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lgent import LGent
from lgent.brains import integrity
from lgent.brains.base import ChangeSet
from lgent.brains.graph import store as graph_store
from lgent.brains.graph.brain import GraphBrain
from lgent.brains.graph.store import MANIFEST, GraphStore
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.graph import image as graph_image
from lgent.graph import model as graph_model
from lgent.graph.deferred import expanded
from lgent.graph.signatures import PathSearch
from lgent.models import CatalogEntry
from tests.brains.graph.test_brain_incremental import TYPES, change, entries, snapshot
from tests.examples import examples
from tests.graph.test_kind_ports import GEOCODE, JSON, TRANSCRIPT, VOCABULARY, WEATHER, WRITE

KIND_TOOLS = [GEOCODE, WEATHER, TRANSCRIPT, WRITE]
KIND_TYPES = [*JSON, *VOCABULARY.declarations()]


def built(folder: Path | None, catalog: list[CatalogEntry], number: int = 1) -> GraphBrain:
    brain = GraphBrain(folder)
    brain.build(catalog, TYPES, number)
    return brain


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(entries(), max_size=8, unique_by=lambda e: e.id),
    st.lists(change, max_size=4),
)
def test_a_reopened_brain_equals_the_one_that_saved(
    catalog: list[CatalogEntry], changes: list[tuple[str, Any]]
) -> None:
    """Also after changes applied to both (the reopened one rebuilds its caches lazily)."""
    with tempfile.TemporaryDirectory() as folder:
        saved = built(Path(folder), catalog, 7)
        reopened = GraphBrain(Path(folder))
        assert reopened.change_number == 7
        assert snapshot(reopened) == snapshot(saved)
        for number, (kind, value) in enumerate(changes, start=8):
            upserts, removals = ([value], []) if kind == "upsert" else ([], [value])
            change_set = (
                ChangeSet([], [], value, number)
                if kind == "types"
                else ChangeSet(upserts, removals, None, number)
            )
            saved.apply_changes(change_set)
            reopened.apply_changes(change_set)
        assert snapshot(reopened) == snapshot(saved)


def test_inferred_ports_survive_the_snapshot(tmp_path: Path) -> None:
    brain = GraphBrain(tmp_path)
    brain.build(KIND_TOOLS, KIND_TYPES, 3)
    reopened = GraphBrain(tmp_path)
    search = PathSearch("PostalAddress", "WeatherReport", 3, 5)
    found = reopened.graph.find_paths(search)
    assert [p.ids for p in found][:1] == [("osm/geocode_address", "weather/get_weather")]
    assert found == brain.graph.find_paths(search)
    assert reopened.graph.declarations() == brain.graph.declarations()


def test_a_reopened_graph_reads_its_type_links_from_the_image(tmp_path: Path) -> None:
    """The links between types (which output types each input type accepts) come back with the
    image: a path question on the reopened graph derives no accept matrix, and answers as the
    graph that saved it; a type added afterwards is linked as in a graph never saved."""
    brain = GraphBrain(tmp_path)
    brain.build(KIND_TOOLS, KIND_TYPES, 3)
    search = PathSearch("PostalAddress", "WeatherReport", 3, 5)
    expected = brain.graph.find_paths(search)
    reopened = GraphBrain(tmp_path)
    composition = reopened.graph._composition  # its derived tables, privately
    assert reopened.graph.find_paths(search) == expected
    assert composition._accept is None
    new_type = CatalogEntry.parse(
        {**GEOCODE.to_record(), "id": "osm/geocode_text", "output_type": "Text"}
    )
    for graph_brain in (brain, reopened):
        graph_brain.apply_changes(ChangeSet([new_type], [], None, 4))
    assert _type_answers(reopened) == _type_answers(brain)


def test_tables_a_question_does_not_read_stay_unread_and_save_whole(tmp_path: Path) -> None:
    """A reopened graph unpickles its facts, declarations and name index only when first
    read; saved again with the name index unread, it writes that back as it came, and a graph
    reopened from that image equals the first."""
    brain = GraphBrain(tmp_path / "first")
    brain.build(KIND_TOOLS, KIND_TYPES, 3)
    reopened = GraphBrain(tmp_path / "first")
    search = PathSearch("PostalAddress", "WeatherReport", 3, 5)
    assert reopened.graph.find_paths(search) == brain.graph.find_paths(search)
    unread = vars(reopened.graph)  # which tables it has read, privately
    assert not {"_facts", "_declarations", "_names"} & set(unread)
    kept = unread["_deferred"]["_facts"]  # kept compressed until read
    assert len(kept) < len(expanded(kept)) and expanded(kept).startswith(b"\x80")  # a pickle
    GraphStore(tmp_path / "second").save(reopened.graph)
    assert "_names" not in unread
    again = GraphBrain(tmp_path / "second")
    assert again.graph.facts() == brain.graph.facts()
    assert again.graph.declarations() == brain.graph.declarations()
    assert snapshot_of_kinds(again) == snapshot_of_kinds(brain)
    assert [again.artifact_id(q) for q in ("geocode_address", "osm/geocode_address")] == [
        brain.artifact_id(q) for q in ("geocode_address", "osm/geocode_address")
    ]


def snapshot_of_kinds(brain: GraphBrain) -> list[object]:
    return [*_type_answers(brain), sorted(brain.graph._info.items())]


def _type_answers(brain: GraphBrain) -> list[object]:
    graph = brain.graph
    searches = [
        PathSearch(a, b, 3, 5) for a in ("PostalAddress", "Text") for b in ("WeatherReport", "Text")
    ]
    return [
        *(graph.find_paths(search) for search in searches),
        *(
            graph.find_compatible(artifact, direction, include_unusable=True)
            for artifact in sorted(graph._info)
            for direction in ("downstream", "upstream")
        ),
    ]


def test_a_damaged_snapshot_is_not_served(tmp_path: Path) -> None:
    built(tmp_path, [KIND_TOOLS[0]])
    manifest = GraphStore(tmp_path).manifest()
    assert manifest is not None
    data = tmp_path / manifest["facts"]
    data.write_bytes(data.read_bytes().replace(b"geocode", b"geoc0de"))
    reopened = GraphBrain(tmp_path)
    assert reopened.change_number == -1
    assert "damaged" in reopened.status().detail and data.name in reopened.status().detail


def test_an_image_of_other_code_is_not_read_but_the_facts_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an upgrade the graph is built from the facts (no catalog entry read) and an image
    the new code reads is written at close."""
    saved = GraphBrain(tmp_path)
    saved.build(KIND_TOOLS, [*TYPES, *KIND_TYPES], 3)
    path = tmp_path / MANIFEST
    manifest = json.loads(path.read_text())
    manifest["image_code"] = "written-by-older-code"
    path.write_text(json.dumps(integrity.sealed(manifest)))
    monkeypatch.setattr(graph_image, "graph_from", _refuse_image)
    monkeypatch.setattr(graph_store, "graph_from", _refuse_image)
    reopened = GraphBrain(tmp_path)
    assert reopened.change_number == 3 and snapshot(reopened) == snapshot(saved)
    reopened.close()
    rewritten = GraphStore(tmp_path).manifest()
    assert rewritten is not None and rewritten["image_code"] == graph_image.code_fingerprint()
    monkeypatch.undo()
    assert snapshot(GraphBrain(tmp_path)) == snapshot(saved)


def _refuse_image(image: bytes) -> None:
    raise AssertionError("an image of other code was read")


def test_a_snapshot_of_another_format_is_not_served(tmp_path: Path) -> None:
    built(tmp_path, [KIND_TOOLS[0]])
    path = tmp_path / MANIFEST
    path.write_text(path.read_text().replace('"facts_format": 1', '"facts_format": 99'))
    reopened = GraphBrain(tmp_path)
    assert reopened.change_number == -1
    assert "format" in reopened.detail


def test_a_read_only_brain_reads_the_snapshot_and_writes_nothing(tmp_path: Path) -> None:
    built(tmp_path, [KIND_TOOLS[0]], 1)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    reader = GraphBrain(tmp_path, read_only=True)
    assert reader.change_number == 1
    reader.apply_changes(ChangeSet([KIND_TOOLS[1]], [], None, 2))
    reader.build(KIND_TOOLS, TYPES, 3)
    reader.close()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_changes_are_saved_at_close_unless_a_newer_snapshot_is_there(tmp_path: Path) -> None:
    brain = built(tmp_path, [KIND_TOOLS[0]], 1)
    brain.apply_changes(ChangeSet([KIND_TOOLS[1]], [], None, 2))  # not due yet: kept unsaved
    assert GraphBrain(tmp_path).change_number == 1
    brain.close()
    assert GraphBrain(tmp_path).change_number == 2
    older = built(tmp_path, [KIND_TOOLS[0]], 3)
    older.apply_changes(ChangeSet([KIND_TOOLS[2]], [], None, 4))
    built(tmp_path, KIND_TOOLS, 5)  # a rebuild beside it saved a later change
    older.close()
    reopened = GraphBrain(tmp_path)
    assert reopened.change_number == 5 and len(reopened.graph) == len(KIND_TOOLS)
    assert len(list(tmp_path.glob("graph-*.json"))) <= 3  # superseded snapshots are removed
    assert len(list(tmp_path.glob("graph-*.image"))) <= 3


def test_a_fresh_brain_does_not_read_the_snapshot(tmp_path: Path) -> None:
    built(tmp_path, [KIND_TOOLS[0]], 1)
    assert GraphBrain(tmp_path, fresh=True).change_number == -1


async def test_a_home_opens_its_graph_without_reading_an_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with LGent.open(tmp_path, embedder=HashingEmbedder(64)) as lg:
        await lg.register(GEOCODE)
        await lg.register(WEATHER)
        first = await lg.query("what can take osm/geocode_address's output")
    assert (tmp_path / "indexes" / "graph" / MANIFEST).exists()

    def refuse(entry: CatalogEntry) -> None:
        raise AssertionError(f"the graph read entry {entry.id} again")

    monkeypatch.setattr(graph_model, "facts_of", refuse)
    async with LGent.open(tmp_path, embedder=HashingEmbedder(64)) as lg:
        again = await lg.query("what can take osm/geocode_address's output")
    assert [r.id for r in again.results] == [r.id for r in first.results]
    assert "weather/get_weather" in [r.id for r in again.results]


class _Planted:
    """Unpickles as a call of ``os.system``: what a planted image would try."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        import os

        return os.system, ("touch planted-image-ran",)


def test_a_planted_image_cannot_run_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An image naming anything but the graph's own classes is refused, never run: the graph
    is rebuilt from the catalog and the status says why."""
    import pickle

    monkeypatch.chdir(tmp_path)
    built(tmp_path / "graph", [KIND_TOOLS[0]])
    manifest = GraphStore(tmp_path / "graph").manifest()
    assert manifest is not None
    image = tmp_path / "graph" / manifest["image"]
    image.write_bytes(pickle.dumps(_Planted()))
    manifest[integrity.CHECKSUMS] = integrity.checksums(
        tmp_path / "graph", [manifest["facts"], manifest["image"]]
    )
    (tmp_path / "graph" / MANIFEST).write_text(json.dumps(integrity.sealed(manifest)))
    reopened = GraphBrain(tmp_path / "graph")
    assert not (tmp_path / "planted-image-ran").exists()
    assert reopened.change_number == -1
    assert "posix.system is not a class of the graph" in reopened.detail, reopened.detail


async def test_the_example_catalogs_image_reads_back(tmp_path: Path) -> None:
    """Every value the example catalog puts in the graph's tables (times included) is one the
    image's unpickler resolves: the graph reopens from its image, with nothing to report."""
    from tests.conftest import FIXTURES

    async with LGent.open(tmp_path, embedder=HashingEmbedder(64)) as lg:
        await lg.load(FIXTURES)
        await lg.query("what can take NewsParser's output")
    reopened = GraphBrain(tmp_path / "indexes" / "graph", read_only=True)
    assert reopened.change_number > 0, reopened.detail
    assert reopened.detail == "", reopened.detail
