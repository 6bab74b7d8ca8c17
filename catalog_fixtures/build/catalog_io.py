"""Read the example catalog back from its files (independently of generate.py).

Pure Python + PyYAML. Used by validate.py, check_queries.py and suggest.py.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DATA_SUFFIXES = {".jsonl", ".json", ".yaml", ".yml", ".md"}


@dataclass
class Loaded:
    entries: list[tuple[dict, str]] = field(default_factory=list)  # (record, source)
    types: list[tuple[dict, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    def latest(self) -> dict[str, dict]:
        """id -> the entry with the highest version."""
        out: dict[str, dict] = {}
        for rec, _ in self.entries:
            cur = out.get(rec["id"])
            if cur is None or semver_key(rec.get("version", "0.1.0")) > semver_key(cur.get("version", "0.1.0")):
                out[rec["id"]] = rec
        return out


def semver_key(v: str) -> tuple:
    core = v.split("+")[0].split("-")[0]
    return tuple(int(x) for x in core.split("."))


def ignore_patterns(root: Path) -> list[str]:
    f = root / ".lgentignore"
    if not f.is_file():
        return []
    return [ln.strip() for ln in f.read_text().splitlines() if ln.strip() and not ln.startswith("#")]


def ignored(rel: str, patterns: list[str]) -> bool:
    parts = rel.split("/")
    for pat in patterns:
        dir_only = pat.endswith("/")
        p = pat.rstrip("/").lstrip("/")
        for i in range(len(parts)):
            prefix = "/".join(parts[: i + 1])
            is_dir = i < len(parts) - 1
            if dir_only and not is_dir:
                continue
            if fnmatch.fnmatch(prefix, p) or ("/" not in p and fnmatch.fnmatch(parts[i], p)):
                return True
    return False


def front_matter(text: str) -> str | None:
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            return "\n".join(lines[1:i])
    return None


def load(root: Path = ROOT) -> Loaded:
    out = Loaded()
    patterns = ignore_patterns(root)
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_dir() or any(p.startswith(".") for p in rel.split("/")):
            continue
        if ignored(rel, patterns) or path.suffix not in DATA_SUFFIXES:
            continue
        out.files.append(rel)
        text = path.read_text(encoding="utf-8")
        records: list[tuple[object, str]] = []
        try:
            if path.suffix == ".jsonl":
                for n, line in enumerate(text.splitlines(), 1):
                    if line.strip():
                        records.append((json.loads(line), f"{rel}:{n}"))
            elif path.suffix == ".json":
                obj = json.loads(text)
                records += [(o, rel) for o in (obj if isinstance(obj, list) else [obj])]
            elif path.suffix in (".yaml", ".yml"):
                obj = yaml.safe_load(text)
                records += [(o, rel) for o in (obj if isinstance(obj, list) else [obj])]
            else:
                fm = front_matter(text)
                if fm is None:
                    out.problems.append(f"{rel}: Markdown without front matter")
                    continue
                records.append((yaml.safe_load(fm), rel))
        except (json.JSONDecodeError, yaml.YAMLError) as err:
            out.problems.append(f"{rel}: cannot parse: {err}")
            continue
        for obj, src in records:
            if not isinstance(obj, dict):
                out.problems.append(f"{src}: not a mapping")
            elif "id" in obj:
                out.entries.append((obj, src))
            elif "type" in obj:
                out.types.append((obj, src))
            else:
                out.problems.append(f"{src}: neither an entry (id) nor a type declaration (type)")
    return out


def load_queries(root: Path = ROOT) -> list[dict]:
    path = root / "queries" / "labeled_queries.jsonl"
    return [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines() if l.strip()]
