"""Run this Python (with L-gent and its packages) as an unprivileged user, for the drills that
must meet permissions for real: root reads every file whatever its mode, so an unreadable folder
can only be tested as somebody else.

As root, the command runs as ``nobody`` through ``setpriv`` (util-linux), with an interpreter
``nobody`` may execute (the running one, or the system's of the same version when the running one
lives in a private folder such as ``/root/.pyenv``), L-gent's source folder and this
interpreter's site-packages on its ``PYTHONPATH``. As anyone else it runs as they are.
``unprivileged()`` says why not when that is impossible (no setpriv, no such user, no usable
interpreter).
"""

from __future__ import annotations

import os
import pwd
import shutil
import site
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
USER = "nobody"


@dataclass(frozen=True, slots=True)
class Unprivileged:
    """How to start this Python as an unprivileged user: ``prefix`` + ``python`` + arguments."""

    prefix: tuple[str, ...]
    python: str
    env: dict[str, str]
    user: str

    def run(
        self, args: list[str], *, home: Path, timeout: float = 120.0
    ) -> subprocess.CompletedProcess[str]:
        """Run ``python args...`` as the user, with ``HOME`` at ``home`` (made writable)."""
        home.mkdir(parents=True, exist_ok=True)
        os.chmod(home, 0o777)
        env = {**self.env, "HOME": str(home)}
        return subprocess.run(
            [*self.prefix, self.python, *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=home,
            check=False,
        )


def _python_path() -> str:
    paths = [str(REPO), *site.getsitepackages()]
    return os.pathsep.join(dict.fromkeys(paths))


def _env() -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": _python_path(),
        "HF_HUB_OFFLINE": "1",
        "LANG": "C.UTF-8",
    }


def unprivileged() -> Unprivileged | str:
    """How to run this Python unprivileged, or the reason it cannot be done here."""
    env = _env()
    if os.geteuid() != 0:
        return Unprivileged((), sys.executable, env, pwd.getpwuid(os.geteuid()).pw_name)
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return "no setpriv (util-linux) to drop root's privileges"
    try:
        user = pwd.getpwnam(USER)
    except KeyError:
        return f"no user {USER!r}"
    prefix = (
        setpriv,
        f"--reuid={user.pw_uid}",
        f"--regid={user.pw_gid}",
        "--clear-groups",
        "--inh-caps=-all",
    )
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [sys.executable, os.path.realpath(sys.executable)]
    candidates += [f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"]
    for python in dict.fromkeys(candidates):
        try:
            done = subprocess.run(
                [*prefix, python, "-c", "import sys, lgent; print(sys.version_info[:2])"],
                env={**env, "HOME": "/tmp"},
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
        except OSError:
            continue
        if done.returncode == 0 and done.stdout.strip() == str(sys.version_info[:2]):
            return Unprivileged(prefix, python, env, USER)
    return f"no Python {version} that {USER!r} may run with L-gent's packages"
