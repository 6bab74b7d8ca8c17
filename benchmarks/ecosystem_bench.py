"""The real ecosystem as a user meets it: both folders of ../shared/ecosystem (567 Swagger specs,
70 MCP servers) loaded into an empty home with the ``lgent`` command, then cold commands on it.

    python -m benchmarks.ecosystem_bench              # writes its section of docs/benchmarks.md
    python -m benchmarks.ecosystem_bench --no-write --runs 3

Every step is a new ``lgent`` process, timed as a whole, with its peak resident set (the
kernel's accounting of the finished child): one ``load`` of both folders, the first plain-language
query (answered by the brains that are ready: keyword and graph), ``reindex`` (every brain
current, the semantic one embedding every artifact with the real model), then each cold
command ``--runs`` times after one untimed run: an exact name, a sentence, ``compatible``,
``path`` and ``resolve`` on artifacts and types picked from the built home. A serving process
is measured too: ``lgent serve`` on loopback answering a few queries, its resident set read
from ``/proc``. Reads ../shared/ecosystem in place, or ``$LGENT_ECOSYSTEM_DATA`` (the archive
is unpacked into a temporary folder, untimed).

Targets (issue 32): the first fused answer at most 30 s after ``load`` starts; every brain
ready within 10 minutes; cold calls at most 1.0 s (a sentence 1.5 s); peak RSS at most 400 MB.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.harness.runner import machine_info, write_results
from benchmarks.harness.served import served_http
from lgent import LGent

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("LGENT_ECOSYSTEM_DATA") or REPO.parent / "shared" / "ecosystem")
ARCHIVE = SHARED / "openapi" / "apis-guru-swagger2-specs.tar.gz"
MCP_TOOLS = SHARED / "mcp-tools-list"
ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
SECTION = "Importing the ecosystem"
SENTENCE = "send a message to a chat channel"
SERVED_QUERIES = ("send a message to a chat channel", "list the pets of a store", "weather")


@dataclass(frozen=True)
class Run:
    """One ``lgent`` process: wall seconds, CPU seconds, peak RSS in MiB, exit status."""

    wall: float
    cpu: float
    rss_mib: float
    status: int
    output: str


def lgent(home: Path, *args: str) -> Run:
    """Run ``lgent --home HOME ARGS`` to its end, measured."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "lgent.cli", "--home", str(home), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, **ENV},
    )
    assert process.stdout is not None
    output = process.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    return Run(
        wall,
        usage.ru_utime + usage.ru_stime,
        usage.ru_maxrss / 1024,
        process.returncode,
        output,
    )


def checked(home: Path, *args: str) -> Run:
    run = lgent(home, *args)
    if run.status != 0:
        raise SystemExit(f"lgent {' '.join(args)} failed ({run.status}):\n{run.output[-2000:]}")
    return run


