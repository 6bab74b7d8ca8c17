"""Acceptance 6: every malformed input class gives a typed error or a bounded import, never a
traceback or a hang (each CLI run is bounded by the subprocess timeout)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_cli import lgent


def spec(operations: int, description: str = "", **extra: Any) -> dict[str, Any]:
    paths = {
        f"/items{i}": {
            "get": {
                "operationId": f"get{i}",
                "description": description,
                "responses": {
                    "200": {"description": "ok", "schema": {"$ref": "#/definitions/Item"}}
                },
            }
        }
        for i in range(operations)
    }
    return {
        "swagger": "2.0",
        "info": {"title": "Big", "version": "1.0"},
        "paths": paths,
        "definitions": {"Item": {"type": "object"}, **extra},
    }


def run(home: Path, *args: str) -> tuple[int, dict[str, Any] | None, str]:
    done = lgent(home, *args, "--json")
    assert "Traceback" not in done.stderr, done.stderr
    data = json.loads(done.stdout) if done.stdout.strip() else None
    if done.returncode != 0 and data is not None and "error" in data:
        assert data["error"]["type"] == "LoadError"  # with --json an error is JSON too
        return done.returncode, None, data["error"]["message"]
    return done.returncode, data, done.stderr  # a report (exit 1 when every source failed)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("broken.json", '{"openapi": "3.0.0", "paths": {', "invalid JSON"),
        ("broken.yaml", "openapi: 3.0.0\npaths: [unclosed\n", "invalid YAML"),
    ],
)
def test_broken_json_or_yaml(tmp_path: Path, name: str, text: str, message: str) -> None:
    f = tmp_path / name
    f.write_text(text)
    code, _, stderr = run(tmp_path / "H", "load", str(f))
    assert code == 1 and message in stderr and f"{f}:" in stderr  # a typed LoadError, file:line
    code, data, _ = run(tmp_path / "H", "import", "openapi", str(f))
    assert code == 1 and data is not None  # the only source is left out, named, and it shows
    assert data["rejected"][0]["path"] == str(f) and message in data["rejected"][0]["reason"]
    assert data["added"] == 0


def test_ref_cycle_and_ref_to_nowhere_import_without_those_types(tmp_path: Path) -> None:
    doc = spec(2, A={"$ref": "#/definitions/B"}, B={"$ref": "#/definitions/A"})
    doc["paths"]["/items0"]["get"]["responses"]["200"]["schema"] = {"$ref": "#/definitions/A"}
    doc["paths"]["/items1"]["get"]["responses"]["200"]["schema"] = {"$ref": "#/definitions/Nope"}
    f = tmp_path / "refs.json"
    f.write_text(json.dumps(doc))
    code, data, _ = run(tmp_path / "H", "load", str(f))
    assert code == 0 and data is not None and data["added"] == 3
    warnings = "\n".join(data["warnings"])
    assert f"{f}#/paths/~1items0/get/responses/200/schema: $ref cycle" in warnings
    assert (
        f"{f}#/paths/~1items1/get/responses/200/schema: $ref '#/definitions/Nope' points to nowhere"
        in warnings
    )
    shown = json.loads(lgent(tmp_path / "H", "show", "refs/get0", "--json").stdout)
    assert "output_type" not in shown


@pytest.mark.slow  # a very large input
def test_a_50_mb_spec_imports(tmp_path: Path) -> None:
    f = tmp_path / "huge.json"
    f.write_text(json.dumps(spec(2000, "x" * 25_000)))
    assert f.stat().st_size > 50_000_000
    code, data, _ = run(tmp_path / "H", "import", "openapi", str(f))
    assert code == 0 and data is not None and data["added"] == 2001
    shown = json.loads(lgent(tmp_path / "H", "show", "huge/get7", "--json").stdout)
    assert len(shown["description"]) == 20_000  # cut at the description limit


@pytest.mark.slow  # a very large input
def test_a_50_mb_yaml_spec_is_refused_with_the_limit(tmp_path: Path) -> None:
    f = tmp_path / "huge.yaml"
    f.write_text(
        "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\nx-pad: " + "y" * 50_000_000
    )
    code, data, _ = run(tmp_path / "H", "import", "openapi", str(f))
    assert code == 1 and data is not None
    assert "over the 10 MB limit for YAML" in data["rejected"][0]["reason"]
    code, _, stderr = run(tmp_path / "H", "load", str(f))
    assert code == 1 and "over the 10 MB limit for YAML" in stderr


@pytest.mark.slow  # a very large input
def test_a_spec_with_10000_operations_imports_every_one(tmp_path: Path) -> None:
    f = tmp_path / "wide.json"
    f.write_text(json.dumps(spec(10_000)))
    code, data, _ = run(tmp_path / "H", "load", str(f))
    assert code == 0 and data is not None and data["added"] == 10_001
    again = lgent(tmp_path / "H", "compatible", "wide/get9999", "--json")
    assert again.returncode == 0 and json.loads(again.stdout) == []  # Item feeds nothing here
