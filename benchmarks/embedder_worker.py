"""One embedder in a fresh process, for ``benchmarks.embedder_bench`` (not run by hand).

    python -m benchmarks.embedder_worker SYSTEM JOB.json RESULT.json SPAWNED_AT

Imports only the standard library and numpy before it builds the embedder, so the cold start it
reports (the parent's ``time.time()`` just before it started the process, passed as the fourth
argument, to the first query vector) is the embedder's own. ``JOB.json`` holds the queries,
the texts and where to save the texts' vectors (``.npy``); ``RESULT.json`` gets the timings.
The ``st-onnx-*`` systems run sentence-transformers' ONNX backend and need an interpreter where
it is installed (``optimum-onnx``) and an exported model folder (``JOB["st_onnx_model"]``); they
import nothing from ``lgent``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

Encode = Callable[[Sequence[str]], Any]
ST_ONNX_FILES = {
    "st-onnx-fp32": "onnx/model.onnx",
    "st-onnx-int8": "onnx/model_qint8_avx512_vnni.onnx",
}


def make_system(system: str, job: dict[str, Any]) -> tuple[Encode, Encode]:
    """``(one query, a batch)`` encoders for ``system``; nothing is loaded yet."""
    if system in ("torch", "onnx"):
        from lgent.brains.semantic.embedder_choice import configured_embedder
        from lgent.brains.semantic.settings import SemanticSettings

        settings = SemanticSettings(
            embedder="sentence-transformers" if system == "torch" else "onnx"
        )
        embedder = configured_embedder(settings)
        return embedder.embed_batch, embedder.embed_batch
    if system in ST_ONNX_FILES:
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(
            job["st_onnx_model"],
            device="cpu",
            backend="onnx",
            model_kwargs={"file_name": ST_ONNX_FILES[system]},
        )

        def encode(texts: Sequence[str]) -> Any:
            return model.encode(
                list(texts),
                batch_size=32,
                show_progress_bar=False,
                convert_to_numpy=True,
                normalize_embeddings=True,
            )

        return encode, encode
    raise SystemExit(f"unknown system {system!r}")


def main(argv: Sequence[str]) -> int:
    system, job_file, result_file, spawned_at = argv
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with open(job_file, encoding="utf-8") as stream:
        job = json.load(stream)
    one, batch = make_system(system, job)
    queries: list[str] = job["queries"]
    first = one([queries[0]])
    cold = time.time() - float(spawned_at)
    assert np.asarray(first).shape[0] == 1
    for q in queries[:10]:  # warm-up
        one([q])
    latencies = []
    for q in queries:
        t = time.perf_counter_ns()
        one([q])
        latencies.append((time.perf_counter_ns() - t) / 1e6)
    texts: list[str] = job["texts"]
    t0 = time.perf_counter()
    vectors = np.asarray(batch(texts), dtype=np.float32)
    seconds = time.perf_counter() - t0
    if job.get("vectors"):
        np.save(job["vectors"], vectors)
    with open(result_file, "w", encoding="utf-8") as stream:
        json.dump(
            {
                "cold_s": cold,
                "latencies_ms": latencies,
                "batch_s": seconds,
                "texts": len(texts),
                "heavy": [m for m in ("torch", "onnxruntime") if m in sys.modules],
            },
            stream,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
