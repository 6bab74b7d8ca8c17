"""Every catalog row carries a checksum verified on read and by ``check``, and every entry version
records its owner; run against every backend (``store`` fixture)."""

from __future__ import annotations

import sqlite3

import psycopg
import pytest

from lgent.catalog.postgres import PostgresCatalog
from lgent.catalog.protocol import Catalog
from lgent.catalog.records import WRITER, EntryFilter, Owner
from lgent.catalog.replica import ReplicaCatalog
from lgent.catalog.store import CatalogStore
from lgent.errors import CatalogCorruptError, OwnershipError
from lgent.models import TypeDecl
from tests.conftest import make_entry

SERVER = Owner("server", "stdio:python srv.py")
OTHER_SERVER = Owner("server", "https://example.test/mcp")
CATALOG_FILE = Owner("file", "/catalogs/tools.jsonl")


def edit_in_place(store: Catalog, sql: str) -> None:
    """Run ``sql`` on the rows the store answers from, behind its back (a stray write, a
    hand edit, a damaged page that still parses)."""
    if isinstance(store, ReplicaCatalog):
        store = store.mirror
    if isinstance(store, PostgresCatalog):
        with psycopg.connect(store.url, autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]
        return
    assert isinstance(store, CatalogStore)
    if store.path is None:
        store._conn.execute(sql)
        return
    conn = sqlite3.connect(store.path)
    with conn:
        conn.execute(sql)
    conn.close()


def test_an_entry_edited_in_place_is_never_served(store: Catalog) -> None:
    store.register_batch([make_entry("A", description="counts apples"), make_entry("B")])
    edit_in_place(store, "UPDATE entries SET data = replace(data, 'apples', 'pears')")
    for read in (
        lambda: store.get("A"),
        lambda: store.get("A", "0.1.0"),
        lambda: store.get_many(["A", "B"]),
        lambda: store.snapshot(["A"]),
        lambda: store.list_entries(),
        lambda: list(store.iter_latest()),
    ):
        with pytest.raises(CatalogCorruptError, match=r"'A' version 0\.1\.0 fails its checksum"):
            read()
    assert store.get("B").id == "B"  # the other rows are still served
    failed = [f for f in store.check() if f.level == "fail"]
    assert failed and "entry 'A' version 0.1.0" in failed[0].message
    if isinstance(store, ReplicaCatalog):
        return  # its copy is repaired by copying it again (doctor says: delete replica.db)
    # registering the same content again repairs the row
    result = store.register_batch([make_entry("A", description="counts apples")])
    assert result.updated == ["A"]
    assert store.get("A").description == "counts apples"
    assert all(f.level == "ok" for f in store.check())


def test_a_filter_column_edited_in_place_is_caught(store: Catalog) -> None:
    store.register_batch([make_entry("A", status="active")])
    edit_in_place(store, "UPDATE entries SET status = 'retired'")
    with pytest.raises(CatalogCorruptError, match="'A'"):
        store.list_entries(EntryFilter(status="retired"))


def test_type_and_change_rows_are_checked(store: Catalog) -> None:
    store.register_batch([make_entry("A")], [TypeDecl(type="Document")])
    edit_in_place(store, "UPDATE types SET data = replace(data, 'Document', 'Documenx')")
    with pytest.raises(CatalogCorruptError, match="type 'Document'"):
        store.types()
    edit_in_place(store, "UPDATE changes SET key = 'Z' WHERE key = 'A'")
    with pytest.raises(CatalogCorruptError, match="change log row"):
        store.changes_since(0)
    message = " ".join(f.message for f in store.check() if f.level == "fail")
    assert "type 'Document'" in message and "change " in message


def test_each_version_records_its_owner(store: Catalog) -> None:
    store.register_batch([make_entry("A", version="1.0.0")], owners={"A": CATALOG_FILE})
    store.register_batch([make_entry("A", version="2.0.0"), make_entry("B")])
    assert store.owners(["A", "B", "missing"]) == {"A": WRITER, "B": WRITER}
    assert store.version_owners("A") == {"1.0.0": CATALOG_FILE, "2.0.0": WRITER}
    # the same content again is the same version: it stays credited to its first writer
    store.register_batch([make_entry("A", version="1.0.0")], owners={"A": Owner("file", "/x")})
    assert store.version_owners("A")["1.0.0"] == CATALOG_FILE


def test_only_its_own_source_changes_an_imported_artifact(store: Catalog) -> None:
    store.register_batch([make_entry("srv", description="harvested")], owners={"srv": SERVER})
    before = store.change_number()
    for claimant in (OTHER_SERVER, CATALOG_FILE, WRITER):
        with pytest.raises(OwnershipError, match=r"'srv' belongs to MCP server stdio:python"):
            store.register_batch(
                [make_entry("srv", version="9.9.9"), make_entry("new")],
                owners={"srv": claimant, "new": claimant},
            )
    assert store.change_number() == before and not store.exists("new")
    assert store.versions("srv") == ["0.1.0"]
    store.register_batch([make_entry("srv", version="1.1.0")], owners={"srv": SERVER})
    assert store.get("srv").version == "1.1.0"


def test_an_import_never_takes_over_an_authored_artifact(store: Catalog) -> None:
    store.register_batch([make_entry("PDFParser_v2")], owners={"PDFParser_v2": CATALOG_FILE})
    with pytest.raises(OwnershipError) as caught:
        store.register_batch(
            [make_entry("PDFParser_v2", version="9.9.9")], owners={"PDFParser_v2": SERVER}
        )
    assert caught.value.owner == CATALOG_FILE and caught.value.claimant == SERVER
    assert "catalog file /catalogs/tools.jsonl" in str(caught.value)
    assert store.versions("PDFParser_v2") == ["0.1.0"]
    # authors share: a writer (or another catalog file) may add a version
    store.register_batch([make_entry("PDFParser_v2", version="2.0.0")])
    assert store.version_owners("PDFParser_v2")["2.0.0"] == WRITER
