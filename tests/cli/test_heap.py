"""A one-shot read runs with one malloc arena and a low trim threshold; other commands do not."""

from __future__ import annotations

import gc
import platform
import subprocess
import sys

import pytest

from lgent.cli import app


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_compact_heap_sets_the_options_on_glibc() -> None:
    """In a process of its own: the options last as long as the process."""
    code = "from lgent.cli.heap import compact_heap; print(compact_heap())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"


@pytest.mark.parametrize(
    ("argv", "compacted"),
    [
        (["query", "send a message"], True),
        (["--home", "h", "show", "x"], True),
        (["query", "x", "--wait"], False),
        (["load", "catalog.jsonl"], False),
        (["serve"], False),
    ],
)
def test_only_one_shot_reads_compact_the_heap(
    argv: list[str], compacted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[bool] = []
    monkeypatch.setattr(app, "compact_heap", lambda: calls.append(True) or True)
    monkeypatch.setattr(app, "main", lambda: None)
    monkeypatch.setattr("sys.argv", ["lgent", *argv])
    try:
        app.console_main()
    finally:
        gc.enable()
        gc.unfreeze()
    assert calls == ([True] if compacted else [])
