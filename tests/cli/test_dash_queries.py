"""A query that starts with ``-`` after ``lgent query`` / ``lgent search`` is query text, not an
unknown option; ``--`` ends the options as usual."""

from __future__ import annotations

from pathlib import Path

import pytest

from lgent.cli.app import query_text_arguments
from tests.cli.conftest import Cli


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


def test_a_search_starting_with_a_dash_runs(cli: Cli) -> None:
    home = cli.load(
        '{"id": "a", "name": "a", "description": "parse legacy pdf files"}',
        '{"id": "b", "name": "b", "description": "parse pdf pages"}',
    )
    assert cli.run("--home", home, "search", "-legacy", "pdf", "--json") == 0
    found = cli.said().out
    assert '"b"' in found and '"a"' not in found
    assert cli.run("--home", home, "search", "--json", "--", "-legacy", "parse") == 0
    assert '"b"' in cli.said().out
    assert cli.run("--home", home, "search", "--limt", "3", "pdf") != 0  # a typo'd option


def test_a_search_hit_whose_name_matched_still_shows_its_id(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = cli.load(
        '{"id": "git/fetch", "name": "fetch", "description": "download objects"}',
        '{"id": "web/fetch", "name": "fetch", "description": "download a page"}',
        '{"id": "fetcher", "name": "fetcher", "description": "fetch things"}',
    )
    monkeypatch.setenv("COLUMNS", "200")
    assert cli.run("--home", home, "search", "name:fetch") == 0
    lines = cli.said().out.splitlines()
    assert any("fetch (git/fetch)" in line for line in lines), lines
    assert any("fetch (web/fetch)" in line for line in lines), lines


def test_commands_on_one_artifact_read_its_real_world_name_as_show_does(cli: Cli) -> None:
    home = cli.load(
        '{"type": "Doc"}',
        '{"id": "Ant-Design-Components", "name": "Ant Design Components", "output_type": "Doc"}',
        '{"id": "reader", "name": "reader", "input_type": "Doc"}',
    )
    for command in ("show", "lineage", "compatible"):
        cli.said()
        assert cli.run("--home", home, command, "Ant Design Components") == 0, command
    assert "reader" in cli.said().out  # compatible: what takes its output
    assert cli.run("--home", home, "compatible", "reader") == 0
    assert "(it declares no output type)" in cli.said().out
    cli.said()
    assert cli.run("--home", home, "lineage", "Ant-Design-Component") == 1
    assert "did you mean Ant-Design-Components" in cli.said().err
    assert cli.run("--home", home, "remove", "Ant Design Components") == 0
    assert "Removed 1 version(s) of Ant Design Components" in cli.said().out


def test_an_unknown_import_format_is_a_usage_error(cli: Cli, tmp_path: Path) -> None:
    assert cli.run("--home", str(tmp_path / "h"), "import", "bogus", str(tmp_path)) == 2
    assert (
        "not one of mcp, mcp-registry, openapi, a2a, openai, jsonl, markdown, manifest"
        in cli.said().err
    )
    assert not (tmp_path / "h").exists()
