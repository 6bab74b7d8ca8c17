"""Acceptance 3: a real MCP server (written with the mcp SDK) harvested over stdio with
`lgent import mcp --command ...`, its tools queried, and a second harvest after one tool changed
reporting exactly one update."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.cli.test_cli import lgent

pytestmark = pytest.mark.slow  # live MCP servers

SERVER = Path(__file__).resolve().parent / "tiny_mcp_server.py"


def harvest(home: Path, variant: str, *extra: str) -> dict[str, object]:
    """Harvest the tiny server as ``variant``, named ``tiny-shop`` here: the same command each
    time, the variant in a file beside the home (a changed command would change every tool's
    launch), and the name keeps it one source (its owner)."""
    chosen = home.parent / "variant"
    chosen.write_text(variant, encoding="utf-8")
    command = f"{sys.executable} {SERVER} {chosen}"
    done = lgent(
        home, "import", "mcp", "--command", command, "--name", "tiny-shop", *extra, "--json"
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_harvest_query_and_reharvest_one_update(tmp_path: Path) -> None:
    home = tmp_path / "H"
    first = harvest(home, "v1")
    first["changed"]["added"].sort()  # type: ignore[index]
    assert first["changed"] == {
        "added": [
            "tiny-shop",
            "tiny-shop/cancel_order",
            "tiny-shop/list_orders",
            "tiny-shop/lookup_order",
        ],
        "updated": [],
        "retired": [],
    }
    lookup = json.loads(lgent(home, "show", "tiny-shop/lookup_order", "--json").stdout)
    assert (lookup["input_type"], lookup["output_type"]) == ("json.string", "tiny-shop.Order")
    assert lookup["contracts"] == ["read-only"] and lookup["version"] == "1.0.0"
    cancel = json.loads(lgent(home, "show", "tiny-shop/cancel_order", "--json").stdout)
    assert cancel["contracts"] == ["destructive"]

    found = json.loads(lgent(home, "search", "cancel order", "--json").stdout)
    assert found["hits"][0]["id"] == "tiny-shop/cancel_order"
    producers = lgent(home, "compatible", "tiny-shop/list_orders", "--upstream", "--json")
    assert json.loads(producers.stdout) == []  # nothing feeds a tool without inputs

    assert harvest(home, "v1")["changed"] == {"added": [], "updated": [], "retired": []}
    dry = harvest(home, "v2", "--dry-run")
    assert dry["changed"] == {"added": [], "updated": ["tiny-shop/cancel_order"], "retired": []}
    second = harvest(home, "v2")
    assert second["changed"] == dry["changed"] and second["unchanged"] == 3
    shown = json.loads(lgent(home, "show", "tiny-shop/cancel_order", "--json").stdout)
    assert shown["history"] == ["1.0.0", "1.0.0+r2"] and "refunds" in shown["description"]


def test_a_server_that_does_not_speak_mcp_is_a_clear_error(tmp_path: Path) -> None:
    command = f"{sys.executable} -c \"print('hello'); import time; time.sleep(0.5)\""
    done = lgent(tmp_path / "H", "import", "mcp", "--command", command, "--timeout", "20")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: MCP server")
    missing = lgent(tmp_path / "H", "import", "mcp", "--command", "/no/such/server")
    assert missing.returncode == 1 and "No such file" in missing.stderr
