"""``lgent ARGS`` run in the test's own process, as the console script runs it (``main()``): the
same argument handling, output and exit codes as a subprocess, without starting Python again.
Tests that must see a process (its imports, a signal, a crash) start one instead."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

from lgent.cli.app import main


@contextmanager
def _process_state(args: list[str], cwd: Path | None, env: dict[str, str] | None) -> Iterator[None]:
    """``sys.argv``, the environment and the working folder as a new process would have them,
    put back afterwards."""
    argv, environ, folder = sys.argv, dict(os.environ), os.getcwd()
    sys.argv = ["lgent", *args]
    os.environ.update({"HF_HUB_OFFLINE": "1", **(env or {})})
    if cwd is not None:
        os.chdir(cwd)
    try:
        yield
    finally:
        sys.argv = argv
        os.environ.clear()
        os.environ.update(environ)
        os.chdir(folder)


def run_cli(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``lgent ARGS`` exactly as typed (no --home added): its exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    code: int
    with _process_state(list(args), cwd, env), redirect_stdout(out), redirect_stderr(err):
        try:
            main()
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    return subprocess.CompletedProcess(["lgent", *args], code, out.getvalue(), err.getvalue())
