"""`import lgent` must stay cheap: no torch, sentence_transformers, faiss or tantivy."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = [
    "torch",
    "sentence_transformers",
    "onnxruntime",
    "tokenizers",
    "faiss",
    "tantivy",
    "transformers",
    "networkx",
]


def test_import_lgent_loads_no_heavy_module() -> None:
    code = (
        "import json, sys, time; t = time.perf_counter(); import lgent; "
        "print(json.dumps({'seconds': time.perf_counter() - t, "
        f"'loaded': [m for m in {HEAVY!r} if m in sys.modules]}}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    assert result["loaded"] == []


def test_cli_help_loads_no_heavy_module() -> None:
    code = (
        "import sys; sys.argv = ['lgent', '--help']\n"
        "from lgent.cli.app import app\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
