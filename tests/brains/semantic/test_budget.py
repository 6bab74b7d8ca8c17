"""The text budget: where a text is cut, that the model then reads a prefix of the whole text's
word pieces, that the brain says how many texts it cut and keys its cache by the cut text, and
(with the real model) that length-sorted batches give the vectors of one-at-a-time embedding."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from lgent.brains.base import ChangeSet
from lgent.brains.semantic.brain import SemanticBrain
from lgent.brains.semantic.budget import PieceCutter, cut_point
from lgent.brains.semantic.cache import cache_key
from lgent.brains.semantic.embedders import (
    CutsToPieces,
    HashingEmbedder,
    SentenceTransformerEmbedder,
    default_model_dir,
)
from lgent.brains.semantic.onnx_embedder import OnnxEmbedder
from lgent.brains.semantic.pooling import content_pools
from lgent.brains.semantic.settings import SemanticSettings
from lgent.brains.semantic.text import entry_text
from lgent.errors import SettingsError
from lgent.models import CatalogEntry
from tests.brains.semantic.conftest import CATALOG, entry


def tokenizer_file() -> Path:
    folder, _ = default_model_dir()
    return folder / "tokenizer.json"


def whole_pieces(texts: Sequence[str]) -> list[list[int]]:
    """Each text's word-piece ids with [CLS] and [SEP], never truncated."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_file()))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return [e.ids for e in tokenizer.encode_batch(list(texts))]


# -- where a text is cut ----------------------------------------------------------------------


def test_cut_point_keeps_whole_words() -> None:
    # pieces: "em" "##bed" "text" "##s" "now" -> words 0 0 1 1 2
    words = [0, 0, 1, 1, 2]
    starts = [0, 2, 6, 10, 12]
    assert cut_point(words.__getitem__, starts.__getitem__, 4) == 12  # after "texts"
    # "text" fits but "texts" does not: after "embed"
    assert cut_point(words.__getitem__, starts.__getitem__, 3) == 6
    # one word fills the room: cut inside it
    assert cut_point(words.__getitem__, starts.__getitem__, 1) == 2


LONG_TEXTS = [
    "Firewall Rules Create Or Update. Creates a new firewall rule. Parameters: "
    + "; ".join(f"param{i} (string): the {i}th value of the request" for i in range(60)),
    "中文工具描述：查询火车票余票信息。" * 40,
    "Ünïcødé façade, naïve café; " * 50,
    "x" * 3000,  # one word far longer than the budget
    "tab\tseparated\u00a0and\u2003odd spaces\u0007 and a control char " * 30,
    "a, b. c; d! (e) [f] {g} " * 60,
]


@pytest.mark.parametrize("budget", [8, 16, 64, 128, 256])
def test_cut_texts_are_prefixes_of_the_whole_texts_pieces(budget: int) -> None:
    """The model reads at most ``budget`` pieces of a cut text, and they are the first pieces of
    the whole text: the cut ends at a word (only one longer than the budget is cut inside)."""
    cutter = PieceCutter(tokenizer_file(), 256)
    short = ["Parses PDF files into documents.", "  spaced  ", ""]
    texts = [*LONG_TEXTS, *short]
    cut = cutter.cut(texts, budget)
    assert cut[len(LONG_TEXTS) :] == short or budget < 16  # what fits is returned as it is
    for text, got, ids, whole in zip(
        texts, cut, whole_pieces(cut), whole_pieces(texts), strict=True
    ):
        assert len(ids) <= budget
        assert ids[:-1] == whole[: len(ids) - 1]  # the same pieces, then [SEP]
        if got != text:
            assert text.startswith(got) and got == got.rstrip() and got
            assert len(whole) > budget
    assert cutter.cut(texts, budget) == cut  # deterministic


def test_a_budget_over_the_models_limit_is_the_limit() -> None:
    cutter = PieceCutter(tokenizer_file(), 256)
    assert cutter.cut(LONG_TEXTS, 1000) == cutter.cut(LONG_TEXTS, 256)
    assert all(len(ids) <= 256 for ids in whole_pieces(cutter.cut(LONG_TEXTS, 1000)))


def test_a_budget_with_no_room_for_a_word_is_refused() -> None:
    with pytest.raises(SettingsError, match="too small"):
        PieceCutter(tokenizer_file(), 256).cut(["text"], 4)
    with pytest.raises(SettingsError, match=r"semantic.entry_tokens: must be an integer >= 8"):
        SemanticSettings(entry_tokens=2)


def test_a_broken_tokenizer_file_is_model_unavailable(tmp_path: Path) -> None:
    from lgent.errors import ModelUnavailableError

    broken = tmp_path / "tokenizer.json"
    broken.write_text('{"model": 7}')
    with pytest.raises(ModelUnavailableError, match=r"cannot load .*tokenizer.json to count"):
        PieceCutter(broken, 256).cut(["a longer text " * 10], 16)


# -- the brain --------------------------------------------------------------------------------


class WordBudgetEmbedder(HashingEmbedder):
    """The hashing stand-in with a budget in words (a word is a piece; no special pieces)."""

    def cut_to_pieces(self, texts: Sequence[str], pieces: int) -> list[str]:
        return [" ".join(t.split()[:pieces]) if len(t.split()) > pieces else t for t in texts]


def long_entry(artifact_id: str, words: int) -> CatalogEntry:
    text = " ".join(f"word{i}" for i in range(words))
    return entry(artifact_id, description=f"Does things. {text}")


