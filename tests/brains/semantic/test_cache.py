"""The embedding cache: content-hash keys, hits and misses, persistence, pruning."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from lgent.brains.semantic.cache import EmbeddingCache, cache_key
from lgent.errors import IndexError_


@pytest.fixture(params=["memory", "disk"])
def cache_path(request: pytest.FixtureRequest, tmp_path: Path) -> Path | None:
    return None if request.param == "memory" else tmp_path / "idx" / "embeddings.sqlite"


def test_keys_depend_on_model_and_text() -> None:
    assert cache_key("m", "text") == cache_key("m", "text")
    assert cache_key("m", "text") != cache_key("other", "text")
    assert cache_key("m", "text") != cache_key("m", "text ")
    assert len(cache_key("m", "text")) == 64


def test_get_put_count_hits_and_misses(cache_path: Path | None) -> None:
    cache = EmbeddingCache(cache_path, 4)
    v = np.arange(4, dtype=np.float32)
    assert cache.get_many(["a", "b"]) == {}
    assert (cache.hits, cache.misses) == (0, 2)
    cache.put_many({"a": v})
    found = cache.get_many(["a", "b", "a"])
    assert list(found) == ["a"]
    np.testing.assert_array_equal(found["a"], v)
    assert (cache.hits, cache.misses) == (1, 3)
    assert len(cache) == 1
    cache.close()


def test_vectors_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite"
    cache = EmbeddingCache(path, 3)
    cache.put_many({f"k{i}": np.full(3, i, dtype=np.float32) for i in range(1200)})
    cache.close()
    again = EmbeddingCache(path, 3)
    found = again.get_many([f"k{i}" for i in range(1200)])
    assert len(found) == 1200 and found["k7"].tolist() == [7.0, 7.0, 7.0]
    again.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT length(vector) FROM embeddings LIMIT 1").fetchone() == (12,)
    db.close()  # float32 bytes, never pickled


def test_retain_prunes_unused_keys(cache_path: Path | None) -> None:
    cache = EmbeddingCache(cache_path, 2)
    cache.put_many({k: np.ones(2, dtype=np.float32) for k in "abcd"})
    assert cache.retain(["a", "c", "zz"]) == 2
    assert sorted(cache.get_many(list("abcd"))) == ["a", "c"]
    cache.close()


def test_wrong_sized_rows_are_misses(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite"
    first = EmbeddingCache(path, 2)
    first.put_many({"a": np.ones(2, dtype=np.float32)})
    first.close()
    other = EmbeddingCache(path, 3)
    assert other.get_many(["a"]) == {}
    other.close()


def test_an_unreadable_cache_file_is_recreated_and_noted(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    cache = EmbeddingCache(path, 2)
    assert "was unreadable" in cache.note and "recreated" in cache.note
    cache.put_many({"a": np.ones(2, dtype=np.float32)})
    assert list(cache.get_many(["a"])) == ["a"]
    cache.close()


def test_a_closed_cache_refuses_work(cache_path: Path | None) -> None:
    cache = EmbeddingCache(cache_path, 2)
    cache.close()
    with pytest.raises(IndexError_, match="closed"):
        cache.get_many(["a"])


def unit(size: int, seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(size).astype(np.float32)
    return (v / np.linalg.norm(v)).astype(np.float32)


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: np.full(len(b) // 4, 1e10, dtype=np.float32).tobytes(),  # overwritten
        lambda b: b[:3] + bytes([b[3] ^ 0x80]) + b[4:],  # a sign bit
        lambda b: bytes([b[0] ^ 0x01]) + b[1:],  # the lowest mantissa bit
    ],
)
def test_a_damaged_row_is_never_served(tmp_path: Path, damage: object) -> None:
    path = tmp_path / "embeddings.sqlite"
    cache = EmbeddingCache(path, 8)
    cache.put_many({"a": unit(8, 1), "b": unit(8, 2)})
    cache.close()
    db = sqlite3.connect(path)
    (blob,) = db.execute("SELECT vector FROM embeddings WHERE key = 'a'").fetchone()
    db.execute("UPDATE embeddings SET vector = ? WHERE key = 'a'", (damage(bytes(blob)),))  # type: ignore[operator]
    db.commit()
    db.close()
    from lgent.brains.semantic.cache import damaged_rows

    assert damaged_rows(path, 8) == (1, ["a"])
    cache = EmbeddingCache(path, 8)
    found = cache.get_many(["a", "b"])
    assert list(found) == ["b"] and cache.damaged == 1 and cache.misses == 1
    assert "1 cached vector(s)" in cache.note and "failed their checksum" in cache.note
    cache.put_many({"a": unit(8, 1)})  # embedded again: the row is replaced
    np.testing.assert_array_equal(cache.get_many(["a"])["a"], unit(8, 1))
    cache.close()
    assert damaged_rows(path, 8) == (0, [])


def test_a_cache_written_before_checksums_keeps_its_sound_rows(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE embeddings (key TEXT PRIMARY KEY, vector BLOB NOT NULL)")
    bad = np.full(8, 1e10, dtype=np.float32)
    rows = [("good", unit(8, 3).tobytes()), ("huge", bad.tobytes()), ("short", b"\0" * 12)]
    db.executemany("INSERT INTO embeddings VALUES (?, ?)", rows)
    db.commit()
    db.close()
    cache = EmbeddingCache(path, 8)
    assert list(cache.get_many(["good", "huge", "short"])) == ["good"]
    assert len(cache) == 1
    cache.close()
