"""The CLI, driven as a user runs it: through the console script's ``main`` in this process, and
in a process of its own where a new process is the point."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.inprocess import run_cli


def lgent(
    home: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``lgent --home HOME ARGS``, in this process (``tests/cli/inprocess.py``)."""
    return run_cli("--home", str(home), *args, env=env)


def lgent_process(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m lgent.cli --home HOME ARGS`` in a process of its own."""
    cmd = [sys.executable, "-m", "lgent.cli", "--home", str(home), *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ), timeout=120)


@pytest.fixture
def catalog_file(tmp_path: Path) -> Path:
    f = tmp_path / "cat.jsonl"
    records = [
        {"type": "Document"},
        {"type": "PDF", "subtype_of": ["Document"]},
        {
            "id": "PDFParser",
            "name": "PDFParser",
            "entity_type": "tool",
            "status": "deprecated",
            "author": "ann",
            "input_type": "PDF",
            "output_type": "Document",
            "version": "1.0.0",
        },
        {
            "id": "PDFParser_v2",
            "name": "PDFParser_v2",
            "entity_type": "agent",
            "author": "ann",
            "relations": [{"type": "successor_to", "target": "PDFParser"}],
            "version": "2.0.0",
        },
    ]
    f.write_text("".join(json.dumps(r) + "\n" for r in records))
    return f


def test_load_then_stats_in_a_new_process(tmp_path: Path, catalog_file: Path) -> None:
    home = tmp_path / "H"
    loaded = lgent(home, "load", str(catalog_file), "--json")
    assert loaded.returncode == 0, loaded.stderr
    report = json.loads(loaded.stdout)
    assert (report["added"], report["types_added"]) == (2, 2)
    stats = json.loads(lgent_process(home, "stats", "--json").stdout)
    assert (stats["artifacts"], stats["types"], stats["relations"]) == (2, 2, 1)


def test_show_list_remove(tmp_path: Path, catalog_file: Path) -> None:
    home = tmp_path / "H"
    lgent(home, "load", str(catalog_file))
    shown = json.loads(lgent(home, "show", "PDFParser_v2", "--json").stdout)
    assert shown["version"] == "2.0.0" and shown["history"] == ["2.0.0"]
    human = lgent(home, "show", "PDFParser")
    assert "deprecated" in human.stdout
    listed = json.loads(lgent(home, "list", "--status", "deprecated", "--json").stdout)
    assert [e["id"] for e in listed] == ["PDFParser"]
    assert [
        e["id"] for e in json.loads(lgent(home, "list", "--type", "agent", "--json").stdout)
    ] == ["PDFParser_v2"]
    assert "artifacts 1-2 of 2" in lgent(home, "list", "--author", "ann").stdout
    assert lgent(home, "remove", "PDFParser").returncode == 0
    assert json.loads(lgent(home, "stats", "--json").stdout)["artifacts"] == 1


def test_home_from_environment(tmp_path: Path, catalog_file: Path) -> None:
    cmd = [sys.executable, "-m", "lgent.cli", "load", str(catalog_file)]
    env = {**os.environ, "LGENT_HOME": str(tmp_path / "EnvHome")}
    assert subprocess.run(cmd, capture_output=True, env=env, timeout=120).returncode == 0
    assert (tmp_path / "EnvHome" / "catalog.db").is_file()


def test_user_errors_are_one_line_without_traceback(tmp_path: Path, catalog_file: Path) -> None:
    home = tmp_path / "H"
    lgent(home, "load", str(catalog_file))
    missing = lgent(home, "show", "Nope")
    assert missing.returncode == 1
    assert missing.stderr.strip() == "error: no artifact with id 'Nope'"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        "".join(json.dumps({"id": f"B{i}", "name": "B"}) + "\n" for i in range(6))
        + json.dumps({"id": "B6", "name": "B", "success_rate": 3})
        + "\n"
    )
    failed = lgent(home, "load", str(bad))
    assert failed.returncode == 1
    assert "Traceback" not in failed.stderr
    assert f"{bad}:7: entry 'B6': invalid success_rate" in failed.stderr
    assert json.loads(lgent(home, "stats", "--json").stdout)["artifacts"] == 2


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    result = lgent(tmp_path / "H", "list", "--type", "robot")
    assert result.returncode == 2
    assert "'robot' is not one of agent" in result.stderr


def test_home_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    result = lgent(tmp_path / "file", "init")
    assert result.returncode == 1
    assert "exists and is not a folder" in result.stderr


def test_load_takes_several_paths_as_one_batch(tmp_path: Path, catalog_file: Path) -> None:
    more = tmp_path / "more.jsonl"
    more.write_text(json.dumps({"id": "Summarizer", "name": "Summarizer", "input_type": "PDF"}))
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "Broken"}\n')
    home = tmp_path / "H"
    refused = lgent(home, "load", str(more), str(catalog_file), str(broken))
    assert refused.returncode != 0 and "broken.jsonl:1: entry 'Broken'" in refused.stderr
    missing = lgent(home, "load", str(more), str(tmp_path / "nope"))
    assert missing.returncode != 0 and "no such file or folder" in missing.stderr
    assert not home.exists() or json.loads(lgent(home, "stats", "--json").stdout)["artifacts"] == 0
    loaded = lgent(home, "load", str(more), str(catalog_file), "--json")  # PDF declared after
    assert loaded.returncode == 0, loaded.stderr
    assert json.loads(loaded.stdout)["added"] == 3
