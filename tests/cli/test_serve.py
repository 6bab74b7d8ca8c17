"""`lgent serve`: flag checking and what it hands the servers (the servers have their own tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lgent.cli.app import app
from lgent.cli.progress import StderrBuildProgress


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Replace both servers' entry points with recorders."""
    import lgent.http.app
    import lgent.mcp.server

    calls: dict[str, Any] = {}

    def recorder(name: str) -> Any:
        def record(home: str, **kw: Any) -> None:
            # build progress goes to stderr (the servers' stdout may carry the protocol)
            assert isinstance(kw.pop("progress"), StderrBuildProgress)
            calls[name] = (Path(home), kw)

        return record

    monkeypatch.setattr(lgent.mcp.server, "run_stdio", recorder("mcp"))
    monkeypatch.setattr(lgent.http.app, "run_http", recorder("http"))
    return calls


def test_http_is_loopback_and_read_only_by_default(started: dict[str, Any], tmp_path: Path) -> None:
    assert CliRunner().invoke(app, ["--home", str(tmp_path), "init"]).exit_code == 0
    result = CliRunner().invoke(app, ["--home", str(tmp_path), "serve", "--http"])
    assert result.exit_code == 0, result.output
    assert started == {
        "http": (tmp_path, {"host": "127.0.0.1", "port": 8765, "allow_writes": False})
    }


def test_a_read_only_server_needs_a_catalog(started: dict[str, Any], tmp_path: Path) -> None:
    empty = tmp_path / "nothing"
    for flag in ("--http", "--mcp"):
        result = CliRunner().invoke(app, ["--home", str(empty), "serve", flag])
        assert result.exit_code == 1 and "no catalog at" in result.output
    assert started == {} and not empty.exists()


def test_flags_reach_the_servers(started: dict[str, Any], tmp_path: Path) -> None:
    runner = CliRunner()
    assert (
        runner.invoke(app, ["--home", str(tmp_path), "serve", "--mcp", "--allow-writes"]).exit_code
        == 0
    )
    args = [
        "--home",
        str(tmp_path),
        "serve",
        "--http",
        "--host",
        "0.0.0.0",
        "--port",
        "9000",
        "--allow-writes",
    ]
    assert runner.invoke(app, args).exit_code == 0
    assert started == {
        "mcp": (tmp_path, {"allow_writes": True}),
        "http": (tmp_path, {"host": "0.0.0.0", "port": 9000, "allow_writes": True}),
    }


def test_a_shared_catalog_reaches_the_servers(started: dict[str, Any], tmp_path: Path) -> None:
    url = "postgresql://lgent@db.internal/catalog"
    for transport in ("--mcp", "--http"):
        args = ["--home", str(tmp_path), "--catalog", url, "serve", transport]
        assert CliRunner().invoke(app, args).exit_code == 0
    assert started["mcp"] == (tmp_path, {"allow_writes": False, "catalog": url})
    assert started["http"][1]["catalog"] == url


@pytest.mark.parametrize("flags", [[], ["--mcp", "--http"]])
def test_exactly_one_transport(started: dict[str, Any], tmp_path: Path, flags: list[str]) -> None:
    result = CliRunner().invoke(app, ["--home", str(tmp_path), "serve", *flags])
    assert result.exit_code == 2
    assert "exactly one of --mcp or --http" in result.output
    assert started == {}


def test_neither_import_lgent_nor_the_cli_loads_a_server_framework() -> None:
    import json
    import subprocess
    import sys

    code = (
        "import json, sys; import lgent, lgent.cli.app, lgent.mcp, lgent.http\n"
        "frameworks = ('mcp', 'fastapi', 'starlette', 'uvicorn')\n"
        "print(json.dumps([m for m in frameworks if m in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []
