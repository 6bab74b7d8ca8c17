"""The traps a new user fell into with the CLI (issue 19), each driven as a user runs it (in
this process, through the console script's ``main``).

Every test here failed on the CLI before the fix: a read command that created an empty home, an
empty catalog answering "No results.", a shell-expanded ``???``, unchecked pipeline steps, scores
out of the order shown, results without health flags, a total that moved with ``--limit``, no
``--offset``, unwrapped text, names printed twice, ``--json`` errors as text on stderr,
``--home`` refused after the command, no ``--version``, ``doctor`` passing a broken
``lgent.toml``, ``show`` without the successor or a "did you mean".
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from lgent import __version__
from tests.cli.inprocess import run_cli

CATALOG = [
    {"type": "Document"},
    {"type": "PDF", "subtype_of": ["Document"]},
    {
        "id": "PDFParser",
        "name": "PDFParser",
        "status": "deprecated",
        "input_type": "PDF",
        "output_type": "Document",
        "success_rate": 0.7,
        "version": "1.0.0",
    },
    {
        "id": "PDFParser_v2",
        "name": "PDFParser_v2",
        "input_type": "PDF",
        "output_type": "Document",
        "success_rate": 0.9,
        "relations": [{"type": "successor_to", "target": "PDFParser"}],
        "version": "2.0.0",
    },
]


def run(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``lgent ARGS`` exactly as typed (no --home added), through the console script's code, in
    this process (``tests/cli/inprocess.py``)."""
    return run_cli(*args, cwd=cwd, env=env)


@pytest.fixture(scope="module")
def loaded_small_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``CATALOG`` loaded by ``lgent load``, once for the module (tests get a copy)."""
    folder = tmp_path_factory.mktemp("small")
    source = folder / "catalog.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in CATALOG))
    home = folder / "small"
    assert run("--home", str(home), "load", str(source)).returncode == 0
    return home


@pytest.fixture
def small_home(loaded_small_home: Path, tmp_path: Path) -> Path:
    """A home of this test's own holding ``CATALOG``."""
    return Path(shutil.copytree(loaded_small_home, tmp_path / "small"))


# -- a home is never created by a read -----------------------------------------------------------

READS = [
    ["query", "pdf"],
    ["search", "pdf"],
    ["show", "PDFParser"],
    ["list"],
    ["stats"],
    ["fill", "PDF", "???", "Document"],
    ["lineage", "PDFParser"],
    ["path", "PDF", "Document"],
    ["serve", "--http", "--port", "0"],
]


