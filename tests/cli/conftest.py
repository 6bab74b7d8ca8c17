"""``lgent`` run in the test's process, as the console script runs it (``main()``)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from lgent.cli.app import main

if TYPE_CHECKING:
    from _pytest.capture import CaptureResult  # what readouterr() gives


@dataclass
class Cli:
    """The CLI of one test: its own folder, argv set for each call, its output captured."""

    folder: Path
    monkeypatch: pytest.MonkeyPatch
    capsys: pytest.CaptureFixture[str]

    def run(self, *args: str) -> int:
        """``lgent ARGS``; the exit code."""
        self.monkeypatch.setattr(sys, "argv", ["lgent", *args])
        with pytest.raises(SystemExit) as done:
            main()
        return int(done.value.code or 0)

    def said(self) -> CaptureResult[str]:
        """What was printed since the last call (``out``, ``err``)."""
        return self.capsys.readouterr()

    def load(self, *records: str) -> str:
        """A home with the JSON ``records`` loaded (one per line), the load's output consumed."""
        source = self.folder / "tools.jsonl"
        source.write_text("".join(f"{r}\n" for r in records), encoding="utf-8")
        home = str(self.folder / "home")
        assert self.run("--home", home, "load", str(source)) == 0
        self.said()
        return home


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path, monkeypatch, capsys)
