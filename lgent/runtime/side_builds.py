"""Quick brains rebuilt side by side after a large load: one in this process, the others each in
a process of its own, so that a second core is not left idle.

After ``lgent load`` commits a large batch, every quick brain (keyword, graph) is rebuilt from
the catalog. Each build is Python work that holds the interpreter's lock, so two threads take as
long as one after the other. :func:`start_side_builds` starts ``lgent reindex --brain NAME`` for
the brains after the first that are far behind, one per spare core; this process builds the
first meanwhile, then opens what each side process wrote (``BrainSlot.reopen``) and catches it
up. A side process reads the same home (its own settings file, its own SQLite catalog) and
takes the brain's index lock as any process does; the index it writes carries its change number
and checksums like any other.

On the 17k-artifact ecosystem home (2 cores, one process each way, alternating), the keyword
build here and the graph build beside it took 6.5 to 7.2 s after the commit, against 9.2 to 9.3 s
one after the other. A side process costs about a second to start and the catalog's entries
decoded again, so small builds stay in this process. A side process that fails is reported,
with the last line it printed, and the brain is built here; one still running when the build is
cancelled is stopped (its index keeps its previous state).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from lgent.runtime.cores import usable_cores

_RUN_CLI = "import sys; sys.path.insert(0, sys.argv.pop(1)); from lgent.cli.app import main; main()"
"""``python -c`` of the CLI of the lgent package in the folder given first."""
MIN_CHANGES = 5_000
"""A brain goes to a side process only when at least this many changes separate its index from
the catalog (a build of some thousands of entries takes seconds; a process costs about one)."""


@dataclass
class SideBuild:
    """One brain being rebuilt by ``lgent reindex`` in a process of its own; what it prints on
    its standard error goes to a temporary file (a pipe could fill and stall it)."""

    brain: str
    process: subprocess.Popen[bytes]
    errors: IO[bytes]

    async def finished(self) -> str | None:
        """Wait for the process to end: None when it rebuilt the index, else why not."""
        status = await asyncio.to_thread(self.process.wait)
        if status == 0:
            self.errors.close()
            return None
        self.errors.seek(0)
        said = self.errors.read().decode(errors="replace").strip().splitlines()
        self.errors.close()
        return f"exit status {status}" + (f": {said[-1]}" if said else "")

    def said(self, failed: str | None, change: int) -> str:
        """What ``lgent load`` says of the brain once this build ``failed`` (or None) and the
        brain reflects ``change``."""
        if failed is None:
            return f"rebuilt to change {change} in a second process"
        return f"rebuilt to change {change} here (the second process failed: {failed})"

    def stop(self) -> None:
        """End the process (its build stops; the index it had keeps its previous state)."""
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait()
        self.errors.close()


def side_brains(behind: Sequence[tuple[str, int]], cores: int | None = None) -> list[str]:
    """Of the quick brains to rebuild now (``(name, changes behind)``, in build order), those to
    rebuild in side processes: after the first, those at least ``MIN_CHANGES`` behind, one per
    spare core."""
    spare = (usable_cores() if cores is None else cores) - 1
    far = [name for name, changes in behind[1:] if changes >= MIN_CHANGES]
    return far[: max(spare, 0)] if len(behind) > 1 else []


def start_side_builds(home: Path, brains: Sequence[str]) -> dict[str, SideBuild]:
    """Start ``lgent --home HOME reindex --brain NAME`` for each of ``brains``."""
    # this process's own lgent package, whatever the folder it runs in holds
    root = str(Path(__file__).resolve().parents[2])
    command = [sys.executable, "-c", _RUN_CLI, root, "--home", str(home.resolve())]
    started: dict[str, SideBuild] = {}
    for brain in brains:
        errors = tempfile.TemporaryFile()  # noqa: SIM115 - open until the process ends
        try:
            process = subprocess.Popen(
                [*command, "reindex", "--brain", brain],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                env={**os.environ, "NO_COLOR": "1"},
            )
        except OSError:  # no process to be had: built here (its report says nothing else)
            errors.close()
            continue
        started[brain] = SideBuild(brain, process, errors)
    return started


__all__ = ["MIN_CHANGES", "SideBuild", "side_brains", "start_side_builds"]
