"""A load asked to stop while it reads (``cancelled()``, its task cancelled, the home closing)
raises LoadStoppedError and commits nothing; the CLI's Ctrl-C is in tests/cli/test_interrupts.py."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import pytest

from lgent import LGent
from lgent.catalog.loaders import read_path
from lgent.catalog.readers.base import Document, Located, ReadContext
from lgent.catalog.readers.jsonl import JsonlReader
from lgent.errors import LoadError, LoadStoppedError


def catalog_folder(root: Path, files: int, per_file: int = 1) -> Path:
    folder = root / "catalog"
    folder.mkdir()
    for f in range(files):
        lines = [
            json.dumps({"id": f"T{f:03d}x{i:04d}", "name": f"T{f:03d}x{i:04d}"})
            for i in range(per_file)
        ]
        (folder / f"part{f:03d}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_stopped_before_a_file_is_read(tmp_path: Path) -> None:
    folder = catalog_folder(tmp_path, 3)
    with pytest.raises(LoadStoppedError, match=r"^load stopped: nothing was committed \(0 of 3"):
        read_path(folder, cancelled=lambda: True)


def test_stopped_inside_a_long_file_at_its_next_progress_step(tmp_path: Path) -> None:
    folder = catalog_folder(tmp_path, 1, per_file=5000)  # the reader reports every 2,000 lines
    asked: list[int] = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 1  # yes from the first step inside the file on

    with pytest.raises(LoadStoppedError) as caught:
        read_path(folder, cancelled=cancelled)
    assert isinstance(caught.value, LoadError) and "(0 of 1 file(s) read)" in str(caught.value)


def test_a_stop_is_never_taken_for_a_bad_ecosystem_source(tmp_path: Path) -> None:
    spec = tmp_path / "api.json"
    paths = {f"/p{i}": {"get": {"operationId": f"op{i}"}} for i in range(450)}
    spec.write_text(
        json.dumps({"swagger": "2.0", "info": {"title": "T", "version": "1"}, "paths": paths})
    )
    steps: list[int] = []

    def cancelled() -> bool:
        steps.append(1)
        return len(steps) > 1

    with pytest.raises(LoadStoppedError, match=r"\(0 of 1 file"):  # not a source left out
        read_path(spec, cancelled=cancelled)


async def test_a_load_asked_to_stop_commits_nothing(tmp_path: Path) -> None:
    folder = catalog_folder(tmp_path, 2)
    async with LGent.open(tmp_path / "home") as lg:
        with pytest.raises(LoadStoppedError):
            await lg.load(folder, cancelled=lambda: True)
        assert await lg.count_entries() == 0
        report = await lg.load(folder, cancelled=lambda: False)
        assert len(report.result.added) == 2


async def test_cancelling_a_load_stops_its_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = catalog_folder(tmp_path, 100)
    reading = threading.Event()
    files_read: list[str] = []
    read = JsonlReader.read

    def slow_read(self: JsonlReader, doc: Document, ctx: ReadContext) -> list[Located]:
        reading.set()
        files_read.append(doc.source)
        time.sleep(0.02)
        return list(read(self, doc, ctx))

    monkeypatch.setattr(JsonlReader, "read", slow_read)
    async with LGent.open(tmp_path / "home") as lg:
        task = asyncio.create_task(lg.load(folder))
        await asyncio.to_thread(reading.wait, 30)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert len(files_read) < 100  # closing the home waited for the writer, which had stopped
    async with LGent.open(tmp_path / "home") as lg:
        assert await lg.count_entries() == 0
