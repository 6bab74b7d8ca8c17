"""A throw-away PostgreSQL cluster for tests and benchmarks.

``Cluster.create()`` runs ``initdb`` into a new temporary folder and ``start()`` serves it on a
Unix socket in that folder only (no TCP port, so parallel runs never collide); ``stop()`` and
``start()`` again keep the data (the fault tests stop the database under queries), ``destroy()``
stops it and deletes the folder. PostgreSQL refuses to run as root: as root the server runs as
the ``postgres`` user (or ``nobody``), which owns the folder.

    python -m benchmarks.harness.pgcluster        # prints where the server binaries are
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

FIXED_SETTINGS = (
    "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    "-c max_connections=200 -c listen_addresses=''"
)
"""A throw-away cluster needs no durability across an OS crash (a killed client is another
matter: PostgreSQL aborts its transaction whatever these say)."""


def server_binaries() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``/``postgres``: ``$LGENT_PG_BINDIR``, the one beside
    ``initdb`` on the PATH, else the newest ``/usr/lib/postgresql/*/bin``; None if absent."""
    candidates: list[Path] = []
    if os.environ.get("LGENT_PG_BINDIR"):
        candidates.append(Path(os.environ["LGENT_PG_BINDIR"]))
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).resolve().parent)

    def version(path: Path) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", path.parent.name))

    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    for folder in candidates:
        if all((folder / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def _server_user() -> str | None:
    """The user the server runs as when we are root (None: run as ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError("running as root and no 'postgres' or 'nobody' user to run PostgreSQL as")


@dataclass
class Cluster:
    """One cluster in ``folder`` (data in ``folder/data``, socket and log beside it)."""

    bindir: Path
    folder: Path
    user: str | None = None
    running: bool = field(default=False, init=False)

    @classmethod
    def create(cls, bindir: Path | None = None) -> Cluster:
        bindir = bindir or server_binaries()
        if bindir is None:
            raise RuntimeError("PostgreSQL server binaries (initdb, pg_ctl) not found")
        folder = Path(tempfile.mkdtemp(prefix="lgent-pg-"))
        cluster = cls(bindir, folder, _server_user())
        if cluster.user is not None:
            shutil.chown(folder, cluster.user)
        cluster._run(
            "initdb",
            "-D",
            str(folder / "data"),
            "-A",
            "trust",
            "-U",
            "lgent",
            "-E",
            "UTF8",
            "--no-sync",
            "--locale=C",
        )
        return cluster

    @property
    def url(self) -> str:
        """A libpq URL for the ``postgres`` database over the cluster's Unix socket."""
        return f"postgresql://lgent@/postgres?host={self.folder}"

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bindir / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd="/")
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr.strip()}")

    def start(self) -> str:
        """Start serving (waits until connections are accepted); returns the URL."""
        options = f"-k {self.folder} {FIXED_SETTINGS}"
        self._run(
            "pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "log"),
            "-o", options, "-w", "-t", "60", "start",
        )  # fmt: skip
        self.running = True
        return self.url

    def stop(self) -> None:
        """Stop at once (``-m fast``: open sessions are cut off, like a database going away)."""
        if self.running:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")
            self.running = False

    def destroy(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


if __name__ == "__main__":
    print(server_binaries() or "PostgreSQL server binaries not found")
