"""The benchmark harness: synthetic catalog, PyPI conversion, statistics and the results file.

No timing is asserted here: benchmarks measure, tests only check that the harness is right.
"""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from benchmarks import keyword_bench
from benchmarks.harness import pypi, runner, synthetic
from benchmarks.keyword_bench import Fts5System, make_queries
from lgent.graph.types import TypeLattice
from lgent.models import ID_RE, CatalogEntry, TypeDecl

REPO = Path(__file__).resolve().parents[2]
INFO: dict[str, Any] = {
    "cpu": "Test CPU",
    "cores": 2,
    "usable_cores": 2,
    "ram_gib": 4.0,
    "python": "3.11.0",
    "os": "Linux",
    "sqlite": "3.45.0",
    "load_avg_1m": 0.1,
    "packages": {"tantivy": "0.0.0"},
}
WHEN = datetime(2025, 1, 2, 3, 4, tzinfo=UTC)


# -- synthetic catalog ----------------------------------------------------------------------------


def test_synthetic_is_deterministic() -> None:
    assert synthetic.generate(500, seed=7) == synthetic.generate(500, seed=7)
    assert synthetic.generate(500, seed=7) != synthetic.generate(500, seed=8)


def test_synthetic_records_validate() -> None:
    entries, types = synthetic.generate(500)
    parsed = [CatalogEntry.parse(e) for e in entries]
    decls = [TypeDecl.parse(t) for t in types]
    assert len(parsed) == 500 and len(decls) == 200
    ids = {e.id for e in parsed}
    assert len(ids) == 500
    assert all(r.target in ids for e in parsed for r in e.relations)
    kinds = {r.type.value for e in parsed for r in e.relations}
    assert {"successor_to", "depends_on", "forged_by", "implements"} <= kinds
    assert len({e.status for e in parsed}) == 4


def test_synthetic_type_lattice() -> None:
    entries, types = synthetic.generate(500)
    assert {k: types[0][k] for k in ("type", "params")} == {"type": "List", "params": 1}
    lattice = TypeLattice.from_declarations(
        [(t["type"], t.get("subtype_of", []), t.get("params", 0)) for t in types]
    )
    parents = {t["type"]: t.get("subtype_of", []) for t in types}

    def depth(name: str) -> int:
        return 1 + max((depth(p) for p in parents[name]), default=0)

    assert 3 <= max(depth(name) for name in parents) <= 5
    assert any(len(p) > 1 for p in parents.values())  # a DAG, not only a tree
    generic = [e["input_type"] for e in entries if e.get("input_type", "").startswith("List[")]
    assert generic and lattice.is_subtype(generic[0], "List")


def test_write_jsonl_round_trips(tmp_path: Path) -> None:
    entries, types = synthetic.generate(20, n_types=10)
    target = tmp_path / "catalog.jsonl"
    synthetic.write_jsonl(target, entries, types)
    records = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert records == [*types, *entries]


# -- PyPI conversion ------------------------------------------------------------------------------


def test_pypi_record_becomes_a_valid_entry() -> None:
    entry = pypi.to_entry(
        {"id": "_my pkg!", "name": "my pkg", "version": "1.1.0a8", "description": "A\x00 lib"}
    )
    assert ID_RE.match(entry["id"]) and entry["id"] == "my-pkg-"
    assert entry["version"] == "1.1.0"
    assert CatalogEntry.parse(entry).description == "A  lib"
    assert pypi.semver_of("2024.01") == "2024.1.0"
    assert pypi.semver_of("dev") == "0.0.0"


