"""The faiss vector index: flat and HNSW, stable ids, updates, tombstones, persistence, recall."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lgent.brains.semantic.embedders import normalize_rows
from lgent.brains.semantic.vectors import (
    HnswParams,
    Manifest,
    VectorIndex,
    read_manifest,
    write_manifest,
)
from lgent.errors import IndexCorruptError, IndexError_

DIM = 16


def params(threshold: int = 1_000, ef_search: int = 64) -> HnswParams:
    return HnswParams(threshold=threshold, m=16, ef_construction=80, ef_search=ef_search)


def random_vectors(n: int, dim: int = DIM, seed: int = 0) -> np.ndarray:
    return normalize_rows(np.random.default_rng(seed).standard_normal((n, dim)))


@pytest.fixture(params=["flat", "hnsw"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def kind_of(index: VectorIndex) -> str:
    return index.kind  # not narrowed by mypy across mutations, unlike the attribute


def make_index(kind: str, n: int = 50) -> tuple[VectorIndex, np.ndarray]:
    index = VectorIndex(DIM, params(threshold=1 if kind == "hnsw" else 1_000))
    vectors = random_vectors(n)
    index.replace_all([f"a{i}" for i in range(n)], vectors)
    assert index.kind == kind
    return index, vectors


def test_search_finds_each_vector_first(kind: str) -> None:
    index, vectors = make_index(kind)
    for i in (0, 17, 49):
        (top, score), *_ = index.search(vectors[i], 3)
        assert top == f"a{i}" and score == pytest.approx(1.0, abs=1e-5)
    results = index.search(vectors[3], 10)
    assert len(results) == 10
    assert [s for _, s in results] == sorted((s for _, s in results), reverse=True)


def test_upsert_replaces_and_adds(kind: str) -> None:
    index, vectors = make_index(kind)
    new = random_vectors(2, seed=9)
    index.upsert(["a5", "fresh"], new)
    assert len(index) == 51 and "fresh" in index
    assert index.search(new[0], 1)[0][0] == "a5"
    assert index.search(vectors[5], 50)[0][0] != "a5"  # the old vector is gone
    np.testing.assert_allclose(index.vector("a5"), new[0], rtol=1e-6)
    np.testing.assert_allclose(
        index.vectors(["fresh", "a5", "a7"]), [new[1], new[0], vectors[7]], rtol=1e-6
    )
    with pytest.raises(KeyError):
        index.vectors(["a5", "unknown"])


def test_remove_drops_ids_from_results(kind: str) -> None:
    index, vectors = make_index(kind)
    index.remove(["a1", "a2", "unknown"])
    assert len(index) == 48 and "a1" not in index
    ids = [i for i, _ in index.search(vectors[1], 48)]
    assert "a1" not in ids and "a2" not in ids and len(ids) == 48


def test_hnsw_tombstones_then_compacts_past_a_fifth() -> None:
    index, vectors = make_index("hnsw", 100)
    index.remove([f"a{i}" for i in range(15)])
    assert (index.tombstones, index.stored) == (15, 100)
    index.remove([f"a{i}" for i in range(15, 25)])
    assert (index.tombstones, index.stored) == (0, 75)  # rebuilt from the stored vectors
    assert index.search(vectors[30], 1)[0][0] == "a30"


def test_flat_grows_into_hnsw_at_the_threshold() -> None:
    index = VectorIndex(DIM, params(threshold=20))
    vectors = random_vectors(25)
    index.upsert([f"a{i}" for i in range(19)], vectors[:19])
    assert kind_of(index) == "flat"
    index.upsert(["a19"], vectors[19:20])
    assert kind_of(index) == "hnsw" and len(index) == 20
    assert index.search(vectors[7], 1)[0][0] == "a7"


def test_compaction_of_a_shrunk_hnsw_index_goes_back_to_flat() -> None:
    index = VectorIndex(DIM, params(threshold=20))
    index.replace_all([f"a{i}" for i in range(30)], random_vectors(30))
    assert kind_of(index) == "hnsw"
    index.remove([f"a{i}" for i in range(20)])
    assert kind_of(index) == "flat" and len(index) == 10 and index.tombstones == 0


def test_filtered_search_overfetches_and_scans_selective_subsets(kind: str) -> None:
    index, vectors = make_index(kind, 200)
    even = {f"a{i}" for i in range(0, 200, 2)}
    got = index.search(vectors[1], 10, allowed=even)
    assert len(got) == 10 and {i for i, _ in got} <= even
    exact = sorted(((float(vectors[int(i[1:])] @ vectors[1]), i) for i in even), reverse=True)
    assert [i for i, _ in got][:5] == [i for _, i in exact[:5]]
    few = {"a3", "a99", "gone"}
    assert {i for i, _ in index.search(vectors[3], 10, allowed=few)} == {"a3", "a99"}
    assert index.search(vectors[3], 10, allowed=set()) == []


def test_persistence_round_trip(kind: str, tmp_path: Path) -> None:
    index, vectors = make_index(kind)
    index.remove(["a0"])
    index.save(tmp_path, "g1")
    loaded = VectorIndex.load(tmp_path, DIM, params(), "g1")
    assert loaded.kind == kind and len(loaded) == 49 and "a0" not in loaded
    assert loaded.search(vectors[8], 1)[0][0] == "a8"
    loaded.upsert(["new"], random_vectors(1, seed=5))
    assert loaded.search(random_vectors(1, seed=5)[0], 1)[0][0] == "new"


def test_load_rejects_missing_or_mismatched_files(tmp_path: Path) -> None:
    index, _ = make_index("flat")
    index.save(tmp_path, "g1")
    with pytest.raises(IndexError_, match="cannot read"):
        VectorIndex.load(tmp_path, DIM, params(), "other")
    with pytest.raises(IndexError_, match="does not match"):
        VectorIndex.load(tmp_path, DIM + 1, params(), "g1")
    (tmp_path / "vectors-g1.faiss").write_bytes(b"garbage")
    with pytest.raises(IndexError_, match="cannot read the vector index"):
        VectorIndex.load(tmp_path, DIM, params(), "g1")


def test_shape_errors_are_index_errors() -> None:
    index = VectorIndex(DIM, params())
    with pytest.raises(IndexError_, match="shape"):
        index.upsert(["a"], random_vectors(1, dim=DIM + 1))
    with pytest.raises(IndexError_, match="distinct"):
        index.replace_all(["a", "a"], random_vectors(2))


def test_manifest_round_trip_and_unusable_manifests(tmp_path: Path) -> None:
    manifest = Manifest(
        change_number=7,
        model="m:4d",
        dimensions=4,
        text_mode="plain",
        entry_tokens=64,
        kind="hnsw",
        count=3,
        generation="g",
    )
    write_manifest(tmp_path, manifest)
    assert read_manifest(tmp_path) == manifest
    assert not list(tmp_path.glob(".*.tmp"))
    written = (tmp_path / "manifest.json").read_text()
    (tmp_path / "manifest.json").write_text(
        written.replace('"change_number": 7', '"change_number": 8')
    )
    with pytest.raises(IndexCorruptError, match="does not match its own checksum"):
        read_manifest(tmp_path)  # a flipped digit is caught by the manifest's own checksum
    (tmp_path / "manifest.json").write_text('{"format_version": 999}')
    assert read_manifest(tmp_path) is None  # another format: rebuilt, not an error
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(IndexCorruptError, match=r"manifest\.json: unreadable"):
        read_manifest(tmp_path)
    assert read_manifest(tmp_path / "absent") is None


def test_hnsw_recall_at_10_against_exact_search() -> None:
    n, dim = 5_000, 32
    data = random_vectors(n, dim, seed=1)
    queries = random_vectors(100, dim, seed=2)
    ids = [f"v{i}" for i in range(n)]
    hnsw = VectorIndex(dim, HnswParams(threshold=1, m=32, ef_construction=200, ef_search=128))
    hnsw.replace_all(ids, data)
    assert hnsw.kind == "hnsw"
    exact = np.argsort(-(queries @ data.T), axis=1)[:, :10]
    recall = np.mean(
        [
            len({f"v{j}" for j in exact[q]} & {i for i, _ in hnsw.search(queries[q], 10)}) / 10
            for q in range(len(queries))
        ]
    )
    assert recall >= 0.95
