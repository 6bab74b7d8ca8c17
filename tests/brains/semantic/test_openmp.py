"""OpenMP's wait policy is set before torch or faiss loads, and a policy already chosen is kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

# Records the policy in the environment at the moment each runtime's package is first imported.
WATCH = """
import importlib.abc, json, os, sys
seen = {}
class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name in ("torch", "faiss") and name not in seen:
            seen[name] = os.environ.get("OMP_WAIT_POLICY")
        return None
sys.meta_path.insert(0, Watch())
"""


def run(body: str, env: dict[str, str]) -> dict[str, str | None]:
    code = WATCH + body + "\nprint(json.dumps(seen))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    env["HF_HUB_OFFLINE"] = "1"
    return env


FAISS_INDEX = """
import numpy as np
from lgent.brains.semantic.vectors import HnswParams, VectorIndex
index = VectorIndex(8, HnswParams(threshold=1000, m=16, ef_construction=40, ef_search=16))
index.upsert(["a"], np.ones((1, 8), dtype=np.float32))
"""


def test_faiss_loads_with_the_passive_policy() -> None:
    assert run(FAISS_INDEX, clean_env()) == {"faiss": "PASSIVE"}


def test_a_policy_in_the_environment_is_kept() -> None:
    assert run(FAISS_INDEX, {**clean_env(), "OMP_WAIT_POLICY": "ACTIVE"}) == {"faiss": "ACTIVE"}


@pytest.mark.real_model
def test_torch_loads_with_the_passive_policy() -> None:
    body = (
        "from lgent.brains.semantic.embedders import SentenceTransformerEmbedder\n"
        "SentenceTransformerEmbedder().embed_batch(['clean up messy text'])\n"
    )
    assert run(body, clean_env())["torch"] == "PASSIVE"
