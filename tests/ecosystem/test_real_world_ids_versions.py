"""Acceptance 5: real-world versions and ids load; an id with spaces is found by its name."""

from __future__ import annotations

import json
from pathlib import Path

from lgent.catalog.loaders import read_path
from lgent.catalog.store import CatalogStore
from tests.cli.test_cli import lgent


def test_versions_of_every_form_load_and_order(tmp_path: Path) -> None:
    f = tmp_path / "v.jsonl"
    versions = ["1.1.0a8", "2.0.post1", "2024.06.1", "v3.0.0", "nightly build", "1.1.0"]
    f.write_text(
        "".join(json.dumps({"id": "T", "name": "T", "version": v}) + "\n" for v in versions)
    )
    batch = read_path(f)
    assert [e.version for e in batch.entries] == versions
    with CatalogStore(None) as store:
        store.register_batch(batch.entries)
        assert store.versions("T") == [
            "nightly build",
            "1.1.0a8",
            "1.1.0",
            "2.0.post1",
            "v3.0.0",
            "2024.06.1",
        ]
        assert store.get("T").version == "2024.06.1"


def test_id_with_spaces_is_found_by_show_with_its_original_name(tmp_path: Path) -> None:
    f = tmp_path / "ids.jsonl"
    records = [
        {"id": "Ant Design Components", "description": "Ant Design docs", "version": "1.1.0a8"},
        {"id": "天气 查询", "name": "Weather lookup", "version": "2024.06.1"},
        {
            "id": "Caller",
            "name": "Caller",
            "version": "nightly",
            "relations": [{"type": "depends_on", "target": "Ant Design Components"}],
        },
    ]
    f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    home = tmp_path / "H"
    loaded = lgent(home, "load", str(f), "--json")
    assert loaded.returncode == 0, loaded.stderr
    assert json.loads(loaded.stdout)["added"] == 3
    shown = lgent(home, "show", "Ant Design Components", "--json")
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert (data["id"], data["name"], data["version"]) == (
        "Ant-Design-Components",
        "Ant Design Components",
        "1.1.0a8",
    )
    unicode = json.loads(lgent(home, "show", "天气 查询", "--json").stdout)
    assert (unicode["id"], unicode["name"]) == ("天气-查询", "Weather lookup")
    caller = json.loads(lgent(home, "show", "Caller", "--json").stdout)
    assert caller["relations"] == [{"type": "depends_on", "target": "Ant-Design-Components"}]
    assert "warning" not in loaded.stderr
