"""A corpus of hostile and odd inputs for the loader, one case per class (issue 18, point 1):
deep nesting, non-string keys, huge integers, files that are not regular files, symlinks that
dangle, loop or lead out of the folder, unreadable files and folders, files over the size limit.

Each case is a path to load and what must come of it: a typed error naming the file (``error``),
a skip listed with its reason (``skip``), or an ecosystem source left out with its reason
(``rejected``). ``run_case`` loads it in a thread with a time limit, so a load that blocks (a
FIFO) is caught as ``blocked`` instead of hanging. Used by ``tests/catalog/test_edge_files.py``
and ``python -m benchmarks.reliability``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lgent.catalog.loaders import read_path
from lgent.config import LoadSettings
from lgent.errors import LGentError

Expect = Literal["error", "skip", "rejected"]

ENTRY = '{"id": "ok", "name": "ok", "description": "a fine entry"}\n'


@dataclass(slots=True)
class EdgeCase:
    """One input class: the path to load, the file the outcome must name, what must happen, and
    a fragment the error or reason must contain."""

    name: str
    load: Path
    names: Path
    expect: Expect
    fragment: str
    kind: str | None = None
    options: LoadSettings = field(default_factory=LoadSettings)
    denied: tuple[Path, ...] = ()
    """Paths made unreadable (chmod 0; simulated when running as root, who can read anything:
    ``os.open`` and ``os.scandir`` refuse them)."""
    modes: tuple[tuple[Path, int], ...] = ()
    """For a run as another user (``run_unprivileged``): the modes to give (default: each
    ``denied`` path 0)."""


@dataclass(slots=True)
class Outcome:
    case: str
    result: str
    """``error``, ``skip`` or ``rejected`` as expected; otherwise ``wrong``, ``foreign`` (an
    exception outside LGentError) or ``blocked``."""
    detail: str

    @property
    def ok(self) -> bool:
        return self.result in ("error", "skip", "rejected")


def _deep_json(levels: int) -> str:
    return "[" * levels + "]" * levels


def _deep_yaml_block(levels: int) -> str:
    return "".join("  " * i + "a:\n" for i in range(levels)) + "  " * levels + "b\n"


def build_cases(work: Path) -> list[EdgeCase]:
    """Write every case under ``work`` (one folder each) and return them."""
    cases: list[EdgeCase] = []

    def folder(name: str) -> Path:
        path = work / name
        path.mkdir(parents=True)
        (path / "ok.jsonl").write_text(ENTRY, encoding="utf-8")
        return path

    def file_case(name: str, filename: str, text: str, fragment: str, **kw: Any) -> None:
        path = folder(name) / filename
        path.write_text(text, encoding="utf-8")
        cases.append(EdgeCase(name, path, path, kw.pop("expect", "error"), fragment, **kw))

    nested = "nested more than 128 levels"
    file_case("json 5,000 deep", "deep.json", _deep_json(5000), nested)
    file_case("json 200 deep", "deep200.json", _deep_json(200), nested)
    file_case("jsonl line 5,000 deep", "deep.jsonl", '{"id": ' + _deep_json(5000) + "}\n", nested)
    file_case("yaml 2,000 deep (flow)", "deep.yaml", _deep_json(2000), "nest")
    file_case("yaml 2,000 deep (block)", "deepb.yaml", _deep_yaml_block(2000), "nest")
    file_case("yaml 200 deep", "deep200.yaml", _deep_json(200), nested)
    keys = "keys must be strings"
    file_case("yaml integer key", "intkey.yaml", "id: a\nname: a\n1: x\n", keys)
    file_case("yaml boolean key", "boolkey.yaml", "id: a\nname: a\ntrue: x\n", keys)
    file_case("yaml null key", "nullkey.yaml", "id: a\nname: a\n~: x\n", keys)
    file_case("yaml nested integer key", "nestkey.yaml", "id: a\nname: a\nparams:\n  2: x\n", keys)
    file_case("front matter integer key", "card.md", "---\nid: a\n7: x\n---\nbody\n", keys)
    big = "9" * 5000
    digits = "4300 digits"
    file_case("json 5,000-digit integer", "big.json", '{"id": "a", "n": ' + big + "}", digits)
    file_case("jsonl 5,000-digit integer", "big.jsonl", '{"id": "a", "n": ' + big + "}\n", digits)
    file_case("yaml 5,000-digit integer", "big.yaml", "id: a\nn: " + big + "\n", digits)
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    file_case("yaml alias bomb", "bomb.yaml", bomb, "aliases")
    for kind, text, fragment in [
        ("mcp", '{"tools": [' + _deep_json(3000) + "]}", "nested"),
        ("openapi", '{"openapi": "3.0.0", "x": ' + big + "}", digits),
        ("a2a", '{"name": "a", "skills": ' + _deep_json(500) + "}", "nested"),
        ("openai", '[{"type": "function", "function": ' + _deep_json(5000) + "}]", "nested"),
        ("mcp", "tools:\n  - name: t\n    inputSchema: " + _deep_json(300) + "\n", "nested"),
    ]:
        file_case(
            f"{kind}: hostile {'YAML' if text.startswith('tools:') else 'JSON'}",
            f"{kind}.{'yaml' if text.startswith('tools:') else 'json'}",
            text,
            fragment,
            kind=kind,
            expect="rejected",
        )
    path = folder("file over the size limit") / "big.jsonl"
    path.write_text(ENTRY * 30_000, encoding="utf-8")
    cases.append(
        EdgeCase(
            "file over the size limit",
            path,
            path,
            "error",
            "load.max_file_mib",
            options=LoadSettings(max_file_mib=1),
        )
    )

    def skip_case(name: str, make: Callable[[Path], Path], fragment: str, **kw: Any) -> None:
        root = folder(name)
        cases.append(EdgeCase(name, root, make(root), "skip", fragment, **kw))

    def link(target: str | Path, name: str = "x.jsonl") -> Callable[[Path], Path]:
        def make(root: Path) -> Path:
            os.symlink(target if Path(target).is_absolute() else root / target, root / name)
            return root / name

        return make

    def mkfifo(root: Path) -> Path:
        os.mkfifo(root / "x.jsonl")
        return root / "x.jsonl"

    def sock(root: Path) -> Path:
        server = socket.socket(socket.AF_UNIX)
        try:
            server.bind(str(root / "s.jsonl"))
        finally:
            server.close()
        return root / "s.jsonl"

    def loop_pair(root: Path) -> Path:
        os.symlink(root / "b.jsonl", root / "a.jsonl")
        os.symlink(root / "a.jsonl", root / "b.jsonl")
        return root / "a.jsonl"

    outside = work / "outside.jsonl"
    outside.write_text('{"id": "outside", "name": "outside"}\n', encoding="utf-8")
    outside_dir = work / "outside-folder"
    outside_dir.mkdir()
    (outside_dir / "o.jsonl").write_text(ENTRY.replace("ok", "o2"), encoding="utf-8")
    skip_case("dangling symlink", link("nowhere.jsonl"), "points nowhere")
    skip_case("self-referencing symlink", link("x.jsonl"), "loops")
    skip_case("two symlinks in a loop", loop_pair, "loops")
    skip_case("symlink out of the folder", link(outside), "outside the loaded folder")
    skip_case("symlinked folder out of the folder", link(outside_dir, "sub"), "outside")
    skip_case("symlink to /dev/zero", link("/dev/zero"), "in the system folder /dev")
    skip_case(
        "symlink to /dev/zero, symlinks followed",
        link("/dev/zero"),
        "in the system folder /dev",
        options=LoadSettings(follow_symlinks=True),
    )
    for name, place in [("/proc", "/proc"), ("/proc/1 (init)", "/proc/1"), ("/sys", "/sys")]:
        skip_case(
            f"symlink to {name}, symlinks followed",
            link(place, "sys"),
            "system folder",
            options=LoadSettings(follow_symlinks=True),
        )
    skip_case("FIFO named x.jsonl", mkfifo, "FIFO")
    skip_case("socket named s.jsonl", sock, "socket")

    fifo_root = work / "FIFO named directly"
    fifo_root.mkdir()
    os.mkfifo(fifo_root / "x.jsonl")
    cases.append(
        EdgeCase(
            "FIFO named directly", fifo_root / "x.jsonl", fifo_root / "x.jsonl", "error", "FIFO"
        )
    )

    def unreadable_file(root: Path) -> Path:
        (root / "secret.jsonl").write_text(ENTRY.replace("ok", "secret"), encoding="utf-8")
        return root / "secret.jsonl"

    def unreadable_folder(root: Path) -> Path:
        (root / "sub").mkdir()
        (root / "sub" / "a.jsonl").write_text(ENTRY.replace("ok", "a"), encoding="utf-8")
        return root / "sub"

    def listed_folder(root: Path) -> Path:
        (root / "sub").mkdir()
        (root / "sub" / "a.jsonl").write_text(ENTRY.replace("ok", "a"), encoding="utf-8")
        return root / "sub" / "a.jsonl"

    for name, make, reason in [
        ("unreadable file", unreadable_file, "cannot be read"),
        ("unreadable folder", unreadable_folder, "folder cannot be read"),
    ]:
        root = folder(name)
        target = make(root)
        cases.append(EdgeCase(name, root, target, "skip", reason, denied=(target,)))
    root = folder("folder listed but not searchable (0644)")
    inner = listed_folder(root)
    cases.append(
        EdgeCase(
            "folder listed but not searchable (0644)",
            root,
            inner,
            "skip",
            "cannot be read",
            denied=(inner,),  # as root: its open refused, as the folder's missing x bit does
            modes=((inner.parent, 0o644),),
        )
    )
    return cases


@contextlib.contextmanager
def denied(paths: tuple[Path, ...]) -> Iterator[None]:
    """``paths`` unreadable while inside: by chmod 0, or, for root (whom permissions do not
    stop), by ``os.open`` and ``os.scandir`` refusing them with EACCES as the kernel would."""
    if not paths:
        yield
        return
    if os.geteuid() != 0:
        modes = [p.stat().st_mode for p in paths]
        for p in paths:
            p.chmod(0)  # this user made them: the mode is enough
        try:
            yield
        finally:
            for p, mode in zip(paths, modes, strict=True):
                p.chmod(mode)
        return
    refused = {str(p) for p in paths}
    real_open, real_scandir = os.open, os.scandir

    def check(path: Any) -> None:
        if os.fspath(path) in refused:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))

    def guarded_open(path: Any, *args: Any, **kwargs: Any) -> int:
        check(path)
        return real_open(path, *args, **kwargs)

    def guarded_scandir(path: Any = ".") -> Any:
        check(path)
        return real_scandir(path)

    os.open, os.scandir = guarded_open, guarded_scandir
    try:
        yield
    finally:
        os.open, os.scandir = real_open, real_scandir


def run_case(case: EdgeCase, seconds: float = 10.0) -> Outcome:
    """Load ``case`` and judge the outcome against its expectation."""
    found: list[Outcome] = []

    def judge() -> Outcome:
        named = str(case.names)
        try:
            with denied(case.denied):
                batch = read_path(case.load, kind=case.kind, options=case.options)
        except LGentError as err:
            text = str(err)
            good = case.expect == "error" and named in text and case.fragment in text
            return Outcome(case.name, "error" if good else "wrong", text[:300])
        except Exception as err:
            return Outcome(case.name, "foreign", f"{type(err).__name__}: {err}"[:300])
        pairs = batch.skipped if case.expect == "skip" else batch.rejected
        for source, reason in pairs:
            if source == named and case.fragment in reason:
                return Outcome(case.name, case.expect, reason[:300])
        return Outcome(
            case.name, "wrong", f"skipped={batch.skipped} rejected={batch.rejected}"[:300]
        )

    worker = threading.Thread(target=lambda: found.append(judge()), daemon=True)
    worker.start()
    worker.join(seconds)
    if not found:
        return Outcome(case.name, "blocked", f"still loading after {seconds:.0f} s")
    return found[0]


def run_unprivileged(cases: list[EdgeCase], seconds: float = 20.0) -> list[Outcome] | str:
    """Load ``cases`` for real as an unprivileged user (``benchmarks.harness.as_user``): their
    ``denied`` paths get their mode (by chmod, as root), and a child process running as that
    user loads each and judges it as ``run_case`` does. The reason instead when no unprivileged
    user can be had. The cases' folder must be reachable by that user (mode 0755 up the path)."""
    from benchmarks.harness.as_user import unprivileged

    user = unprivileged()
    if isinstance(user, str):
        return user
    specs = []
    for case in cases:
        for path, mode in case.modes or tuple((p, 0) for p in case.denied):
            path.chmod(mode)
        specs.append(
            {
                "name": case.name,
                "load": str(case.load),
                "names": str(case.names),
                "expect": case.expect,
                "fragment": case.fragment,
                "kind": case.kind,
                "follow_symlinks": case.options.follow_symlinks,
            }
        )
    home = Path(os.path.commonpath([str(c.load) for c in cases])) / ".user-home"
    try:
        done = user.run(
            ["-m", "benchmarks.harness.edge_files", json.dumps(specs), str(seconds)],
            home=home,
            timeout=seconds * len(cases) + 60,
        )
    finally:
        for case in cases:
            for path, _ in case.modes or tuple((p, 0) for p in case.denied):
                path.chmod(0o755 if path.is_dir() else 0o644)
    if done.returncode != 0:
        return f"the unprivileged run failed: {done.stderr.strip()[-500:]}"
    return [Outcome(**o) for o in json.loads(done.stdout)]


def _judge_specs(specs: list[dict[str, Any]], seconds: float) -> list[dict[str, str]]:
    """What the unprivileged child does: each case loaded as ``run_case`` loads it."""
    outcomes = []
    for spec in specs:
        case = EdgeCase(
            spec["name"],
            Path(spec["load"]),
            Path(spec["names"]),
            spec["expect"],
            spec["fragment"],
            kind=spec["kind"],
            options=LoadSettings(follow_symlinks=spec["follow_symlinks"]),
        )
        found = run_case(case, seconds)
        outcomes.append({"case": found.case, "result": found.result, "detail": found.detail})
    return outcomes


__all__ = ["EdgeCase", "Outcome", "build_cases", "denied", "run_case", "run_unprivileged"]


if __name__ == "__main__":  # the child of ``run_unprivileged``
    print(json.dumps(_judge_specs(json.loads(sys.argv[1]), float(sys.argv[2]))))
