"""Acceptance 4: re-importing an edited OpenAPI file is a sync with an exact report; the history
keeps the older versions; doctor is clean afterwards. Plus --dry-run writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import lgent
from tests.ecosystem.test_readers import OPENAPI_31

EDITED = OPENAPI_31.replace(
    "operationId: addAnimal", "operationId: addAnimal\n      summary: Add one"
).replace(
    """  /animals/{id}:
    delete:
      deprecated: true
      parameters:
        - {name: id, in: path, required: true, schema: {type: [integer, 'null']}}
      responses:
        '204': {description: gone}
""",
    """  /animals/{id}:
    get:
      operationId: getAnimal
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Animal'}
""",
)


def report(home: Path, *args: str) -> dict[str, object]:
    done = lgent(home, *args, "--json")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.real_model
def test_reimport_reports_the_exact_diff_keeps_history_and_doctor_is_clean(tmp_path: Path) -> None:
    home, spec = tmp_path / "H", tmp_path / "zoo.yaml"
    spec.write_text(OPENAPI_31)
    first = report(home, "import", "openapi", str(spec))
    assert first["added"] == 4 and first["retired"] == 0
    again = report(home, "load", str(spec))
    assert (again["added"], again["updated"], again["unchanged"]) == (0, 0, 4)

    spec.write_text(EDITED)
    before = report(home, "stats")["change_number"]
    dry = report(home, "load", str(spec), "--dry-run")
    assert dry["dry_run"] is True
    assert dry["changed"] == {
        "added": ["zoo/getAnimal"],
        "updated": ["zoo/addAnimal"],
        "retired": ["zoo/delete/animals/id"],
    }
    assert dry["unchanged"] == 2  # the API itself (still 3 operations) and listAnimals
    assert report(home, "stats")["change_number"] == before  # nothing written

    synced = report(home, "import", "openapi", str(spec))
    assert synced["changed"] == dry["changed"] and synced["dry_run"] is False
    added = report(home, "show", "zoo/addAnimal")
    assert added["history"] == ["2.1.0", "2.1.0+r2"] and added["version"] == "2.1.0+r2"
    assert added["description"].startswith("Add one")
    from lgent.catalog.store import CatalogStore

    with CatalogStore(home / "catalog.db") as store:  # the older version is still there
        assert not store.get("zoo/addAnimal", "2.1.0").description.startswith("Add one")
    retired = report(home, "show", "zoo/delete/animals/id")
    assert retired["status"] == "retired" and retired["history"] == ["2.1.0"]

    assert lgent(home, "reindex").returncode == 0
    checks = json.loads(lgent(home, "doctor", "--json").stdout)
    assert [c for c in checks if c["level"] != "ok"] == []
