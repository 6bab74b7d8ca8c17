"""The optimized model kept on disk: written by the first session, loaded by the next, the same
vectors either way; a damaged kept file is made again, an unwritable folder only costs time."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lgent.brains.semantic.onnx_cache import cache_dir, optimized_path
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
    assert not kept.exists()
    first = OnnxEmbedder().embed_batch(TEXTS)
    assert kept.is_file() and kept.stat().st_size > 10_000_000
    assert [p.name for p in kept.parent.iterdir()] == [kept.name]  # no temporary file left
    written = kept.stat().st_mtime_ns
    again = OnnxEmbedder().embed_batch(TEXTS)
    assert kept.stat().st_mtime_ns == written  # read, not written again
    np.testing.assert_allclose(first, again, atol=1e-6)


def test_a_damaged_kept_model_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LGENT_CACHE_DIR", str(tmp_path))
    expected = OnnxEmbedder().embed_batch(TEXTS)
    kept = kept_file()
    kept.write_bytes(b"not an onnx model")
    np.testing.assert_allclose(OnnxEmbedder().embed_batch(TEXTS), expected, atol=1e-6)
    assert kept.stat().st_size > 10_000_000


def test_an_unwritable_cache_folder_only_costs_the_optimization(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be")
    monkeypatch.setenv("LGENT_CACHE_DIR", str(blocked))
    vectors = OnnxEmbedder().embed_batch(TEXTS)
    assert vectors.shape == (2, 384)
    assert blocked.read_text() == "a file where the folder would be"