LONG = [long_entry("long-a", 40), long_entry("long-b", 60)]


def test_the_brain_embeds_cut_texts_and_says_how_many(tmp_path: Path) -> None:
    embedder = WordBudgetEmbedder(64)
    assert isinstance(embedder, CutsToPieces)
    settings = SemanticSettings(entry_tokens=20, threshold=-1)
    brain = SemanticBrain(tmp_path, settings, embedder)
    brain.build([*CATALOG, *LONG], [], 1)
    extra = brain.status().extra
    assert (extra["entry_tokens"], extra["texts_cut"]) == (20, 2)
    for item in LONG:  # the vector is the cut text's, cached under the cut text
        cut = embedder.cut_to_pieces([entry_text(item)], 20)[0]
        assert cut != entry_text(item) and len(cut.split()) == 20
        key = cache_key(embedder.name, cut)
        assert brain._cache.get_many([key])
        stored = brain._vectors.vector(item.id)
        np.testing.assert_allclose(stored, embedder.embed_batch([cut])[0], atol=1e-6)
    brain.apply_changes(ChangeSet([long_entry("long-c", 30)], ["long-a"], None, 2))
    assert brain.status().extra["texts_cut"] == 2
    brain.close()
    reopened = SemanticBrain(tmp_path, settings, embedder)
    assert reopened.change_number == 2 and reopened.status().extra["texts_cut"] == 2
    reopened.close()


def test_another_budget_rebuilds_and_embeds_only_the_texts_it_cuts_otherwise(
    tmp_path: Path,
) -> None:
    embedder = WordBudgetEmbedder(64)
    first = SemanticBrain(tmp_path, SemanticSettings(entry_tokens=20), embedder)
    first.build([*CATALOG, *LONG], [], 1)
    first.close()
    wider = SemanticSettings(entry_tokens=50)
    again = SemanticBrain(tmp_path, wider, embedder)
    assert again.change_number == -1 and "text budget 20 (now 50)" in again.detail
    again.build([*CATALOG, *LONG], [], 1)
    # the catalog's texts fit both budgets (same key, from the cache); the long ones are new
    assert again.counters.texts_embedded == len(LONG)
    assert again.counters.entry_cache_hits == len(CATALOG)
    assert again.status().extra["texts_cut"] == 1  # long-b's 62 words still exceed 50
    again.close()


# -- the real model ---------------------------------------------------------------------------


def mixed_texts() -> list[str]:
    """Entry-like texts from a few words to several hundred word pieces."""
    out = [entry_text(e) for e in CATALOG]
    for i in range(24):
        params = "; ".join(f"field{j} (string): the {j}th field of record {i}" for j in range(i))
        out.append(f"Operation {i}. Reads records of kind {i}. Parameters: {params}")
    return out


@pytest.mark.real_model
@pytest.mark.parametrize("kind", ["onnx", "sentence-transformers"])
def test_length_sorted_batches_give_one_at_a_time_vectors(kind: str) -> None:
    """Texts within the budget, embedded together (sorted by length, padded per run) and through
    the brain, get the vectors each gets alone; a cut text gets its cut text's vector."""
    embedder = OnnxEmbedder() if kind == "onnx" else SentenceTransformerEmbedder()
    texts = mixed_texts()
    budget = 64
    cut = embedder.cut_to_pieces(texts, budget)
    assert sum(a != b for a, b in zip(cut, texts, strict=True)) > 5  # some were cut
    alone = np.stack([embedder.embed_batch([t])[0] for t in cut])
    together = embedder.embed_batch(cut)
    np.testing.assert_allclose(together, alone, atol=2e-5)
    entries = [*CATALOG]
    entries += [entry(f"op-{i}", description=t) for i, t in enumerate(texts[len(CATALOG) :])]
    brain = SemanticBrain(None, SemanticSettings(entry_tokens=budget), embedder)
    brain.build(entries, [], 1)
    made = [entry_text(e) for e in entries]
    fitted = embedder.cut_to_pieces(made, budget)
    assert brain.status().extra["texts_cut"] == sum(
        a != b for a, b in zip(fitted, made, strict=True)
    )
    stored = brain._vectors.vectors([e.id for e in entries])
    # the brain pools entries from their content words (CONTENT_POOLING)
    one_by_one = np.stack([embedder.embed_pooled([t], content_pools)[0][0] for t in fitted])
    np.testing.assert_allclose(stored, one_by_one, atol=2e-5)


@pytest.mark.real_model
def test_both_embedders_cut_alike_and_a_folder_without_tokenizer_json_works(
    tmp_path: Path,
) -> None:
    """The sentence-transformers embedder counts with the same tokenizer; a model folder with no
    ``tokenizer.json`` counts with the loaded model's own tokenizer, and cuts the same."""
    texts = mixed_texts()
    onnx_cut = OnnxEmbedder().cut_to_pieces(texts, 48)
    assert SentenceTransformerEmbedder().cut_to_pieces(texts, 48) == onnx_cut
    folder, _ = default_model_dir()
    bare = tmp_path / "model"
    bare.mkdir()
    for item in folder.iterdir():
        if item.name != "tokenizer.json":
            (bare / item.name).symlink_to(item)
    assert SentenceTransformerEmbedder(str(bare)).cut_to_pieces(texts, 48) == onnx_cut
