"""Run the docs' code blocks in one process: ``python tests/doc_runner.py PLAN RESULTS``.

The plan (JSON, written by tests/test_docs.py) lists each Markdown file's steps in order, with a
working folder that holds a copy of the example home in ``.lgent``. Per file: one namespace for
its python blocks, ``LGENT_HOME`` and the working folder set, ``lgent`` commands run through the
CLI's own entry point (``lgent.cli.app.main``, what ``python -m lgent.cli`` calls), and ``curl``
calls sent to the HTTP API of ``lgent serve --http`` (``build_http_app`` over the file's home)
started on a free port that replaces the documented 8765. One process, so the embedding model's
libraries load once for every file.

Each step's outcome (exit status, output, traceback) is written to RESULTS; a failing step does
not stop the ones after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

DOCUMENTED = re.compile(r"(127\.0\.0\.1|localhost):8765\b")


class HttpServer:
    """The HTTP API over one home, in a background thread of this process."""

    def __init__(self, home: str) -> None:
        self.home = home
        self.port = 0
        self.server: Any = None
        self.thread: threading.Thread | None = None
        self.failure: BaseException | None = None

    def start(self) -> None:
        import uvicorn

        from lgent.http.app import build_http_app
        from lgent.lgent import LGent

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]

        async def serve() -> None:
            async with LGent.open(self.home) as lg:
                config = uvicorn.Config(
                    build_http_app(lg),
                    host="127.0.0.1",
                    port=self.port,
                    log_level="warning",
                    lifespan="off",
                )
                self.server = uvicorn.Server(config)
                await self.server.serve()

        def main() -> None:
            try:
                asyncio.run(serve())
            except BaseException as err:
                self.failure = err

        self.thread = threading.Thread(target=main, name="docs-http", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while not (self.server is not None and self.server.started):
            if self.failure is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the HTTP server did not start: {self.failure!r}")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.thread.join(timeout=30)


class Capture:
    """Stdout and stderr of the steps, in two append-only files that stay open.

    Real files, not StringIO: code under test may hand ``sys.stderr`` to a subprocess (the MCP
    client does), which needs a file descriptor, and may keep it after the step ends."""

    def __init__(self, folder: Path) -> None:
        self.paths = (folder / "stdout.log", folder / "stderr.log")
        self.files = [path.open("a", encoding="utf-8", buffering=1) for path in self.paths]

    @contextlib.contextmanager
    def __call__(self) -> Iterator[dict[str, str]]:
        starts = [path.stat().st_size for path in self.paths]
        captured: dict[str, str] = {}
        try:
            with (
                contextlib.redirect_stdout(self.files[0]),
                contextlib.redirect_stderr(self.files[1]),
            ):
                yield captured
        finally:
            for stream, path, start in zip(self.files, self.paths, starts, strict=True):
                stream.flush()
                with path.open("rb") as read:
                    read.seek(start)
                    captured[path.stem] = read.read().decode("utf-8", "replace")


def run_python(
    code: str, line: int, source: str, namespace: dict[str, Any], capture: Capture
) -> dict[str, Any]:
    padded = "\n" * (line - 1) + code  # tracebacks name the line in the Markdown file
    error = ""
    with capture() as captured:
        try:
            exec(compile(padded, source, "exec"), namespace)
        except BaseException:
            error = traceback.format_exc()
    return {
        "ok": not error,
        "output": captured["stdout"],
        "stderr": captured["stderr"],
        "error": error,
    }


def run_cli(argv: list[str], capture: Capture) -> dict[str, Any]:
    from lgent.cli.app import main

    saved = sys.argv
    sys.argv = ["lgent", *argv]
    code: Any = 0
    error = ""
    with capture() as captured:
        try:
            main()
        except SystemExit as exit_:
            code = exit_.code
        except BaseException:
            code, error = 1, traceback.format_exc()
        finally:
            sys.argv = saved
    rc = 0 if code is None else code if isinstance(code, int) else 1
    return {
        "ok": rc == 0,
        "rc": rc,
        "output": captured["stdout"],
        "stderr": captured["stderr"],
        "error": error,
    }


def run_curl(command: str, server: HttpServer) -> dict[str, Any]:
    command = DOCUMENTED.sub(f"127.0.0.1:{server.port}", command)
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=300)
    return {
        "ok": done.returncode == 0,
        "rc": done.returncode,
        "output": done.stdout,
        "stderr": done.stderr,
    }


def run_file(plan: dict[str, Any], capture: Capture) -> dict[str, list[dict[str, Any]]]:
    workdir = Path(plan["workdir"])
    os.chdir(workdir)
    os.environ["LGENT_HOME"] = plan["home"]
    namespace: dict[str, Any] = {"__name__": "__main__"}
    server: HttpServer | None = None
    results: dict[str, list[dict[str, Any]]] = {}
    try:
        for step in plan["steps"]:
            started = time.perf_counter()
            kind = step["kind"]
            try:
                if kind == "python":
                    outcome = run_python(
                        step["code"], step["line"], plan["path"], namespace, capture
                    )
                elif kind == "cli":
                    outcome = run_cli(step["argv"], capture)
                elif kind == "curl":
                    if server is None:
                        server = HttpServer(plan["home"])
                        server.start()
                    outcome = run_curl(step["code"], server)
                elif kind == "file":
                    target = workdir / step["target"]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(step["code"], encoding="utf-8")
                    outcome = {"ok": True}
                else:
                    outcome = {"ok": False, "error": f"unknown step kind {kind!r}"}
            except BaseException:
                outcome = {"ok": False, "error": traceback.format_exc()}
            outcome.update(
                kind=kind, line=step["line"], seconds=round(time.perf_counter() - started, 2)
            )
            results.setdefault(step["block"], []).append(outcome)
    finally:
        if server is not None:
            server.stop()
    return results


def main() -> None:
    plan_path, results_path = sys.argv[1:3]
    plan = json.loads(Path(plan_path).read_text(encoding="utf-8"))
    capture = Capture(Path(results_path).parent)
    results: dict[str, list[dict[str, Any]]] = {}
    for file_plan in plan["files"]:
        results.update(run_file(file_plan, capture))
        Path(results_path).write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
