"""Measuring and reporting: the machine, latencies, memory, Markdown tables, docs/benchmarks.md.

Every benchmark prints its table and then calls ``write_results(section, markdown)``, which
replaces that benchmark's ``## <section>`` block of ``docs/benchmarks.md`` (or appends it),
stamped with the machine and the date; the rest of the file is left as it was.
"""

from __future__ import annotations

import os
import platform
import re
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

REPO_ROOT = Path(__file__).resolve().parents[2]
DOCS_PATH = REPO_ROOT / "docs" / "benchmarks.md"
PACKAGES = (
    "lgent",
    "tantivy",
    "faiss-cpu",
    "torch",
    "sentence-transformers",
    "onnxruntime",
    "numpy",
    "bm25s",
)

HEADER = """\
# Benchmarks

Figures written by the scripts in `benchmarks/` (never by hand): each `## section` below is
replaced by the script that owns it, stamped with the machine and the date it ran on. Numbers
from different machines are not comparable; rerun every section you compare on one machine.

Install the benchmark extra first (`pip install -c constraints.txt -e '.[bench]'`), then run from
the repository root:

| Section | Command | Options (`--help` for all) |
|---|---|---|
| Keyword brain | `python -m benchmarks.keyword_bench` | `--sizes`, `--full`, `--synthetic` |
| Graph brain | `python -m benchmarks.graph_bench` | `--size`, `--types` |
| Semantic brain | `python -m benchmarks.semantic_bench` | `--size` |
| Fusion and resolver | `python -m benchmarks.fusion_bench` | `--size` |
| Query-time embedder | `python -m benchmarks.embedder_bench` | `--texts`, `--rounds`, `--st-onnx-python` |
| Importing the ecosystem | `python -m benchmarks.ecosystem_bench` | `--runs`; reads `../shared/ecosystem` or `$LGENT_ECOSYSTEM_DATA` |
| Embedding long texts | `python -m benchmarks.long_text_bench` | `--base`, `--sample`, `--no-quality` |
| Queries during writes | `python -m benchmarks.write_load` | `--clients`, `--entries`, `--loads` |
| Big builds | `python -m benchmarks.build_bench` | `--size`, `--resume`, `--ready-within`, `--synthetic` |
| Cold CLI calls | `python -m benchmarks.cold_cli` | `--runs` |
| Replicas on PostgreSQL | `python -m benchmarks.replica_bench` | `--writes`, `--seconds`, `--clients` |
| Memory per entry | `python -m benchmarks.memory_bench` | `--sizes` |

Each accepts `--no-write` to print without touching this file.

Corpora: the real PyPI list of ~780k package names and summaries at
`../shared/corpora/pypi_catalog.jsonl.gz` (or `$LGENT_PYPI_CORPUS`) when present, read in place
and sampled deterministically; otherwise the synthetic catalog of `benchmarks/harness/synthetic.py`.
Latencies are wall-clock per call (`time.perf_counter_ns`) after a warm-up, one thread.
"""

T = TypeVar("T")


# -- the machine ---------------------------------------------------------------------------------


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def _mem_total_gib() -> float | None:
    kib = _proc_status_kib("/proc/meminfo", "MemTotal")
    return None if kib is None else round(kib / 1024**2, 1)


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def machine_info() -> dict[str, Any]:
    """CPU model, cores, RAM, Python, OS and the versions of the packages benchmarks use."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count() or 0
    import sqlite3

    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "ram_gib": _mem_total_gib(),
        "python": platform.python_version(),
        "os": platform.platform(),
        "sqlite": sqlite3.sqlite_version,
        "load_avg_1m": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
        "packages": {name: _version(name) for name in PACKAGES},
    }


def machine_line(info: dict[str, Any] | None = None) -> str:
    """One line describing the machine, for the stamp under each section.

    Pass the ``machine_info()`` taken when the benchmark started: its load average then tells
    whether other work shared the CPU.
    """
    info = info or machine_info()
    packages = ", ".join(f"{k} {v}" for k, v in info["packages"].items() if v)
    load = info.get("load_avg_1m")
    return (
        f"{info['cpu']}, {info['usable_cores']}/{info['cores']} cores, {info['ram_gib']} GiB RAM; "
        f"Python {info['python']}, {info['os']}; SQLite {info['sqlite']}; {packages}"
        + ("" if load is None else f"; 1-min load average {load} at start")
    )


# -- memory --------------------------------------------------------------------------------------


def _proc_status_kib(path: str, key: str) -> int | None:
    try:
        with open(path, encoding="utf-8") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def rss_mib() -> float:
    """This process's current resident set size (VmRSS), in MiB (peak RSS where /proc is absent)."""
    kib = _proc_status_kib("/proc/self/status", "VmRSS")
    return kib / 1024 if kib is not None else peak_rss_mib()


def peak_rss_mib() -> float:
    """Peak resident set size in MiB: VmHWM (since ``reset_peak_rss``), else ``getrusage``."""
    kib = _proc_status_kib("/proc/self/status", "VmHWM")
    if kib is not None:
        return kib / 1024
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024**2 if sys.platform == "darwin" else peak / 1024


