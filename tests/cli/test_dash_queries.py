"""A query that starts with ``-`` after ``lgent query`` / ``lgent search`` is query text, not an
unknown option; ``--`` ends the options as usual."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lgent.cli.app import main, query_text_arguments


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["query", "-73.95 longitude"], ["query", "--", "-73.95 longitude"]),
        (["query", "-73.95", "longitude", "--json"], ["query", "--json", "--", "-73.95 longitude"]),
        (
            ["--home", "query", "query", "-c", "x", "-draft"],
            ["--home", "query", "query", "-c", "x", "--", "-draft"],
        ),
        (["search", "--limit=3", "-draft"], ["search", "--limit=3", "--", "-draft"]),
        (["query", "--limit", "3", "--", "--limit"], ["query", "--limit", "3", "--", "--limit"]),
        (["query", "pdf", "--limit", "3"], ["query", "pdf", "--limit", "3"]),
        (["query", "--help"], ["query", "--help"]),
        (["stats", "-x"], ["stats", "-x"]),
    ],
)
def test_words_after_a_query_command_are_its_text(args: list[str], expected: list[str]) -> None:
    assert query_text_arguments(args) == expected


def run(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["lgent", *args])
    with pytest.raises(SystemExit) as done:
        main()
    return int(done.value.code or 0)


def loaded_home(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *records: str,
) -> str:
    """A home with the JSON ``records`` loaded (one per line), the load's output consumed."""
    source = tmp_path / "tools.jsonl"
    source.write_text("".join(f"{r}\n" for r in records), encoding="utf-8")
    home = str(tmp_path / "home")
    assert run(monkeypatch, "--home", home, "load", str(source)) == 0
    capsys.readouterr()
    return home


def test_a_search_starting_with_a_dash_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = loaded_home(
        tmp_path,
        monkeypatch,
        capsys,
        '{"id": "a", "name": "a", "description": "parse legacy pdf files"}',
        '{"id": "b", "name": "b", "description": "parse pdf pages"}',
    )
    assert run(monkeypatch, "--home", home, "search", "-legacy", "pdf", "--json") == 0
    found = capsys.readouterr().out
    assert '"b"' in found and '"a"' not in found
    assert run(monkeypatch, "--home", home, "search", "--json", "--", "-legacy", "parse") == 0
    assert '"b"' in capsys.readouterr().out
    assert run(monkeypatch, "--home", home, "search", "--limt", "3", "pdf") != 0  # a typo'd option


def test_a_search_hit_whose_name_matched_still_shows_its_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = loaded_home(
        tmp_path,
        monkeypatch,
        capsys,
        '{"id": "git/fetch", "name": "fetch", "description": "download objects"}',
        '{"id": "web/fetch", "name": "fetch", "description": "download a page"}',
        '{"id": "fetcher", "name": "fetcher", "description": "fetch things"}',
    )
    monkeypatch.setenv("COLUMNS", "200")
    assert run(monkeypatch, "--home", home, "search", "name:fetch") == 0
    lines = capsys.readouterr().out.splitlines()
    assert any("fetch (git/fetch)" in line for line in lines), lines
    assert any("fetch (web/fetch)" in line for line in lines), lines


def test_commands_on_one_artifact_read_its_real_world_name_as_show_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = loaded_home(
        tmp_path,
        monkeypatch,
        capsys,
        '{"type": "Doc"}',
        '{"id": "Ant-Design-Components", "name": "Ant Design Components", "output_type": "Doc"}',
        '{"id": "reader", "name": "reader", "input_type": "Doc"}',
    )
    for command in ("show", "lineage", "compatible"):
        capsys.readouterr()
        assert run(monkeypatch, "--home", home, command, "Ant Design Components") == 0, command
    assert "reader" in capsys.readouterr().out  # compatible: what takes its output
    assert run(monkeypatch, "--home", home, "compatible", "reader") == 0
    assert "(it declares no output type)" in capsys.readouterr().out
    capsys.readouterr()
    assert run(monkeypatch, "--home", home, "lineage", "Ant-Design-Component") == 1
    assert "did you mean Ant-Design-Components" in capsys.readouterr().err
    assert run(monkeypatch, "--home", home, "remove", "Ant Design Components") == 0
    assert "Removed 1 version(s) of Ant Design Components" in capsys.readouterr().out


def test_an_unknown_import_format_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(monkeypatch, "--home", str(tmp_path / "h"), "import", "bogus", str(tmp_path)) == 2
    assert "not one of mcp, openapi, a2a, openai, jsonl, markdown, manifest" in (
        capsys.readouterr().err
    )
    assert not (tmp_path / "h").exists()
