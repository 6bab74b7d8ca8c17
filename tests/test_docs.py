"""Every code block in README.md and docs/*.md runs, so the docs cannot drift from the code.

``python`` blocks run in order, one namespace per file; ``lgent`` commands must exit 0 (and print
what a ``console`` block shows); ``curl`` calls must get JSON from the HTTP API; ``json``,
``jsonl`` and ``toml`` blocks must parse, and TOML examples must be valid ``lgent.toml`` files.
Each file works in its own folder holding a copy of the example home in ``.lgent``. All files
run in one subprocess (tests/doc_runner.py), so the embedding model's libraries load once.
docs/cli.md must be what docs/gen_cli.py writes today.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from lgent import QueryType, default_registry
from lgent.config import settings_from_mapping
from tests.doc_blocks import (
    LANGUAGES,
    NO_TEST_ALLOWED,
    SHELL,
    Block,
    expected_matches,
    read_blocks,
    shell_commands,
)

REPO = Path(__file__).resolve().parent.parent
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
BLOCKS = [block for path in DOCS for block in read_blocks(path, REPO)]
RUNNABLE = [b for b in BLOCKS if any(s.kind != "skip" for s in b.steps)]
RUNNER = REPO / "tests" / "doc_runner.py"


def test_every_block_has_a_known_language() -> None:
    unknown = [
        f"{b.id} ({b.language or 'no language'})" for b in BLOCKS if b.language not in LANGUAGES
    ]
    assert not unknown, f"tag these blocks with one of {sorted(LANGUAGES)}: {unknown}"


def test_skips_are_rare_and_only_servers() -> None:
    skipped = [b for b in BLOCKS if b.skipped]
    assert len(skipped) <= 3, [b.id for b in skipped]
    for block in skipped:
        assert block.language in SHELL, block.id
        for line, command, _ in shell_commands(block.text, block.language, block.line + 1):
            assert NO_TEST_ALLOWED.search(command), (
                f"{block.name}:{line}: {command} is not a server"
            )


def test_docs_have_runnable_examples() -> None:
    by_file = {b.name for b in RUNNABLE}
    for page in (
        "README.md",
        "docs/getting-started.md",
        "docs/integrations.md",
        "docs/architecture.md",
    ):
        assert page in by_file, f"{page} has no runnable example"


# -- json, jsonl, toml ------------------------------------------------------------------------


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.language == "json"], ids=lambda b: b.id)
def test_json_block_parses(block: Block) -> None:
    json.loads(block.text)


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.language == "jsonl"], ids=lambda b: b.id)
def test_jsonl_block_parses(block: Block) -> None:
    for line in block.text.splitlines():
        if line.strip():
            assert isinstance(json.loads(line), dict)


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.language == "toml"], ids=lambda b: b.id)
def test_toml_block_is_a_valid_settings_file(block: Block) -> None:
    settings_from_mapping(tomllib.loads(block.text), block.id)


def test_architecture_weights_table_matches_the_defaults() -> None:
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    registry = default_registry()
    for query_type in QueryType:
        row = next(
            (line for line in text.splitlines() if line.startswith(f"| `{query_type.value}`")),
            None,
        )
        assert row is not None, f"no weights row for {query_type.value}"
        cells = [c.strip() for c in row.strip("|").split("|")][1:4]
        declared = {spec.name: spec.weight(query_type) for spec in registry}
        assert [float(c) for c in cells] == [declared[b] for b in ("keyword", "semantic", "graph")]


# -- python, shell, curl -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def results(example_home: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run every runnable block once, all files in one subprocess; outcomes by block id."""
    root = tmp_path_factory.mktemp("docs")
    files = []
    for path in DOCS:
        steps = [
            {
                "block": b.id,
                "kind": s.kind,
                "line": s.line,
                "code": s.code,
                "argv": list(s.argv),
                "target": s.reason,
            }
            for b in RUNNABLE
            if b.path == path
            for s in b.steps
            if s.kind != "skip"
        ]
        if not steps:
            continue
        workdir = root / path.stem
        workdir.mkdir()
        shutil.copytree(example_home, workdir / ".lgent")
        (workdir / "catalog_fixtures").symlink_to(REPO / "catalog_fixtures")
        files.append(
            {
                "path": str(path),
                "workdir": str(workdir),
                "home": str(workdir / ".lgent"),
                "steps": steps,
            }
        )
    plan, out = root / "plan.json", root / "results.json"
    plan.write_text(json.dumps({"files": files}), encoding="utf-8")
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "COLUMNS": "100",
        "NO_COLOR": "1",
        "TERM": "dumb",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    # -P: the runner's folder (tests/, with its http/ and mcp/ packages) stays off sys.path
    done = subprocess.run(
        [sys.executable, "-P", str(RUNNER), str(plan), str(out)],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.exists(), f"the docs runner failed:\n{done.stdout}\n{done.stderr}"
    outcomes: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    outcomes["runner"] = f"exit status {done.returncode}; stderr ends:\n{done.stderr[-3000:]}"
    return outcomes


@pytest.mark.real_model
@pytest.mark.parametrize("block", RUNNABLE, ids=lambda b: b.id)
def test_block_runs(block: Block, results: dict[str, Any]) -> None:
    outcomes = results.get(block.id)
    steps = [s for s in block.steps if s.kind != "skip"]
    assert outcomes is not None and len(outcomes) == len(steps), (
        f"{block.id} did not run; the runner's {results['runner']}"
    )
    for step, outcome in zip(steps, outcomes, strict=True):
        where = f"{block.name}:{step.line}"
        detail = (
            f"{outcome.get('error', '')}{outcome.get('stderr', '')}\n{outcome.get('output', '')}"
        )
        assert outcome["ok"], f"{where} failed ({step.kind} {' '.join(step.argv)}):\n{detail}"
        if step.kind == "cli" and step.expected:
            missing = expected_matches(step.expected, outcome["output"])
            assert missing is None, f"{where}: output lacks {missing!r}:\n{outcome['output']}"
        if step.kind == "curl":
            answer = json.loads(outcome["output"])
            is_error = isinstance(answer, dict) and "error" in answer
            assert is_error == step.expect_error, f"{where}: {outcome['output'][:500]}"


# -- the CLI reference -------------------------------------------------------------------------


def _gen_cli() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_cli", REPO / "docs" / "gen_cli.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_is_current() -> None:
    current = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    assert _gen_cli().render() == current, "docs/cli.md is stale: run python docs/gen_cli.py"


def test_cli_reference_matches_the_real_command() -> None:
    """The generator's in-process help is what the installed command prints."""
    gen = _gen_cli()
    env = {**os.environ, **gen.HELP_ENV}
    env.pop("LGENT_HOME", None)
    lgent = Path(sys.executable).parent / "lgent"
    done = subprocess.run(
        [str(lgent), "query", "--help"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout == gen.help_text(["query"])
