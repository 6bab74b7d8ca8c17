"""The PostgreSQL catalog's tables: their definition, the schema versions, creating them in a new
schema and upgrading an older catalog in place (``lgent.catalog.postgres`` uses them on its
first connection)."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg

from lgent.catalog.records import ENTRY_SUMMED, row_sum
from lgent.errors import CatalogError

SCHEMA_VERSION = 3
LEGACY_SCHEMA = 1
UNNAMED_SCHEMA = 2
"""Before the change log named its writer and status (upgraded on a writable open)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    id TEXT COLLATE "C" NOT NULL,
    version TEXT COLLATE "C" NOT NULL,
    is_latest BOOLEAN NOT NULL DEFAULT FALSE,
    name TEXT NOT NULL,
    entity_type TEXT NOT NULL,
    status TEXT NOT NULL,
    author TEXT,
    input_type TEXT,
    output_type TEXT,
    execution TEXT,
    data TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    registered_at TEXT NOT NULL,
    owner_kind TEXT,
    owner_name TEXT,
    row_sum TEXT,
    PRIMARY KEY (id, version)
);
CREATE INDEX IF NOT EXISTS entries_latest ON entries (id) WHERE is_latest;
CREATE INDEX IF NOT EXISTS entries_type ON entries (entity_type) WHERE is_latest;
CREATE INDEX IF NOT EXISTS entries_status ON entries (status) WHERE is_latest;
CREATE INDEX IF NOT EXISTS entries_author ON entries (author) WHERE is_latest;
CREATE INDEX IF NOT EXISTS entries_input ON entries (input_type) WHERE is_latest;
CREATE INDEX IF NOT EXISTS entries_output ON entries (output_type) WHERE is_latest;
CREATE TABLE IF NOT EXISTS types (
    name TEXT COLLATE "C" PRIMARY KEY,
    data TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    row_sum TEXT
);
CREATE TABLE IF NOT EXISTS changes (
    seq BIGINT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('entry', 'type')),
    op TEXT NOT NULL CHECK (op IN ('upsert', 'remove')),
    key TEXT COLLATE "C" NOT NULL,
    version TEXT,
    at TEXT NOT NULL,
    row_sum TEXT,
    writer TEXT,
    status TEXT
);
CREATE INDEX IF NOT EXISTS changes_key ON changes (key, seq)
"""

_UPGRADE_COLUMNS = (
    ("entries", "owner_kind"),
    ("entries", "owner_name"),
    ("entries", "row_sum"),
    ("types", "row_sum"),
    ("changes", "row_sum"),
)
_NAMING_COLUMNS = (("changes", "writer"), ("changes", "status"))
"""What schema version 3 added to version 2: who wrote each change, and the status."""


def create_tables(conn: psycopg.Connection[tuple[Any, ...]], location: str) -> None:
    """Create the tables if they are missing, all in one transaction. An existing catalog is
    left alone: ``CREATE INDEX IF NOT EXISTS`` would take a SHARE lock on its table before
    finding the index, and that lock deadlocks with a writer of another process."""
    created = "SELECT to_regclass('meta') IS NOT NULL AND to_regclass('changes') IS NOT NULL"
    try:
        row = conn.execute(created).fetchone()
        if row is not None and row[0]:
            return
        with conn.transaction():
            # processes that start together must not create the same tables at once
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(current_schema()))")
            for statement in _SCHEMA.strip().split(";"):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', %s), "
                "('catalog_id', %s) ON CONFLICT (key) DO NOTHING",
                (str(SCHEMA_VERSION), uuid.uuid4().hex),
            )
    except psycopg.Error as err:
        raise CatalogError(f"{location}: cannot create the catalog tables: {err}") from err


def upgrade(conn: psycopg.Connection[tuple[Any, ...]], location: str) -> None:
    """Schema version 1 or 2 -> 3 (from 1: the owner and checksum columns, every row summed
    as it stands, its owner unknown; from both: the change log's writer and status), in one
    transaction holding the change log's lock, so writers wait and the first process to
    open the catalog for writing does it once."""
    query = "SELECT value FROM meta WHERE key = 'schema_version'"
    older = (str(LEGACY_SCHEMA), str(UNNAMED_SCHEMA))
    try:
        row = conn.execute(query).fetchone()
        if row is None or row[0] not in older:
            return
        with conn.transaction():
            conn.execute("LOCK TABLE changes IN EXCLUSIVE MODE")
            row = conn.execute(query).fetchone()
            if row is None or row[0] not in older:
                return
            if row[0] == str(LEGACY_SCHEMA):
                for table, column in _UPGRADE_COLUMNS:
                    conn.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} TEXT")
                _sum_all(conn)
            for table, column in _NAMING_COLUMNS:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} TEXT")
            conn.execute(
                "UPDATE meta SET value = %s WHERE key = 'schema_version'",
                (str(SCHEMA_VERSION),),
            )
    except psycopg.Error as err:
        raise CatalogError(f"{location}: cannot upgrade the catalog: {err}") from err


def _sum_all(conn: psycopg.Connection[tuple[Any, ...]]) -> None:
    """Set every row's ``row_sum`` from its values (the upgrade to schema version 2)."""
    entries = conn.execute(f"SELECT {ENTRY_SUMMED} FROM entries").fetchall()
    types = conn.execute("SELECT name, data, content_hash FROM types").fetchall()
    changes = conn.execute("SELECT seq, kind, op, key, version, at FROM changes").fetchall()
    with conn.cursor() as cur:
        cur.executemany(
            "UPDATE entries SET row_sum = %s WHERE id = %s AND version = %s",
            [(row_sum(r), r[0], r[1]) for r in entries],
        )
        cur.executemany(
            "UPDATE types SET row_sum = %s WHERE name = %s", [(row_sum(r), r[0]) for r in types]
        )
        cur.executemany(
            "UPDATE changes SET row_sum = %s WHERE seq = %s", [(row_sum(r), r[0]) for r in changes]
        )
