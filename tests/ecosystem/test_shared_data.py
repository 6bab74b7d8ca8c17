"""Acceptance 1 and 2 on the real data in ../shared/ecosystem, read in place: every MCP tool and
server, every operation of every Swagger spec, and graph questions answered on imported specs
without a hand-written type."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from lgent import LGent
from lgent.models import EntityType
from tests.cli.test_cli import lgent

METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def test_every_mcp_tool_and_server_loads(mcp_tools: Path) -> None:
    async def load() -> tuple[dict[str, int], int]:
        async with LGent.open(None) as lg:
            report = await lg.load(mcp_tools)
            assert report.rejected == [] and report.result.retired == []
            stats = await lg.stats()
            return stats["by_entity_type"], len(report.result.added)

    by_type, added = asyncio.run(load())
    assert by_type == {EntityType.OTHER.value: 70, EntityType.TOOL.value: 527}
    assert added == 597


def operations_of(spec: Path) -> int:
    paths = json.loads(spec.read_text(encoding="utf-8")).get("paths") or {}
    return sum(1 for item in paths.values() for method in item if method in METHODS)


@pytest.mark.slow  # the whole Swagger archive
def test_every_operation_of_every_swagger_spec(swagger_specs: Path, tmp_path: Path) -> None:
    specs = sorted(swagger_specs.rglob("*.json"))
    assert len(specs) == 567
    expected = sum(operations_of(s) for s in specs)

    async def load() -> tuple[int, int, list[tuple[str, str]]]:
        async with LGent.open(tmp_path / "H") as lg:
            report = await lg.load(swagger_specs)
            stats = await lg.stats()
            return (
                stats["by_entity_type"]["tool"],
                stats["by_entity_type"]["other"],
                report.rejected,
            )

    operations, apis, rejected = asyncio.run(load())
    assert rejected == []
    assert (operations, apis) == (expected, 567)


@pytest.mark.slow  # the whole Swagger archive
def test_a_spec_that_cannot_be_read_is_named_and_the_rest_committed(
    swagger_specs: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "specs"
    good = [swagger_specs / "getsandbox.com" / "v1.json", swagger_specs / "waag.org" / "v1.json"]
    for spec in good:
        (folder / spec.parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copy(spec, folder / spec.parent.name / "v1.json")
    broken = folder / "broken" / "v1.json"
    broken.parent.mkdir()
    broken.write_text((swagger_specs / "zoomconnect.com" / "1.json").read_text()[:5000])
    done = lgent(tmp_path / "H", "import", "openapi", str(folder), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [r["path"] for r in report["rejected"]] == [str(broken)]
    assert "invalid JSON" in report["rejected"][0]["reason"]
    stats = json.loads(lgent(tmp_path / "H", "stats", "--json").stdout)
    assert stats["artifacts"] == sum(operations_of(s) for s in good) + len(good)
    assert lgent(tmp_path / "H", "show", "zoomconnect.com").returncode == 1


@pytest.mark.slow  # the whole Swagger archive
def test_graph_questions_on_imported_specs(swagger_specs: Path, tmp_path: Path) -> None:
    folder = tmp_path / "specs"
    folder.mkdir()
    for name in ("googleapis.com/licensing/v1.json", "getsandbox.com/v1.json"):
        shutil.copy(swagger_specs / name, folder / (name.split("/")[-2] + ".json"))
    home = tmp_path / "H"
    assert lgent(home, "load", str(folder)).returncode == 0
    insert = "googleapis.com/licensing/licensing.licenseAssignments.insert"
    op = json.loads(lgent(home, "show", insert, "--json").stdout)
    taken, given = op["input_type"], op["output_type"]
    assert (taken, given) == (
        "googleapis.com_licensing.LicenseAssignmentInsert",
        "googleapis.com_licensing.LicenseAssignment",
    )  # both derived from the spec's named schemas

    resolved = json.loads(
        lgent(home, "resolve", "--input", taken, "--output", given, "--json").stdout
    )
    assert resolved["best"]["id"] == insert and resolved["best"]["status"] == "active"

    consumers = json.loads(lgent(home, "compatible", insert, "--json").stdout)
    assert {c["id"] for c in consumers} == {
        "googleapis.com/licensing/licensing.licenseAssignments.patch",
        "googleapis.com/licensing/licensing.licenseAssignments.update",
    }
    paths = json.loads(lgent(home, "path", taken, given, "--max-length", "2", "--json").stdout)
    two_step = [p["ids"] for p in paths if len(p["ids"]) == 2]
    assert [insert, "googleapis.com/licensing/licensing.licenseAssignments.update"] in two_step
    assert all(i.startswith("googleapis.com/licensing/") for p in paths for i in p["ids"])

    sandbox = json.loads(lgent(home, "compatible", "getsandbox.com/createSandbox", "--json").stdout)
    assert "getsandbox.com/updateSandbox" in {c["id"] for c in sandbox}
    # an operation whose output is a primitive chains to nothing
    strings = [c for c in consumers if c["input_type"].startswith("json.")]
    assert strings == []
