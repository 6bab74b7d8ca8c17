"""The real ecosystem as a user meets it: both folders of ../shared/ecosystem (567 Swagger specs,
70 MCP servers) loaded into an empty home with the ``lgent`` command, then cold commands on it.

    python -m benchmarks.ecosystem_bench              # writes its section of docs/benchmarks.md
    python -m benchmarks.ecosystem_bench --no-write --runs 3

Every step is a new ``lgent`` process, timed as a whole, with its peak resident set (the
kernel's accounting of the finished child): ``load`` of each folder, the first plain-language
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
import asyncio
import compileall
import json
import os
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.harness.runner import machine_info, write_results
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
        best, linked = exact, -1
        for artifact in ids[:: max(1, len(ids) // 400)]:
            found = len(graph.find_compatible(artifact, limit=None))
            if found > linked:
                best, linked = artifact, found
        chosen = graph.find_compatible(best, limit=1)
        info = graph.artifact(best)
        source = info.input_type if info is not None and info.input_type else "Any"
        target = chosen[0].output_type if chosen and chosen[0].output_type else "Any"
        return {
            "exact name": ("query", exact),
            "sentence": ("query", SENTENCE),
            "compatible": ("compatible", best),
            "path": ("path", source, target),
            "resolve": ("resolve", "--input", source, "--output", target),
        }


def serving_rss(home: Path) -> tuple[float, float]:
    """(MiB resident after start, MiB after ``SERVED_QUERIES``) of ``lgent serve`` on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "lgent.cli", "--home", str(home), "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **ENV},
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{base}/health", timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit("lgent serve did not start") from None
                time.sleep(0.5)
        started = _rss_mib(process.pid)
        for query in SERVED_QUERIES:
            url = f"{base}/search?" + urllib.parse.urlencode({"q": query})
            json.loads(urllib.request.urlopen(url, timeout=120).read())
        return started, _rss_mib(process.pid)
    finally:
        process.terminate()
        process.wait(30)


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    if not ARCHIVE.exists() or not MCP_TOOLS.is_dir():
        raise SystemExit(f"the shared ecosystem data is not at {SHARED}")
    info = machine_info()
    compileall.compile_dir(REPO / "lgent", quiet=1)
    steps: list[tuple[str, Run, float]] = []
    with tempfile.TemporaryDirectory(prefix="lgent-ecosystem-") as work:
        with tarfile.open(ARCHIVE) as tar:
            tar.extractall(work, filter="data")
        home = Path(work) / "home"
        began = time.perf_counter()
        stages: tuple[tuple[str, tuple[str, ...]], ...] = (
            ("load the Swagger specs", ("load", str(Path(work) / "specs"))),
            ("load the MCP servers", ("load", str(MCP_TOOLS))),
            ("first plain-language query", ("query", SENTENCE)),
        )
        for label, command in stages:
            run = checked(home, *command)
            steps.append((label, run, time.perf_counter() - began))
            print(f"{label}: {run.wall:.1f} s", flush=True)
        run = checked(home, "reindex")
        steps.append(("reindex (every brain current)", run, time.perf_counter() - began))
        print(f"all ready: {time.perf_counter() - began:.1f} s", flush=True)
        stats = json.loads(checked(home, "stats", "--json").output)
        chosen = asyncio.run(picks(home))
        cold: list[str] = []
        for label, cold_command in chosen.items():
            lgent(home, *cold_command)  # untimed: the file cache warm
            runs = [lgent(home, *cold_command) for _ in range(args.runs)]
            failed = sum(r.status != 0 for r in runs)
            target = 1.5 if label == "sentence" else 1.0
            wall = statistics.median(r.wall for r in runs)
            shown = "`lgent " + " ".join(f'"{a}"' if " " in a else a for a in cold_command) + "`"
            cold.append(
                f"| {label} | {shown} | {target} | {wall:.2f} | "
                f"{statistics.median(r.cpu for r in runs):.2f} | "
                f"{max(r.rss_mib for r in runs):.0f} | {failed or ''} |"
            )
            print(cold[-1], flush=True)
        served = serving_rss(home)
    rows = "\n".join(
        f"| {label} | {run.wall:.1f} | {run.cpu:.1f} | {run.rss_mib:.0f} | {since:.1f} |"
        for label, run, since in steps
    )
    markdown = f"""\
`python -m benchmarks.ecosystem_bench`: both folders of `../shared/ecosystem` loaded into an
empty home with `lgent load` ({stats["artifacts"]:,} artifacts), each step a new process
measured as a whole (wall, CPU, peak resident set). 1-min load average {os.getloadavg()[0]:.2f}
at the end (the machine is shared; wall time is CPU time plus the wait for a core).

| step | wall s | CPU s | peak RSS MiB | seconds since the first load began |
|---|---:|---:|---:|---:|
{rows}

Cold commands on the built home, median of {args.runs} runs after one untimed run:

| call | command | target s | wall median s | CPU median s | peak RSS MiB | failed |
|---|---|---:|---:|---:|---:|---:|
{chr(10).join(cold)}

A serving process (`lgent serve`, loopback): {served[0]:.0f} MiB resident once started,
{served[1]:.0f} MiB after {len(SERVED_QUERIES)} searches (the model loaded by the first
plain-language one).
"""
    if args.no_write:
        print(markdown)
    else:
        write_results(SECTION, markdown, info=info)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
