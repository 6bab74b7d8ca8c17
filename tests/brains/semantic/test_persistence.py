"""The semantic index on disk: manifest, reopening, model mismatch, crash leftovers, sync."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lgent.brains.base import ChangeSet
from lgent.brains.semantic.brain import SemanticBrain
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.brains.semantic.settings import SemanticSettings
from lgent.catalog.store import CatalogStore
from lgent.errors import BuildStoppedError
from lgent.runtime.indexing import sync
from tests.brains.semantic.conftest import CATALOG, entry

SETTINGS = SemanticSettings(threshold=-1)


def built(path: Path, embedder: HashingEmbedder | None = None) -> SemanticBrain:
    brain = SemanticBrain(path, SETTINGS, embedder or HashingEmbedder(64))
    brain.build(CATALOG, [], 4)
    return brain


def test_manifest_names_change_model_dimension_and_generation(tmp_path: Path) -> None:
    built(tmp_path).close()
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    generation = manifest.pop("generation")
    checksums = manifest.pop("checksums")
    assert manifest.pop("manifest_checksum").startswith("crc32:")
    assert manifest == {
        "change_number": 4,
        "model": "hashing:64d",
        "dimensions": 64,
        "text_mode": "plain",
        "entry_tokens": SETTINGS.entry_tokens,
        "kind": "flat",
        "count": len(CATALOG),
        "format_version": 4,
    }
    names = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("embeddings"))
    files = [f"entries-{generation}.json", f"ids-{generation}.json", f"vectors-{generation}.faiss"]
    assert names == sorted([*files, "manifest.json"])
    assert sorted(checksums) == sorted(files)
    for name in files:
        size = (tmp_path / name).stat().st_size
        assert checksums[name].startswith("crc32:") and checksums[name].endswith(f":{size}")


def test_reopening_embeds_nothing_and_answers_the_same(tmp_path: Path) -> None:
    first = built(tmp_path)
    expected = [(h.id, round(h.score, 5)) for h in first.search("parse pdf", limit=5)]
    first.close()
    again = SemanticBrain(tmp_path, SETTINGS, HashingEmbedder(64))
    assert again.change_number == 4 and again.status().documents == len(CATALOG)
    assert again.counters.embed_calls == 0
    assert [(h.id, round(h.score, 5)) for h in again.search("parse pdf", limit=5)] == expected
    assert again.counters.texts_embedded == 0
    assert again.find_similar("pdf-parser-v2")[0].id == "pdf-reader"


def test_changes_after_reopening_keep_only_the_latest_files(tmp_path: Path) -> None:
    built(tmp_path).close()
    again = SemanticBrain(tmp_path, SETTINGS, HashingEmbedder(64))
    again.apply_changes(ChangeSet([entry("new", description="Brand new thing.")], [], None, 5))
    assert len(list(tmp_path.glob("vectors-*.faiss"))) == 1
    assert again.counters.texts_embedded == 1
    again.close()
    assert SemanticBrain(tmp_path, SETTINGS, HashingEmbedder(64)).status().documents == 9


def test_another_model_forces_a_rebuild_never_a_mix(tmp_path: Path) -> None:
    built(tmp_path).close()
    other = SemanticBrain(tmp_path, SETTINGS, HashingEmbedder(32))
    assert other.change_number == -1
    assert "model 'hashing:64d' (now 'hashing:32d')" in other.status().detail
    other.build(CATALOG, [], 4)
    assert other.counters.texts_embedded == len(CATALOG)
    assert SemanticBrain(tmp_path, SETTINGS, HashingEmbedder(32)).change_number == 4


def test_another_text_mode_forces_a_rebuild(tmp_path: Path) -> None:
    built(tmp_path).close()
    weighted = SemanticBrain(tmp_path, SemanticSettings(text_mode="weighted"), HashingEmbedder(64))
    assert weighted.change_number == -1 and "text mode 'plain'" in weighted.status().detail


def test_a_rebuild_reuses_the_embedding_cache(tmp_path: Path) -> None:
    built(tmp_path).close()
    (tmp_path / "manifest.json").unlink()
    again = SemanticBrain(tmp_path, SETTINGS, HashingEmbedder(64))
    assert again.change_number == -1 and "no usable manifest" in again.status().detail
    again.build(CATALOG, [], 4)
    assert again.counters.texts_embedded == 0
    assert again.counters.entry_cache_hits == len(CATALOG)


def test_unreadable_index_files_leave_the_brain_unbuilt(tmp_path: Path) -> None:
    built(tmp_path).close()
    faiss_file = next(tmp_path.glob("vectors-*.faiss"))
    faiss_file.write_bytes(b"torn write")
    again = SemanticBrain(tmp_path, SETTINGS, HashingEmbedder(64))
    assert again.change_number == -1
    detail = again.status().detail
    assert "damaged, it will be rebuilt" in detail and faiss_file.name in detail


def test_files_of_an_unfinished_save_are_ignored(tmp_path: Path) -> None:
    built(tmp_path).close()
    for path in list(tmp_path.glob("*-*.json")) + list(tmp_path.glob("vectors-*.faiss")):
        stem, _, rest = path.name.partition("-")
        (tmp_path / f"{stem}-unfinished{rest[rest.index('.') :]}").write_bytes(b"partial")
    again = SemanticBrain(tmp_path, SETTINGS, HashingEmbedder(64))
    assert again.change_number == 4 and again.status().documents == len(CATALOG)


@pytest.mark.parametrize("rebuild", [False, True])
def test_sync_with_a_catalog_reopens_for_free_and_re_embeds_one_change(
    tmp_path: Path, rebuild: bool
) -> None:
    store = CatalogStore(tmp_path / "catalog.db")
    store.register_batch(CATALOG)
    brain = SemanticBrain(tmp_path / "semantic", SETTINGS, HashingEmbedder(64))
    assert sync(brain, store).action == "rebuilt"
    assert brain.counters.texts_embedded == len(CATALOG)
    brain.close()

    reopened = SemanticBrain(tmp_path / "semantic", SETTINGS, HashingEmbedder(64))
    assert sync(reopened, store, rebuild=rebuild).action == ("rebuilt" if rebuild else "current")
    assert reopened.counters.texts_embedded == 0 and reopened.counters.embed_calls == 0

    store.register(entry("translator", description="Translates legal contracts."))
    assert sync(reopened, store).action == "caught_up"
    assert reopened.counters.texts_embedded == 1
    assert reopened.search("legal contracts", limit=1)[0].id == "translator"
    reopened.close()
    store.close()


def test_a_large_index_saves_at_checkpoints_and_a_crash_loses_no_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lgent.brains.semantic.brain as semantic

    monkeypatch.setattr(semantic, "SAVE_EVERY_CHANGE_BELOW", 0)  # treat the catalog as large
    monkeypatch.setattr(semantic, "CHECKPOINT_SHARE", 0.5)  # save once half of it changed
    path = tmp_path / "semantic"

    def on_disk() -> int:
        return int(json.loads((path / "manifest.json").read_text())["change_number"])

    with CatalogStore(tmp_path / "catalog.db") as store:
        store.register_batch(CATALOG, [])
        brain = SemanticBrain(path, SETTINGS, HashingEmbedder(64))
        sync(brain, store)
        built_at = store.change_number()
        assert on_disk() == built_at  # a build is always saved

        store.register_batch([entry("fresh-one", description="new")], [])
        assert sync(brain, store).action == "caught_up"
        assert brain.change_number == store.change_number() and on_disk() == built_at
        assert brain.status().extra["unsaved_changes"] == 1
        assert "fresh-one" in {h.id for h in brain.search("new", limit=10)}

        # a crash now (no close): the next opener finds the older files and catches up from
        # the change log, reading the new vector back from the embedding cache
        reopened = SemanticBrain(path, SETTINGS, HashingEmbedder(64))
        assert reopened.change_number == built_at
        assert sync(reopened, store).action == "caught_up"
        assert reopened.counters.texts_embedded == 0
        assert "fresh-one" in {h.id for h in reopened.search("new", limit=10)}

        more = [entry(f"more-{i}", description=f"more {i}") for i in range(len(CATALOG))]
        store.register_batch(more, [])
        sync(brain, store)  # past the checkpoint share: saved
        assert on_disk() == store.change_number()
        assert "unsaved_changes" not in brain.status().extra
        store.remove("fresh-one")
        sync(brain, store)
        assert on_disk() == store.change_number() - 1
        brain.close()  # close saves what is left
        assert on_disk() == store.change_number()


def test_an_instance_replaced_by_a_newer_save_does_not_write_over_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lgent.brains.semantic.brain as semantic

    monkeypatch.setattr(semantic, "SAVE_EVERY_CHANGE_BELOW", 0)
    monkeypatch.setattr(semantic, "CHECKPOINT_SHARE", 0.9)
    path = tmp_path / "semantic"
    with CatalogStore(tmp_path / "catalog.db") as store:
        store.register_batch(CATALOG, [])
        old = SemanticBrain(path, SETTINGS, HashingEmbedder(64))
        sync(old, store)
        store.register_batch([entry("late", description="late entry")], [])
        sync(old, store)
        assert old.status().extra["unsaved_changes"] == 1
        # a rebuild beside it (the brain pool's swap) saves a newer state first
        store.register_batch([entry("later", description="later entry")], [])
        new = SemanticBrain(path, SETTINGS, HashingEmbedder(64), fresh=True)
        sync(new, store)
        saved = json.loads((path / "manifest.json").read_text())
        old.close()  # its unsaved, older state must not replace the newer save
        assert json.loads((path / "manifest.json").read_text()) == saved
        reopened = SemanticBrain(path, SETTINGS, HashingEmbedder(64))
        assert reopened.change_number == store.change_number()
        assert {"late", "later"} <= set(reopened._vectors.ids())
        new.close()


def test_a_stopped_rebuild_leaves_the_saved_index_served(tmp_path: Path) -> None:
    built(tmp_path).close()
    fresh = SemanticBrain(
        tmp_path, SETTINGS, HashingEmbedder(64), fresh=True, cancelled=lambda: True
    )
    with pytest.raises(BuildStoppedError):  # texts not in the cache: the build asks, and stops
        fresh.build([entry(f"new{i}", description=f"new text {i}") for i in range(3)], [], 9)
    fresh.close()
    again = SemanticBrain(tmp_path, SETTINGS, HashingEmbedder(64))
    assert (again.change_number, again.status().documents, again.detail) == (4, len(CATALOG), "")
