"""The default (ONNX) embedder against sentence-transformers on torch, the same model: per-text
cosine on 1,000 catalog texts and the labeled queries' nDCG (issue 17's acceptance)."""

from __future__ import annotations

import asyncio
import statistics

import numpy as np
import pytest

from benchmarks import quality
from benchmarks.harness import pypi, synthetic
from lgent.brains.semantic.embedder_choice import configured_embedder
from lgent.brains.semantic.embedders import Embedder, SentenceTransformerEmbedder
from lgent.brains.semantic.onnx_embedder import OnnxEmbedder
from lgent.brains.semantic.settings import EmbedderName, SemanticSettings
from lgent.brains.semantic.text import entry_text
from lgent.catalog.loaders import read_path
from lgent.config import Settings
from lgent.models import CatalogEntry
from tests.conftest import FIXTURES

pytestmark = pytest.mark.real_model

TEXTS = 1000
MIN_COSINE = 0.99
NDCG_TOLERANCE = 0.005


def catalog_texts(n: int) -> list[str]:
    """The example catalog's entry texts, then PyPI entries (synthetic ones without the corpus)."""
    entries = read_path(FIXTURES).entries
    texts = list(dict.fromkeys(entry_text(e) for e in entries))
    missing = n - len(texts)
    try:
        records = pypi.load_pypi(limit=missing)
    except pypi.CorpusMissingError:
        records = synthetic.generate(missing, seed=11)[0]
    texts += [entry_text(CatalogEntry.parse(r)) for r in records]
    return texts[:n]


def test_default_embedder_vectors_match_sentence_transformers(real_embedder: Embedder) -> None:
    assert isinstance(real_embedder, OnnxEmbedder)  # the default the session fixture chose
    texts = catalog_texts(TEXTS)
    assert len(texts) == TEXTS and len(set(texts)) > 0.99 * TEXTS
    ours = real_embedder.embed_batch(texts)
    theirs = SentenceTransformerEmbedder().embed_batch(texts)
    cosines = np.sum(ours * theirs, axis=1)
    worst = int(np.argmin(cosines))
    assert cosines.min() >= MIN_COSINE, (texts[worst], float(cosines[worst]))
    print(f"cosine to torch over {TEXTS} texts: min {cosines.min():.4f}, mean {cosines.mean():.5f}")


def _fused_ndcg(embedder: EmbedderName) -> float:
    settings = Settings(brains={"semantic": SemanticSettings(embedder=embedder)})
    per = asyncio.run(quality.evaluate(settings, quality.load_queries(), ("fused",)))
    return statistics.fmean(x[0] for cls in quality.CLASSES for x in per["fused"][cls])


def test_default_embedder_keeps_the_labeled_query_ndcg() -> None:
    assert isinstance(configured_embedder(SemanticSettings()), OnnxEmbedder)
    onnx, torch = _fused_ndcg("onnx"), _fused_ndcg("sentence-transformers")
    print(f"fused nDCG@10: onnx {onnx:.4f}, sentence-transformers {torch:.4f}")
    assert abs(onnx - torch) <= NDCG_TOLERANCE