async def picks(home: Path) -> dict[str, tuple[str, ...]]:
    """The commands' arguments, picked from the built home: an imported operation's id, the
    artifact with the most downstream neighbours, and a type pair a path joins."""
    async with LGent.open(home) as lg:
        graph = lg.catalog_graph()
        signatures = [s for s in graph.signatures() if s.input_type and s.output_type]
        ids = sorted(s.id for s in signatures)
        exact = next(i for i in ids if "/" in i)
        # the artifact with the most downstream neighbours among those where one of them makes
        # another type than the artifact takes (not a JSON primitive): a path of two steps joins
        # the two types
        best, linked, source, target = exact, -1, "Any", "Any"
        for artifact in ids[:: max(1, len(ids) // 400)]:
            info = graph.artifact(artifact)
            taken = info.input_type if info is not None else None
            after = graph.find_compatible(artifact, limit=None)
            made = next((s.output_type for s in after if s.output_type not in (None, taken)), None)
            if taken and made and not taken.startswith("json.") and len(after) > linked:
                best, linked, source, target = artifact, len(after), taken, made
        return {
            "exact name": ("query", exact),
            "sentence": ("query", SENTENCE),
            "compatible": ("compatible", best),
            "path": ("path", source, target),
            "resolve": ("resolve", "--input", source, "--output", target),
        }


def serving_rss(home: Path, queries: Sequence[str] = SERVED_QUERIES) -> tuple[float, float]:
    """(MiB resident after start, MiB after ``queries``) of ``lgent serve`` on loopback."""
    with served_http(home, {**os.environ, **ENV}) as (base, process):
        started = _rss_mib(process.pid)
        for query in queries:
            url = f"{base}/search?" + urllib.parse.urlencode({"q": query})
            json.loads(urllib.request.urlopen(url, timeout=120).read())
        return started, _rss_mib(process.pid)


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def loads() -> str:
    """The 1/5/15-minute load averages, as ``uptime`` shows them."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def build(work: Path, home: Path) -> dict[str, object]:
    """Load both folders into an empty ``home``, ask the first query, finish every brain; the
    steps as JSON-ready rows, also written to ``work/steps.json`` (``--cold-only`` reads it)."""
    with tarfile.open(ARCHIVE) as tar:
        tar.extractall(work, filter="data")
    began_loads = loads()
    began = time.perf_counter()
    stages: tuple[tuple[str, tuple[str, ...]], ...] = (
        (
            "load both folders (one `lgent load SPECS MCP`)",
            ("load", str(work / "specs"), str(MCP_TOOLS)),
        ),
        ("first plain-language query", ("query", SENTENCE)),
        ("`reindex --brain semantic` (every brain ready)", ("reindex", "--brain", "semantic")),
    )
    steps: list[dict[str, object]] = []
    note = ""
    for label, command in stages:
        run = checked(home, *command)
        since = time.perf_counter() - began
        steps.append({"label": label, **asdict(run), "since": since, "output": ""})
        print(f"{label}: {run.wall:.1f} s ({since:.1f} s since the load began)", flush=True)
        if command[0] == "query":
            said = " ".join(run.output.split())
            found = re.search(r"the semantic brain did not answer \((.+?)\); results come", said)
            note = found.group(1) if found else ""
            print(run.output, flush=True)
    record: dict[str, object] = {
        "steps": steps,
        "note": note,
        "loads": [began_loads, loads()],
        "stats": json.loads(checked(home, "stats", "--json").output),
    }
    (work / "steps.json").write_text(json.dumps(record, indent=1))
    return record


_PICK = """
import asyncio, json, sys
from pathlib import Path
from benchmarks.ecosystem_bench import picks
print(json.dumps(asyncio.run(picks(Path(sys.argv[1])))))
"""


def cold_calls(home: Path, runs: int) -> list[str]:
    """A table row per cold command: median of ``runs`` after one untimed run."""
    # picked in a child process: a child forked from this one would report this one's resident
    # set as its peak if this one had opened the graph
    picked = subprocess.run(
        [sys.executable, "-c", _PICK, str(home)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **ENV},
    )
    chosen: dict[str, list[str]] = json.loads(picked.stdout.strip().splitlines()[-1])
    rows: list[str] = []
    for label, command in chosen.items():
        lgent(home, *command)  # untimed: the file cache warm
        timed = [lgent(home, *command) for _ in range(runs)]
        failed = sum(r.status != 0 for r in timed)
        target = 1.5 if label == "sentence" else 1.0
        wall = statistics.median(r.wall for r in timed)
        shown = "`lgent " + " ".join(f'"{a}"' if " " in a else a for a in command) + "`"
        rows.append(
            f"| {label} | {shown} | {target} | {wall:.2f} | "
            f"{statistics.median(r.cpu for r in timed):.2f} | "
            f"{max(r.rss_mib for r in timed):.0f} | {'yes' if wall <= target else 'no'} | "
            f"{failed or ''} | {loads()} |"
        )
        print(rows[-1], flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--work", type=Path, help="keep the unpacked specs and the home in this empty folder"
    )
    parser.add_argument(
        "--cold-only",
        action="store_true",
        help="with --work: reuse the home and steps an earlier run left there; time the cold"
        " calls and the serving process again",
    )
    args = parser.parse_args(argv)
    if not ARCHIVE.exists() or not MCP_TOOLS.is_dir():
        raise SystemExit(f"the shared ecosystem data is not at {SHARED}")
    if args.cold_only and args.work is None:
        raise SystemExit("--cold-only needs the --work folder of an earlier run")
    info = machine_info()
    compileall.compile_dir(REPO / "lgent", quiet=1)
    with contextlib.ExitStack() as stack:
        if args.work is None:
            work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="lgent-eco-")))
        else:
            work = args.work.resolve()
            work.mkdir(parents=True, exist_ok=True)
        home = work / "home"
        if args.cold_only:
            record = json.loads((work / "steps.json").read_text())
        elif any(work.iterdir()):
            raise SystemExit(f"{work} is not empty (use --cold-only to reuse it)")
        else:
            record = build(work, home)
        cold_loads = loads()
        cold = cold_calls(home, args.runs)
        served = serving_rss(home)
    markdown = report(record, cold, served, args.runs, cold_loads)
    if args.no_write:
        print(markdown)
    else:
        write_results(SECTION, markdown, info=info)
    return 0


def report(
    record: dict[str, Any], cold: list[str], served: tuple[float, float], runs: int, began: str
) -> str:
    """The section's Markdown."""
    steps = record["steps"]
    rows = "\n".join(
        f"| {s['label']} | {s['wall']:.1f} | {s['cpu']:.1f} | {s['rss_mib']:.0f} | {s['since']:.1f} |"
        for s in steps
    )
    first = next(s for s in steps if s["label"].startswith("first"))
    ready = steps[-1]
    return f"""\
`python -m benchmarks.ecosystem_bench`: both folders of `../shared/ecosystem` loaded into an
empty home with one `lgent load` of both ({record["stats"]["artifacts"]:,} artifacts), each step a new
process measured as a whole (wall, CPU, peak resident set of the process). Load average
(1/5/15 min) {record["loads"][0]} when the load began, {record["loads"][1]} when every
brain was ready (the machine is shared; wall time is CPU time plus the wait for a core).

| step | wall s | CPU s | peak RSS MiB | seconds since the load began |
|---|---:|---:|---:|---:|
{rows}

The first plain-language query answered from the brains that were ready without waiting,
{first["since"]:.1f} s after the load began (target 30 s), saying of the semantic brain:
`` {record["note"] or "(no note: it answered)"} ``. Every brain ready {ready["since"]:.1f} s after it
(target 600 s).

Cold commands on the built home, each a new process, median of {runs} runs after one untimed
run (load average {began} when they began; the last column: when each row ended):

| call | command | target s | wall median s | CPU median s | peak RSS MiB | within target | failed | load average |
|---|---|---:|---:|---:|---:|---:|---:|---|
{chr(10).join(cold)}

A serving process (`lgent serve --http`, loopback): {served[0]:.0f} MiB resident once
started, {served[1]:.0f} MiB after {len(SERVED_QUERIES)} searches (the model loaded by the first
plain-language one).
"""


if __name__ == "__main__":
    raise SystemExit(main())
