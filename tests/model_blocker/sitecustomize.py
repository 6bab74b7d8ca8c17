"""Loaded by Python at start-up when this folder is on PYTHONPATH (the model-free test run):
with LGENT_TEST_NO_MODEL=1, importing anything that runs the embedding model fails loudly, in
the test process and in every process it starts (the CLI, the servers)."""

from __future__ import annotations

import os
import sys
from importlib.machinery import ModuleSpec

BLOCKED = frozenset({"torch", "sentence_transformers", "transformers", "onnxruntime"})


class ModelBlocker:
    """A meta-path finder that refuses the model's packages."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name}: a model-free test run (-m 'not real_model') loaded it")
        return None


if os.environ.get("LGENT_TEST_NO_MODEL") == "1":
    sys.meta_path.insert(0, ModelBlocker())
