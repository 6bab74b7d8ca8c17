"""`import lgent` must stay cheap: no torch, sentence_transformers, faiss or tantivy; and a cold
command loads only what it uses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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


MODEL = ["torch", "sentence_transformers", "transformers", "onnxruntime", "tokenizers"]
"""The embedding model's runtimes: a name lookup ranks by the named artifact's stored vector."""
NEVER_ON_A_QUERY = [
    "networkx",
    "yaml",  # the catalog readers: only load and import read files
    "rich.progress",  # drawn only when a build shows progress
    "fastapi",
    "uvicorn",
    "mcp",
]


def modules_after(home: Path, *args: str) -> list[str]:
    """The top-level modules (and ``rich.progress``) a cold ``lgent`` process had loaded when
    it finished ``args`` on ``home``."""
    code = (
        "import atexit, json, sys\n"
        "atexit.register(lambda: sys.__stderr__.write('MODULES ' + json.dumps(sorted(sys.modules)) "
        "+ '\\n'))\n"
        "from lgent.cli.app import console_main\n"
        f"sys.argv = ['lgent', '--home', {str(home)!r}, *{list(args)!r}]\n"
        "console_main()\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    line = next(x for x in run.stderr.splitlines() if x.startswith("MODULES "))
    loaded: list[str] = json.loads(line.removeprefix("MODULES "))
    return loaded


def test_a_cold_name_lookup_loads_no_model_runtime(example_home: Path) -> None:
    loaded = set(modules_after(example_home, "query", "PDFParser_v2"))
    assert "lgent.brains.semantic.brain" in loaded  # it did ask the semantic brain
    assert sorted(loaded & {*MODEL, *NEVER_ON_A_QUERY}) == []


def test_a_cold_keyword_search_loads_no_vector_library(example_home: Path) -> None:
    loaded = set(modules_after(example_home, "search", "pdf", "--brain", "keyword"))
    assert "tantivy" in loaded
    assert sorted(loaded & {*MODEL, *NEVER_ON_A_QUERY, "faiss", "numpy"}) == []


def test_main_leaves_the_garbage_collector_as_it_found_it(
    example_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``main()`` (what tests and scripts call) changes no process-wide state: only the console
    script freezes the garbage collector, in a process that ends with the command."""
    import gc

    from lgent.cli.app import main

    before = gc.get_freeze_count()
    monkeypatch.setattr(sys, "argv", ["lgent", "--home", str(example_home), "stats"])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code in (0, None)
    assert gc.get_freeze_count() == before


def test_reading_an_entrys_stored_kinds_loads_no_inference() -> None:
    """A stored entry's kinds are checked with ``lgent.kinds.results`` alone: decoding one (as
    every cold query, compatible, path or resolve call does) loads neither the inference rules
    nor the vocabulary's YAML reader."""
    code = (
        "import json, sys\n"
        "from lgent.kinds.results import ToolKinds\n"
        "from lgent.models import CatalogEntry\n"
        "entry = CatalogEntry.parse({'id': 'a/b', 'name': 'b', 'description': 'x', "
        "'entity_type': 'tool', 'kinds': ToolKinds().to_dict()})\n"
        "assert entry.tool_kinds() == ToolKinds()\n"
        "print(json.dumps([m for m in ('yaml', 'lgent.kinds.infer', 'lgent.kinds.vocabulary') "
        "if m in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []
    import lgent.kinds

    assert lgent.kinds.default_vocabulary is lgent.kinds.vocabulary.default_vocabulary


@pytest.mark.parametrize(("command", "collecting"), [("stats", False), ("init", True)])
def test_the_console_script_runs_a_read_command_without_collections(
    tmp_path: Path, command: str, collecting: bool
) -> None:
    """A one-shot read runs with the garbage collector off (it ends with the process); a
    command that writes keeps it on."""
    home = tmp_path / "home"
    if command != "init":
        init = [sys.executable, "-m", "lgent.cli", "--home", str(home), "init"]
        subprocess.run(init, capture_output=True, check=True)
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: sys.__stderr__.write(f'COLLECTING {gc.isenabled()}\\n'))\n"
        "from lgent.cli.app import console_main\n"
        f"sys.argv = ['lgent', '--home', {str(home)!r}, {command!r}]\n"
        "console_main()\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert f"COLLECTING {collecting}" in run.stderr
