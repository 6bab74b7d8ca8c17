"""The optimized model kept on disk: written by the first session, loaded by the next, the same
vectors either way; a damaged kept file is made again, an unwritable folder only costs time."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lgent.brains.semantic.onnx_cache import WEIGHTS_NAME, cache_dir, optimized_path
from lgent.brains.semantic.onnx_embedder import OnnxEmbedder, onnx_model_file

TEXTS = ["send a message to a chat channel", "parse the tables of a PDF invoice"]

pytestmark = pytest.mark.real_model


def kept_file() -> Path:
    import onnxruntime

    return optimized_path(onnx_model_file(), onnxruntime.__version__)


def test_the_cache_folder_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LGENT_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("LGENT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "lgent"


def test_the_first_session_keeps_the_optimized_model_and_the_next_loads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LGENT_CACHE_DIR", str(tmp_path))
    kept = kept_file()
    old_layout = kept.parent.parent / "model-ort_enable_extended-0123456789abcdef.onnx"
    old_layout.parent.mkdir(parents=True)
    old_layout.write_bytes(b"an optimized model kept as one file by an earlier version")
    assert not kept.exists()
    first = OnnxEmbedder().embed_batch(TEXTS)
    weights = kept.parent / WEIGHTS_NAME
    assert kept.is_file() and weights.stat().st_size > 10_000_000  # the weights beside the graph
    assert sorted(p.name for p in kept.parent.iterdir()) == sorted([kept.name, WEIGHTS_NAME])
    assert [p.name for p in kept.parent.parent.iterdir()] == [kept.parent.name]  # nothing else
    written = (kept.stat().st_mtime_ns, weights.stat().st_mtime_ns)
    again = OnnxEmbedder().embed_batch(TEXTS)
    assert (kept.stat().st_mtime_ns, weights.stat().st_mtime_ns) == written  # read, not written
    np.testing.assert_array_equal(first, again)


def test_a_damaged_kept_model_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LGENT_CACHE_DIR", str(tmp_path))
    expected = OnnxEmbedder().embed_batch(TEXTS)
    kept = kept_file()
    kept.write_bytes(b"not an onnx model")
    np.testing.assert_array_equal(OnnxEmbedder().embed_batch(TEXTS), expected)
    assert kept.stat().st_size > 10_000


def test_cut_kept_weights_are_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGENT_CACHE_DIR", str(tmp_path))
    expected = OnnxEmbedder().embed_batch(TEXTS)
    weights = kept_file().parent / WEIGHTS_NAME
    size = weights.stat().st_size
    with weights.open("r+b") as handle:
        handle.truncate(size // 2)
    np.testing.assert_array_equal(OnnxEmbedder().embed_batch(TEXTS), expected)
    assert weights.stat().st_size == size


def test_an_unwritable_cache_folder_only_costs_the_optimization(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be")
    monkeypatch.setenv("LGENT_CACHE_DIR", str(blocked))
    vectors = OnnxEmbedder().embed_batch(TEXTS)
    assert vectors.shape == (2, 384)
    assert blocked.read_text() == "a file where the folder would be"
