"""tantivy's own list of the files it manages (``.managed.json``), checked against the manifest.

tantivy records there every file it has created, so that its garbage collection deletes only
its own files. It is not checksummed with the others: tantivy rewrites it whenever a writer
creates a file, also during a catch-up that a crash may stop before the next manifest is
written. What must hold instead is that it is a JSON list of file names naming every file of
the committed index (the files the manifest checksums): a damaged list could leave tantivy
blind to live files. The keyword brain checks it on open (a failure is treated like a damaged
file: not served, rebuilt) and ``lgent doctor`` reports it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

MANAGED = ".managed.json"


def managed_problem(directory: Path, manifest: Mapping[str, Any]) -> str | None:
    """Why ``directory``'s ``.managed.json`` does not match the index its manifest describes,
    or None when it does."""
    path = directory / MANAGED
    try:
        listed = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"{path}: missing"
    except (OSError, ValueError) as err:
        return f"{path}: unreadable ({err})"
    if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
        return f"{path}: not a list of file names"
    recorded = manifest.get("checksums")
    needed = set(recorded) if isinstance(recorded, Mapping) else set()
    missing = sorted(needed - set(listed))
    if missing:
        return f"{path}: does not list {', '.join(missing[:3])} of the committed index"
    return None