def reset_peak_rss() -> bool:
    """Reset the kernel's peak-RSS mark (Linux ``clear_refs``); False where that is not possible."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
            clear.write("5")
        return True
    except OSError:
        return False


def dir_size_mib(path: Path | str) -> float:
    """Total size of the files under ``path`` (or of the file itself), in MiB."""
    root = Path(path)
    if root.is_file():
        return root.stat().st_size / 1024**2
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file()) / 1024**2


# -- latency -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LatencyStats:
    """Per-call wall-clock latencies in milliseconds."""

    n: int
    mean: float
    p50: float
    p95: float
    p99: float
    max: float
    total_s: float

    @classmethod
    def of(cls, samples_ns: Sequence[int]) -> LatencyStats:
        if not samples_ns:
            raise ValueError("no samples to summarize")
        ms = sorted(s / 1e6 for s in samples_ns)
        return cls(
            n=len(ms),
            mean=statistics.fmean(ms),
            p50=percentile(ms, 50),
            p95=percentile(ms, 95),
            p99=percentile(ms, 99),
            max=ms[-1],
            total_s=sum(ms) / 1000,
        )


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile of ascending values, linearly interpolated (numpy's default)."""
    if not sorted_values:
        raise ValueError("percentile of no values")
    rank = (len(sorted_values) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (rank - low)


def time_calls(
    fn: Callable[[T], object], inputs: Sequence[T], warmup: int = 0, repeat: int = 1
) -> LatencyStats:
    """Latency of ``fn(x)`` for each input (``repeat`` passes), after ``warmup`` untimed calls.

    Warm-up calls cycle through ``inputs``. Results are discarded; exceptions propagate.
    """
    if not inputs:
        raise ValueError("time_calls needs at least one input")
    for i in range(warmup):
        fn(inputs[i % len(inputs)])
    clock = time.perf_counter_ns
    samples: list[int] = []
    for _ in range(repeat):
        for item in inputs:
            start = clock()
            fn(item)
            samples.append(clock() - start)
    return LatencyStats.of(samples)


class Timer:
    """``with Timer() as t: ...`` then ``t.seconds``."""

    seconds: float = 0.0

    def __enter__(self) -> Timer:
        self._start = time.perf_counter_ns()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = (time.perf_counter_ns() - self._start) / 1e9


# -- tables and the results file -----------------------------------------------------------------


class Table:
    """A Markdown table built row by row; floats formatted with ``digits`` decimals."""

    def __init__(self, columns: Sequence[str], digits: int = 2) -> None:
        self.columns = list(columns)
        self.digits = digits
        self.rows: list[list[str]] = []

    def add(self, *values: object) -> None:
        if len(values) != len(self.columns):
            raise ValueError(f"row has {len(values)} values for {len(self.columns)} columns")
        self.rows.append([self._cell(v) for v in values])

    def _cell(self, value: object) -> str:
        if value is None:
            return "-"
        if isinstance(value, float):
            return f"{value:,.{self.digits}f}"
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{value:,}"
        return str(value).replace("|", "\\|")

    def markdown(self) -> str:
        lines = [
            "| " + " | ".join(self.columns) + " |",
            "|" + "|".join("---" if i == 0 else "---:" for i in range(len(self.columns))) + "|",
        ]
        lines += ["| " + " | ".join(row) + " |" for row in self.rows]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.markdown()


_SECTION_RE = re.compile(r"^## (.+?)\s*$", re.MULTILINE)


def replace_section(document: str, section: str, block: str, header: str | None = HEADER) -> str:
    """``document`` with its ``## section`` block (up to the next ``## `` heading) set to ``block``.

    Everything before the first ``## `` heading is replaced by ``header`` (``None``: kept as
    it is); a missing section is appended; other sections keep their text and order.
    """
    headings = list(_SECTION_RE.finditer(document))
    if header is None:
        header = document[: headings[0].start()] if headings else document
    sections: list[tuple[str, str]] = []
    for i, match in enumerate(headings):
        end = headings[i + 1].start() if i + 1 < len(headings) else len(document)
        sections.append((match.group(1), document[match.start() : end].strip("\n")))
    new_block = block.strip("\n")
    if any(title == section for title, _ in sections):
        sections = [(t, new_block if t == section else text) for t, text in sections]
    else:
        sections.append((section, new_block))
    return header.rstrip("\n") + "\n\n" + "\n\n".join(text for _, text in sections) + "\n"


def write_results(
    section: str,
    markdown: str,
    *,
    path: Path | str = DOCS_PATH,
    info: dict[str, Any] | None = None,
    when: datetime | None = None,
    header: str | None = HEADER,
) -> str:
    """Print ``markdown`` and store it as the ``## section`` block of ``path``; returns the block.

    The block is stamped with the machine (``machine_info``) and the date (UTC). The file is
    created with ``header`` when missing (``None``: the text before the file's first section
    is kept) and written atomically (temp file, then rename).
    """
    if "\n" in section or not section.strip():
        raise ValueError(f"section title must be one non-empty line, got {section!r}")
    stamp = (when or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    block = f"## {section}\n\n_Ran {stamp} on: {machine_line(info)}._\n\n{markdown.strip()}\n"
    print(block)
    target = Path(path)
    current = target.read_text(encoding="utf-8") if target.exists() else ""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_text(replace_section(current, section, block, header), encoding="utf-8")
    os.replace(tmp, target)
    return block