def test_load_pypi_samples_are_nested(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl.gz"
    with gzip.open(corpus, "wt", encoding="utf-8") as out:
        for i in range(50):
            record = {"id": f"pkg-{i}", "name": f"pkg-{i}", "version": "1.0", "description": "x"}
            out.write(json.dumps(record) + "\n")
    every = pypi.load_pypi(path=corpus)
    assert [e["id"] for e in every] == [f"pkg-{i}" for i in range(50)]
    ten, twenty = pypi.load_pypi(10, path=corpus), pypi.load_pypi(20, path=corpus)
    assert twenty[:10] == ten and ten != every[:10]


def test_load_pypi_without_the_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(pypi.CorpusMissingError, match=r"PyPI corpus not found at .*missing\.gz"):
        pypi.load_pypi(path=tmp_path / "missing.gz")


# -- statistics, tables, queries ------------------------------------------------------------------


def test_percentiles_by_hand() -> None:
    values = [1.0, 2.0, 3.0, 4.0, 5.0]
    assert runner.percentile(values, 50) == 3.0
    assert runner.percentile(values, 95) == pytest.approx(4.8)  # 4 + 0.8 * (5 - 4)
    stats = runner.LatencyStats.of([1_000_000, 3_000_000])  # ns -> 1 ms and 3 ms
    assert (stats.n, stats.mean, stats.p50, stats.max) == (2, 2.0, 2.0, 3.0)


def test_time_calls_counts_every_call() -> None:
    calls: list[int] = []
    stats = runner.time_calls(calls.append, [1, 2, 3], warmup=2, repeat=2)
    assert stats.n == 6 and calls == [1, 2, 1, 2, 3, 1, 2, 3]


def test_table_markdown() -> None:
    table = runner.Table(["System", "N", "ms"], digits=1)
    table.add("a|b", 1000, 0.25)
    assert table.markdown().splitlines() == [
        "| System | N | ms |",
        "|---|---:|---:|",
        "| a\\|b | 1,000 | 0.2 |",
    ]
    with pytest.raises(ValueError, match="2 values for 3 columns"):
        table.add("x", 1)


def test_queries_are_deterministic_plain_words() -> None:
    entries, _ = synthetic.generate(300)
    queries = make_queries(entries, n=40, seed=1)
    assert queries == make_queries(entries, n=40, seed=1)
    assert len(queries) == len(set(queries)) == 40
    assert not any(w in {"and", "or", "not"} for q in queries for w in q.lower().split())
    assert Fts5System.match_expression('say "hi" now') == '"say" """hi""" "now"'


def test_the_premade_row_indexes_the_same_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    """The row whose documents are made before its clock starts answers every query as the
    L-gent row does: only the time of making the documents is left out of its build."""
    from lgent.brains.keyword import index

    monkeypatch.setattr(index, "DocumentMaker", index.DocumentMaker)  # restored afterwards
    entries, types = synthetic.generate(300, seed=3)
    corpus = keyword_bench.Corpus("synthetic", entries, types)
    corpus.parse()
    queries = make_queries(entries, n=30, seed=2)
    plain = keyword_bench.measure(keyword_bench.LGentSystem(), corpus, 300, queries, repeat=1)
    premade = keyword_bench.LGentPremadeSystem()
    made = keyword_bench.measure(premade, corpus, 300, queries, repeat=1)
    assert index.DocumentMaker.__name__ == "Premade"  # the brain looked its documents up
    assert made["answers"] == plain["answers"] and any(made["answers"])


def test_a_row_built_several_times_keeps_the_median_build() -> None:
    entries, types = synthetic.generate(200, seed=3)
    corpus = keyword_bench.Corpus("synthetic", entries, types)
    result = {"build_s": 99.0, "build_cpu_s": 99.0}  # the first build: slow, an outlier
    keyword_bench.median_build(result, "tantivy", corpus, 200, rounds=3)
    runs = result["build_runs"]
    assert len(runs) == 3 and runs == sorted(runs) and runs[-1] == 99.0
    assert result["build_s"] == runs[1] < 99.0 and result["build_cpu_s"] < 99.0


# -- the results file -----------------------------------------------------------------------------


def test_write_results_replaces_only_its_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "benchmarks.md"
    docs.write_text(
        "# old header\n\n## Other\n\nkeep me\n\n## Keyword brain\n\nold table\n\n## Last\n\nz\n"
    )
    runner.write_results("Keyword brain", "| new |", path=docs, info=INFO, when=WHEN)
    text = docs.read_text(encoding="utf-8")
    assert text.startswith(runner.HEADER)
    assert "old table" not in text and "| new |" in text and "keep me" in text
    assert text.index("## Other") < text.index("## Keyword brain") < text.index("## Last")
    assert "_Ran 2025-01-02 03:04 UTC on: Test CPU, 2/2 cores" in text
    assert "| new |" in capsys.readouterr().out
    runner.write_results("Semantic brain", "second", path=docs, info=INFO, when=WHEN)
    assert docs.read_text(encoding="utf-8").rstrip().endswith("second")


def test_write_results_on_a_copy_of_the_real_file(tmp_path: Path) -> None:
    real = REPO / "docs" / "benchmarks.md"
    docs = tmp_path / "benchmarks.md"
    if real.exists():
        docs.write_text(real.read_text(encoding="utf-8"), encoding="utf-8")
    runner.write_results("Keyword brain", "replaced", path=docs, info=INFO, when=WHEN)
    runner.write_results("Keyword brain", "replaced again", path=docs, info=INFO, when=WHEN)
    text = docs.read_text(encoding="utf-8")
    assert text.count("## Keyword brain") == 1 and "replaced again" in text