@pytest.mark.parametrize("command", READS, ids=lambda c: c[0])
def test_a_read_command_in_the_wrong_folder_creates_nothing(
    tmp_path: Path, command: list[str]
) -> None:
    done = run(*command, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "no catalog at .lgent; create one with `lgent --home .lgent load PATH`" in done.stderr
    assert not (tmp_path / ".lgent").exists()


def test_an_empty_catalog_says_so(tmp_path: Path) -> None:
    home = tmp_path / "empty"
    assert run("--home", str(home), "init").returncode == 0
    for command in (["query", "pdf"], ["search", "pdf"]):
        done = run("--home", str(home), *command)
        assert done.returncode == 1
        assert f"the catalog at {home} is empty" in done.stderr
    listed = run("--home", str(home), "list")
    said = " ".join(listed.stdout.split())
    assert listed.returncode == 0 and f"The catalog at {home} is empty" in said


# -- fill -------------------------------------------------------------------------------------


def test_fill_spots_a_shell_expanded_hole(small_home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "doc").write_text("")
    # what `lgent fill PDF ??? Document` becomes in a folder holding a file named "doc"
    done = run("--home", str(small_home), "fill", "PDF", "doc", "Document", cwd=folder)
    assert done.returncode == 1
    assert "has no ??? hole to fill" in done.stderr
    assert "'doc' is a file in this folder" in done.stderr and "quote it: '???'" in done.stderr


def test_fill_checks_every_step(small_home: Path) -> None:
    done = run("--home", str(small_home), "fill", "PDF", "???", "Document", "Documnet")
    assert done.returncode == 1
    assert "pipeline step 3 ('Documnet') is neither a known type nor an artifact id" in done.stderr
    assert "did you mean Document" in done.stderr


# -- show -------------------------------------------------------------------------------------


def test_show_names_the_successor_and_suggests_close_ids(small_home: Path) -> None:
    shown = run("--home", str(small_home), "show", "PDFParser")
    assert shown.returncode == 0
    assert re.search(r"replaced by\s+PDFParser_v2", shown.stdout)
    assert re.search(r"health\s+unhealthy: deprecated, use PDFParser_v2", shown.stdout)
    record = json.loads(run("--home", str(small_home), "show", "PDFParser", "--json").stdout)
    assert record["successors"] == ["PDFParser_v2"]
    missing = run("--home", str(small_home), "show", "PDFParsr")
    assert missing.returncode == 1
    assert "no artifact with id 'PDFParsr'; did you mean PDFParser, PDFParser_v2?" in missing.stderr


# -- errors, options, version, doctor ----------------------------------------------------------


def test_json_errors_are_json_on_stdout(small_home: Path, tmp_path: Path) -> None:
    missing = run("--home", str(small_home), "show", "Nope", "--json")
    assert missing.returncode == 1 and missing.stderr == ""
    error = json.loads(missing.stdout)["error"]
    assert error["type"] == "NotFoundError" and "no artifact with id 'Nope'" in error["message"]
    nowhere = run("stats", "--json", cwd=tmp_path)
    assert nowhere.returncode == 1 and json.loads(nowhere.stdout)["error"]["type"] == "CatalogError"
    bad = run("--home", str(small_home), "list", "--type", "robot", "--json")
    assert (
        bad.returncode == 2
        and "'robot' is not one of" in json.loads(bad.stdout)["error"]["message"]
    )


@pytest.mark.parametrize(
    ("args", "kind", "says"),
    [
        (("query", "--json", "--limit", "abc", "pdf"), "BadParameter", "'--limit'"),
        (("query", "--json", "--bogus", "pdf"), "NoSuchOption", "--bogus"),
        (("query", "--json"), "MissingParameter", "QUERY"),
        (("list", "--json", "--offset"), "BadOptionUsage", "--offset"),
    ],
)
def test_json_usage_errors_are_json_on_stdout(
    small_home: Path, args: tuple[str, ...], kind: str, says: str
) -> None:
    """An agent that asks for JSON gets JSON back even when click refuses the command line."""
    done = run("--home", str(small_home), *args)
    assert done.returncode == 2 and done.stderr == ""
    error = json.loads(done.stdout)["error"]
    assert error["type"] == kind and says in error["message"]


def test_json_as_query_text_is_no_option(small_home: Path) -> None:
    done = run("--home", str(small_home), "query", "--limit", "abc", "--", "--json")
    assert done.returncode == 2 and done.stdout == "" and "'--limit'" in done.stderr


def test_global_options_after_the_command(small_home: Path, tmp_path: Path) -> None:
    done = run("stats", "--json", "--home", str(small_home), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["artifacts"] == 2
    also = run("list", f"--home={small_home}", "--json", cwd=tmp_path)
    assert [e["id"] for e in json.loads(also.stdout)] == ["PDFParser", "PDFParser_v2"]
    assert not (tmp_path / ".lgent").exists()


def test_version() -> None:
    for args in (["--version"], ["stats", "--version"]):
        done = run(*args)
        assert done.returncode == 0 and done.stdout.strip() == f"lgent {__version__}"


def test_a_command_keeps_its_own_version_option(small_home: Path) -> None:
    """``--version`` is hoisted to the root only for commands without one of their own."""
    done = run("show", "PDFParser", "--version", "1.0.0", "--json", f"--home={small_home}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["version"] == "1.0.0"
    missing = run("show", "PDFParser", "--version", "9.9.9", f"--home={small_home}")
    assert missing.returncode == 1 and "9.9.9" in missing.stdout + missing.stderr


def test_doctor_checks_the_settings_file(small_home: Path) -> None:
    assert run("--home", str(small_home), "doctor").returncode == 0
    (small_home / "lgent.toml").write_text("[fusion]\nweigths = 1\n")
    done = run("--home", str(small_home), "doctor")
    assert done.returncode == 1
    assert re.search(
        r"fail settings: .*unknown key 'fusion.weigths'", " ".join(done.stdout.split())
    )


# -- query output: flags, order, total, offset, width -------------------------------------------


@pytest.fixture(scope="module")
def example(example_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("traps") / "home"
    shutil.copytree(example_home, home)
    return home


RESULT = re.compile(r"^ *(\d+)\. (\S+)(?: \((\S+)\))? .*score (\d\.\d+)", re.MULTILINE)


@pytest.mark.real_model
def test_results_flag_health_and_explain_any_order_against_the_score(example: Path) -> None:
    done = run("--home", str(example), "query", "PDF -> SentimentScore", env={"COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    blocks = re.split(r"\n(?= *\d+\. )", done.stdout)[1:]
    assert len(blocks) == 10
    scores: list[float] = []
    for block in blocks:
        match = RESULT.match(block)
        assert match, block
        score = float(match.group(4))
        if any(s < score for s in scores):
            assert "listed " in block, block  # listed below a lower score: says why
        scores.append(score)
    flagged = next(b for b in blocks if "PDFSentimentQuick" in b)
    assert "warning: low success rate 45%" in flagged
    assert (
        flagged.count("PDFSentimentQuick") == 1
        and "Quick PDF Sentiment (PDFSentimentQuick)" in flagged
    )


@pytest.mark.real_model
def test_the_total_does_not_move_with_the_limit_and_offset_pages(example: Path) -> None:
    query = "extract tables from PDF files"

    def page(*args: str) -> dict[str, object]:
        done = run("--home", str(example), "query", query, "--json", *args)
        assert done.returncode == 0, done.stderr
        answer: dict[str, object] = json.loads(done.stdout)
        return answer

    small, large = page("--limit", "5"), page("--limit", "20")
    assert small["total_matches"] == large["total_matches"]
    second = page("--limit", "5", "--offset", "5")
    ids = [r["id"] for r in large["results"]]  # type: ignore[index, union-attr]
    assert [r["id"] for r in second["results"]] == ids[5:10]  # type: ignore[index, union-attr]
    assert second["offset"] == 5 and second["next_offset"] == 10


@pytest.mark.real_model
def test_text_fits_the_terminal_and_names_each_result_once(example: Path) -> None:
    done = run("--home", str(example), "query", "PDFParser", env={"COLUMNS": "60"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 60 for line in lines), [line for line in lines if len(line) > 60]
    assert all(line == line.rstrip() for line in lines)
    first = next(line for line in lines if line.lstrip().startswith("1. "))
    assert first.split()[1] == "PDFParser" and first.count("PDFParser") == 1
