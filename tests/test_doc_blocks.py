"""The docs test's reading of Markdown: fences, tags, shell lines, expected output."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.doc_blocks import command_steps, expected_matches, read_blocks, shell_commands

PAGE = """\
# Title

```python
print("hi")
```

```bash no-test
lgent serve --mcp
```

```console
$ lgent query pdf \\
    --limit 2
Understood 'pdf' as ...
...
  2. PDFParser_v2 ...
$ lgent stats
```

```jsonl file=my.jsonl
{"id": "a", "name": "A"}
```
"""


def test_blocks_tags_and_steps(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    python, served, console, jsonl = read_blocks(page, tmp_path)
    assert (python.id, python.language, [s.kind for s in python.steps]) == (
        "page.md:3",
        "python",
        ["python"],
    )
    assert served.skipped and served.steps == ()
    query, stats = console.steps
    assert query.argv == ("query", "pdf", "--limit", "2")
    assert query.expected == ("Understood 'pdf' as ...", "...", "  2. PDFParser_v2 ...")
    assert stats.argv == ("stats",) and stats.expected == ()
    assert [(s.kind, s.reason) for s in jsonl.steps] == [("file", "my.jsonl")]


def test_an_unclosed_fence_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```bash\nlgent stats\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"page\.md:1: unclosed"):
        read_blocks(page, tmp_path)


def test_chained_commands_split_and_set_up_is_skipped() -> None:
    steps = command_steps(
        "python3 -m venv .venv && .venv/bin/pip install -c constraints.txt -e '.[dev]' && "
        ".venv/bin/lgent --home .lgent query 'a b' -c 'latency < 2s'",
        1,
        [],
    )
    assert [s.kind for s in steps] == ["skip", "skip", "cli"]
    assert steps[2].argv == ("--home", ".lgent", "query", "a b", "-c", "latency < 2s")


def test_curl_error_marker_and_unknown_commands() -> None:
    (curl,) = command_steps("curl -s http://127.0.0.1:8765/health  # -> 404", 3, [])
    assert curl.kind == "curl" and curl.expect_error
    with pytest.raises(ValueError, match="only lgent and curl"):
        command_steps("rm -rf /", 4, [])
    with pytest.raises(ValueError, match="pipes"):
        command_steps("lgent query pdf --json | jq .", 5, [])


def test_comments_and_blank_lines_are_not_commands() -> None:
    assert shell_commands("# a comment\n\nlgent stats\n", "bash", 10) == [(12, "lgent stats", [])]


@pytest.mark.parametrize(
    ("expected", "missing"),
    [
        (["a ... c", "...", "e"], None),
        (["e", "a ... c"], "a ... c"),  # order matters
        (["a b c"], None),
        (["x"], "x"),
    ],
)
def test_expected_output_matching(expected: list[str], missing: str | None) -> None:
    assert expected_matches(expected, "a b c\nd\ne\n") == missing
