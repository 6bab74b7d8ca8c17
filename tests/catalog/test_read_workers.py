"""A large folder's ecosystem sources are read in worker processes (``read_workers``): the
batch is the one a read in one process gives, problems are raised or left out as there, a stop
is taken between sources, and a worker that dies only costs time."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from lgent.catalog import loaders
from lgent.catalog.read_workers import MIN_BYTES, ReadWorkers, worker_count
from lgent.errors import LoadError, LoadStoppedError
from lgent.models import CatalogEntry

CATALOG_FIXTURES = Path(__file__).resolve().parents[2] / "catalog_fixtures"


def spec(title: str, operations: int, *, about: str = "") -> str:
    paths = {
        f"/things/{i}": {
            "get": {
                "operationId": f"getThing{i}",
                "summary": f"Get the thing {i} {about}",
                "parameters": [
                    {"name": "email", "in": "query", "type": "string", "format": "email"},
                    {"name": "latitude", "in": "query", "type": "number"},
                    {"name": "longitude", "in": "query", "type": "number"},
                ],
                "responses": {"200": {"description": "the thing's web page URL"}},
            }
        }
        for i in range(operations)
    }
    info = {"title": title, "version": "1"}
    return json.dumps({"swagger": "2.0", "info": info, "paths": paths})


def mixed_folder(root: Path) -> Path:
    """Specs, a native catalog file and type declarations, a spec an OpenAPI reader refuses,
    a file no reader takes, an MCP tool list."""
    folder = root / "mixed"
    folder.mkdir()
    for n in range(6):
        (folder / f"api{n}.json").write_text(spec(f"Api {n}", 5 + n, about=f"number {n}"))
    (folder / "broken.json").write_text('{"swagger": "2.0", "info": {"title": "B"}, "paths": 5}')
    (folder / "notes.md").write_text("# Notes\n\nNo front matter.\n")
    (folder / "zz-types.jsonl").write_text((CATALOG_FIXTURES / "types.jsonl").read_text())
    shutil.copy(CATALOG_FIXTURES / "artifacts" / "code.jsonl", folder / "code.jsonl")
    tools = {
        "tools": [
            {
                "name": "send_mail",
                "description": "Send an email to one address.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"to": {"type": "string", "format": "email"}},
                },
            }
        ]
    }
    (folder / "mail-server.json").write_text(json.dumps(tools))
    return folder


def _shape(batch: loaders.LoadedBatch) -> tuple[object, ...]:
    records = [(r.record, r.source, r.line, r.pointer) for r in batch.records]
    return (
        records,
        batch.files,
        batch.skipped,
        batch.rejected,
        batch.warnings,
        batch.formats,
        batch.synced,
        batch.wholes,
        batch.entry_sources,
        batch.kind_types,
    )


@pytest.fixture
def two_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loaders, "worker_count", lambda files, size: 2)


def read_alone(folder: Path, monkeypatch: pytest.MonkeyPatch) -> loaders.LoadedBatch:
    with monkeypatch.context() as patch:
        patch.setattr(loaders, "worker_count", lambda files, size: 0)
        return loaders.read_path(folder)


def test_workers_read_what_one_process_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, two_workers: None
) -> None:
    folder = mixed_folder(tmp_path)
    alone = read_alone(folder, monkeypatch)
    progress: list[tuple[int, int]] = []
    apart = loaders.read_path(folder, lambda done, total, _f: progress.append((done, total)))
    assert _shape(apart) == _shape(alone)
    # the kinds were inferred in the workers as here, and the sources left out are named
    kinds = [r.record.kinds for r in apart.records if isinstance(r.record, CatalogEntry)]
    kinds = [k for k in kinds if k]
    assert len(kinds) > 20
    rejected = dict(apart.rejected)
    assert set(rejected) == {str(folder / "broken.json")}
    assert progress[-1][0] == progress[-1][1] and len(progress) % 11 == 0  # a call per file


def test_a_native_problem_is_raised_as_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, two_workers: None
) -> None:
    folder = mixed_folder(tmp_path)
    (folder / "bad.jsonl").write_text('{"id": "x"}\n{"name": "no id"}\n')
    (folder / "cut.json").write_text('{"swagger": "2.0", "paths": {')
    (folder / "latin1.json").write_bytes(spec("Café", 2).replace("é", "\xe9").encode("latin-1"))
    with pytest.raises(LoadError) as alone:
        read_alone(folder, monkeypatch)
    with pytest.raises(LoadError) as apart:
        loaders.read_path(folder)
    assert str(apart.value) == str(alone.value) and "bad.jsonl" in str(apart.value)


def test_a_stop_is_taken_between_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, two_workers: None
) -> None:
    folder = mixed_folder(tmp_path)
    asked: list[int] = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 4

    with pytest.raises(LoadStoppedError, match=r"nothing was committed \(\d+ of 11 file"):
        loaders.read_path(folder, cancelled=cancelled)


def test_workers_that_die_leave_their_sources_to_the_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, two_workers: None
) -> None:
    folder = mixed_folder(tmp_path)
    alone = read_alone(folder, monkeypatch)
    monkeypatch.setattr(ReadWorkers, "COMMAND", (sys.executable, "-c", "raise SystemExit(3)"))
    assert _shape(loaders.read_path(folder)) == _shape(alone)


def test_only_a_large_folder_on_several_cores_gets_workers() -> None:
    assert worker_count(500, MIN_BYTES - 1) == 0
    assert worker_count(1, MIN_BYTES * 10) == 0
    many = worker_count(500, MIN_BYTES)
    assert many == 0 or 2 <= many <= 4  # none on a single core
