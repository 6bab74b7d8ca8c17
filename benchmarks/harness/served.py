"""``lgent serve --http`` on loopback for a benchmark: started on a free port, waited for until
``/health`` answers, stopped when the block ends."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

START_TIMEOUT_S = 120.0


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def served_http(
    home: Path, env: Mapping[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """(base URL, process) of ``lgent --home HOME serve --http`` once ``/health`` answers
    (``RuntimeError`` if it does not within ``START_TIMEOUT_S`` or the process ends)."""
    port = free_port()
    command = [sys.executable, "-m", "lgent.cli", "--home", str(home), "serve", "--http"]
    process = subprocess.Popen(
        [*command, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=None if env is None else dict(env),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                urllib.request.urlopen(f"{base}/health", timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"lgent serve did not start on {base}") from None
                time.sleep(0.2)
        yield base, process
    finally:
        process.terminate()
        process.wait(30)
