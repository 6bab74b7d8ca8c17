"""OpenMP's spin count is set before torch or faiss loads; a choice already made is kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

# Records the OpenMP settings in the environment when each runtime's package is first imported.
WATCH = """
import importlib.abc, json, os, sys
seen = {}
class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name in ("torch", "faiss") and name not in seen:
            seen[name] = [os.environ.get("OMP_WAIT_POLICY"), os.environ.get("GOMP_SPINCOUNT")]
        return None
sys.meta_path.insert(0, Watch())
"""

FAISS_INDEX = """
import numpy as np
from lgent.brains.semantic.vectors import HnswParams, VectorIndex
index = VectorIndex(8, HnswParams(threshold=1000, m=16, ef_construction=40, ef_search=16))
index.upsert(["a"], np.ones((1, 8), dtype=np.float32))
"""


def run(body: str, **settings: str) -> dict[str, list[str | None]]:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    env.update(settings, HF_HUB_OFFLINE="1")
    code = WATCH + body + "\nprint(json.dumps(seen))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def test_faiss_loads_with_a_short_spin() -> None:
    assert run(FAISS_INDEX) == {"faiss": [None, "20000"]}


@pytest.mark.parametrize(
    ("settings", "seen"),
    [
        ({"OMP_WAIT_POLICY": "ACTIVE"}, ["ACTIVE", None]),
        ({"GOMP_SPINCOUNT": "5"}, [None, "5"]),
    ],
)
def test_a_choice_in_the_environment_is_kept(
    settings: dict[str, str], seen: list[str | None]
) -> None:
    assert run(FAISS_INDEX, **settings) == {"faiss": seen}


@pytest.mark.real_model
def test_torch_loads_with_a_short_spin() -> None:
    body = (
        "from lgent.brains.semantic.embedders import SentenceTransformerEmbedder\n"
        "SentenceTransformerEmbedder().embed_batch(['clean up messy text'])\n"
    )
    assert run(body)["torch"] == [None, "20000"]
