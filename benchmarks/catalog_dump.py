"""Every row of a home's catalog as sorted JSON lines, to compare what two versions of L-gent
imported (``diff`` the two files: they must be identical).

    python -m benchmarks.catalog_dump HOME OUT.jsonl

Entry rows (every version, every stored column; ``data`` parsed, keys sorted), type rows, and
the change log, leaving out only the times of writing (``registered_at``, a change's ``at``)
and the change rows' checksums, which cover those times. An entry's ``row_sum`` covers its
stored JSON text, whose key order can differ between processes where a reader builds a
mapping from a set (run both loads with the same ``PYTHONHASHSEED`` to compare it too).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

LEFT_OUT = {"registered_at", "at"}


def _rows(conn: sqlite3.Connection, table: str, order: str, left_out: set[str]) -> Iterator[str]:
    columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
    kept = [c for c in columns if c not in left_out]
    for row in conn.execute(f"SELECT {', '.join(kept)} FROM {table} ORDER BY {order}"):
        record: dict[str, Any] = {"table": table, **dict(zip(kept, row, strict=True))}
        if table != "changes" and isinstance(record.get("data"), str):
            record["data"] = json.loads(record["data"])
        yield json.dumps(record, sort_keys=True, ensure_ascii=False)


def dump(home: Path) -> Iterator[str]:
    """The lines of ``home``'s catalog (``home/catalog.db``)."""
    conn = sqlite3.connect(f"file:{home / 'catalog.db'}?mode=ro", uri=True)
    try:
        yield from _rows(conn, "entries", "id, version", LEFT_OUT)
        yield from _rows(conn, "types", "name", LEFT_OUT)
        yield from _rows(conn, "changes", "seq", LEFT_OUT | {"row_sum"})
    finally:
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("home", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    with args.out.open("w", encoding="utf-8") as out:
        count = 0
        for line in dump(args.home):
            out.write(line + "\n")
            count += 1
    print(f"{count} rows of {args.home} written to {args.out}")


if __name__ == "__main__":
    main()
