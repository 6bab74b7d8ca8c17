"""Records as JSON text: the canonical text is byte for byte the standard library's (stored
hashes depend on it), the stored text decodes to the same record, and a type stored by an
earlier version's encoder is still recognised as unchanged."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from lgent.catalog.json_text import canonical_json, stored_json
from lgent.catalog.records import content_hash, row_sum
from lgent.catalog.store import CatalogStore
from lgent.models import TypeDecl

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()  # beyond 64 bits too: orjson refuses those
    | st.floats(allow_nan=False, allow_infinity=False)  # exponents both ways, -0.0
    | st.text()  # control characters, unpaired surrogates, U+2028
)
RECORDS = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def standard(record: Any) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@given(RECORDS)
def test_the_canonical_text_is_the_standard_librarys(record: Any) -> None:
    assert canonical_json(record) == standard(record)


@given(RECORDS)
def test_the_stored_text_decodes_to_the_record(record: Any) -> None:
    assert json.loads(stored_json(record)) == record


def test_numbers_orjson_writes_otherwise_are_written_as_json_does() -> None:
    record = {"big": 1e16, "small": 1e-07, "tiny": 6.103515625e-05, "huge": 2**70, "k": 0.1}
    assert canonical_json(record) == standard(record)
    assert '"big":1e+16' in canonical_json(record)
    digest = hashlib.sha256(standard(record).encode()).hexdigest()
    assert content_hash(record) == digest


def test_a_type_stored_with_an_earlier_encoders_text_is_unchanged(tmp_path: Path) -> None:
    decl = TypeDecl(type="Invoice", subtype_of=("Document",))
    with CatalogStore(tmp_path / "catalog.db") as store:
        store.register_batch([], [TypeDecl(type="Document"), decl])
    record = decl.to_record()
    old_text = json.dumps(record, ensure_ascii=False)  # ", " and ": ", as before orjson
    values = ("Invoice", old_text, content_hash(record))
    with sqlite3.connect(tmp_path / "catalog.db") as conn:
        conn.execute(
            "UPDATE types SET data = ?, row_sum = ? WHERE name = 'Invoice'",
            (old_text, row_sum(values)),
        )
    with CatalogStore(tmp_path / "catalog.db") as store:
        number = store.change_number()
        result = store.register_batch([], [decl])
        assert result.types_unchanged == ["Invoice"] and not result.types_updated
        assert store.change_number() == number
