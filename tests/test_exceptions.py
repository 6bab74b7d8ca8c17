"""No public call lets a foreign exception escape: wrong shapes, corrupt files and hostile input
all come back as an LGentError subclass with a message that names the problem."""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from lgent import LGent, LGentError
from lgent.errors import (
    CatalogCorruptError,
    ConstraintError,
    LoadError,
    NotFoundError,
    QueryError,
    TypeLatticeError,
    ValidationError,
)
from tests.conftest import OpenHome

Call = Callable[[LGent], Awaitable[Any]]

CASES: list[tuple[str, Call, type[LGentError], str]] = [
    ("get int id", lambda lg: lg.get(123), ValidationError, "artifact_id: expected a string"),
    ("get missing", lambda lg: lg.get("Nope"), NotFoundError, "no artifact with id 'Nope'"),
    (
        "register str",
        lambda lg: lg.register("NewsParser"),
        ValidationError,
        "entry: expected a CatalogEntry",
    ),
    (
        "register dict bad",
        lambda lg: lg.register({"id": "X", "name": "X", "success_rate": 2}),
        ValidationError,
        "success_rate",
    ),
    (
        "register_many dict",
        lambda lg: lg.register_many({"id": "X"}),
        ValidationError,
        "expected a list of entries",
    ),
    (
        "register_many int",
        lambda lg: lg.register_many(5),
        ValidationError,
        "expected a list of entries",
    ),
    ("load int", lambda lg: lg.load(5), ValidationError, "expected a file or folder path"),
    ("load missing", lambda lg: lg.load("/no/such/path"), LoadError, "no such file or folder"),
    ("remove missing", lambda lg: lg.remove("Nope"), NotFoundError, "no artifact"),
    ("query None", lambda lg: lg.query(None), QueryError, "query must be a string"),
    ("query 100 KB", lambda lg: lg.query("x" * 100_000), QueryError, "the limit is 2000"),
    (
        "query limit str",
        lambda lg: lg.query("pdf", limit="10"),
        QueryError,
        "limit must be an integer",
    ),
    (
        "query limit huge",
        lambda lg: lg.query("pdf", limit=10**9),
        QueryError,
        "limit must be an integer",
    ),
    (
        "query limit negative",
        lambda lg: lg.query("pdf", limit=-1),
        QueryError,
        "limit must be an integer",
    ),
    (
        "query constraints int",
        lambda lg: lg.query("pdf", constraints=5),
        ValidationError,
        "constraints",
    ),
    (
        "query constraint bad",
        lambda lg: lg.query("pdf", constraints=["latency < soon"]),
        ConstraintError,
        "bad constraint",
    ),
    (
        "query context str",
        lambda lg: lg.query("pdf", context="x"),
        ValidationError,
        "context: expected a QueryContext",
    ),
    (
        "query nul",
        lambda lg: lg.query("pdf\x00parser"),
        QueryError,
        "control character '\\x00' at position 3",
    ),
    (
        "search filters bad",
        lambda lg: lg.search("pdf", filters={"status": ["gone"]}),
        ValidationError,
        "status",
    ),
    ("search brain bad", lambda lg: lg.search("pdf", brain="psychic"), QueryError, "unknown brain"),
    ("resolve dict", lambda lg: lg.resolve({"input_type": "PDF"}), ValidationError, "output_type"),
    (
        "resolve str",
        lambda lg: lg.resolve("PDF -> Text"),
        ValidationError,
        "expected a TypeRequirement",
    ),
    (
        "resolve unknown type",
        lambda lg: lg.resolve({"input_type": "Nope", "output_type": "Text"}),
        TypeLatticeError,
        "unknown type 'Nope'",
    ),
    ("fill str", lambda lg: lg.fill_holes("A ??? B"), QueryError, "pipeline must be a list"),
    ("paths int", lambda lg: lg.find_paths(1, "Text"), ValidationError, "source_type"),
    ("paths k", lambda lg: lg.find_paths("PDF", "Text", k=0), ValidationError, "k"),
    ("paths unknown", lambda lg: lg.find_paths("Nope", "Text"), TypeLatticeError, "unknown type"),
    (
        "compatible dir",
        lambda lg: lg.compatible("NewsParser", direction="sideways"),
        ValidationError,
        "direction",
    ),
    ("lineage depth", lambda lg: lg.lineage("NewsParser", depth=0), ValidationError, "depth"),
    ("similar missing", lambda lg: lg.similar("Nope"), NotFoundError, "Nope"),
]


@pytest.mark.parametrize(("name", "call", "error", "message"), CASES, ids=[c[0] for c in CASES])
async def test_public_calls_raise_only_lgent_errors(
    open_example: OpenHome, name: str, call: Call, error: type[LGentError], message: str
) -> None:
    async with open_example() as lg:
        with pytest.raises(LGentError) as info:
            await call(lg)
    assert isinstance(info.value, error), f"{name}: {type(info.value).__name__}: {info.value}"
    assert message in str(info.value)


async def test_corrupt_indexes_are_rebuilt_and_corrupt_catalog_is_named(
    example_home: Path, real_embedder: Any, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    shutil.copytree(example_home, home)
    for brain in ("keyword", "semantic"):
        for f in (home / "indexes" / brain).iterdir():
            if f.is_file() and f.suffix != ".sqlite":
                f.write_bytes(b"\x00garbage" * 64)
    async with LGent.open(home, embedder=real_embedder) as lg:
        response = await lg.query("NewsParser")
    assert response.results[0].id == "NewsParser"
    (home / "catalog.db").write_bytes(b"not a database" * 100)
    for suffix in ("-wal", "-shm"):
        (home / f"catalog.db{suffix}").unlink(missing_ok=True)
    with pytest.raises(CatalogCorruptError, match="not a readable L-gent catalog"):
        async with LGent.open(home):
            pass
