"""Cold command-line calls: each ``lgent`` command as a new process, as a shell or an agent's
tool call runs it, on the example catalog with every index built.

    python -m benchmarks.cold_cli                 # 10 timed runs of each command
    python -m benchmarks.cold_cli --runs 5 --no-write

L-gent's modules are compiled to bytecode first, as ``pip install`` does (a checkout run with
``PYTHONDONTWRITEBYTECODE`` set would otherwise compile them in every process). Each command runs
once untimed (the operating system's file cache warm, as on any machine that ran it before), then
``--runs`` times; wall time is measured around the whole process, CPU time
from the kernel's accounting of the finished child (user + system). The targets (issue 17):
a plain-language query within 1.5 s, a name lookup and a keyword search within 0.8 s.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.harness import runner

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "catalog_fixtures"
ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
SECTION = "Cold CLI calls"
COMMANDS = (
    (("query", "something that cleans up messy text"), 1.5),
    (("query", "PDFParser_v2"), 0.8),
    (("search", "pdf", "--brain", "keyword"), 0.8),
)


def lgent(home: Path, *args: str) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and exit status of one ``lgent`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "lgent.cli", "--home", str(home), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **ENV},
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    info = runner.machine_info()
    rows = [
        "| Command | Target s | Wall median s | Wall max s | CPU median s | CPU max s | Within target |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    failed = 0
    compileall.compile_dir(REPO / "lgent", quiet=1)
    with tempfile.TemporaryDirectory(prefix="lgent-cold-") as tmp:
        home = Path(tmp) / "home"
        for setup in (("load", str(FIXTURES)), ("reindex",)):
            if lgent(home, *setup)[2]:
                raise SystemExit(f"lgent {' '.join(setup)} failed")
        for command, target in COMMANDS:
            lgent(home, *command)  # untimed: the file cache warm
            walls, cpus = [], []
            for _ in range(args.runs):
                wall, cpu, status = lgent(home, *command)
                failed += status != 0
                walls.append(wall)
                cpus.append(cpu)
            median, worst = statistics.median(walls), max(walls)
            shown = "`lgent " + " ".join(f'"{a}"' if " " in a else a for a in command) + "`"
            rows.append(
                f"| {shown} | {target} | {median:.2f} | {worst:.2f} | "
                f"{statistics.median(cpus):.2f} | {max(cpus):.2f} | "
                f"{'yes' if worst <= target else 'median' if median <= target else 'no'} |"
            )
            print(rows[-1], flush=True)
    block = (
        f"Each command as a new process on the example catalog (every index built), "
        f"{args.runs} timed runs after one untimed run; the default embedder; bytecode compiled. "
        "A name lookup and a keyword search never load the embedding model; the plain-language "
        "query loads it once, and its interpretation says how long that took. Wall time on a "
        "shared machine is the CPU time plus the wait for a core: 1-min load average "
        f"{os.getloadavg()[0]:.2f} at the end.\n\n" + "\n".join(rows)
    )
    if args.no_write:
        print(block)
    else:
        runner.write_results(SECTION, block, info=info)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
