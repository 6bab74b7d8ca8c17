"""Hostile catalog files: each refused with a typed error naming the file, line and problem,
and the catalog left as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lgent import LGent, LoadError
from lgent.catalog.loaders import read_path
from lgent.errors import LGentError
from tests.examples import examples


def line(**fields: object) -> str:
    return json.dumps({"id": "X", "name": "X", **fields}) + "\n"


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (line(description="d" * 10_000_000), "line longer than 1000000 characters"),
        (
            line(description="d" * 500_000),
            "description: String should have at most 20000 characters",
        ),
        (
            line(keywords=[f"k{i}" for i in range(100_000)]),
            "keywords: Tuple should have at most 200 items",
        ),
        (
            line(keywords=[f"k{i}" for i in range(300)]),
            "keywords: Tuple should have at most 200 items",
        ),
        (line(name="bell\x07"), "control character"),
        ('{"id": "X", "name": "X"\n', "invalid JSON"),
        ("[1, 2]\n", "expected an object, got list"),
        (line(relations=[{"type": "depends_on"}]), "relations.0.target: is required"),
        (line(version=""), "version: is empty"),
    ],
)
def test_hostile_jsonl_lines(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"id": "Fine", "name": "Fine"}) + "\n" + content, encoding="utf-8")
    with pytest.raises(LoadError) as info:
        read_path(path)
    assert f"{path}:2" in str(info.value)
    assert fragment in str(info.value)


def test_invalid_utf8_and_binary(tmp_path: Path) -> None:
    path = tmp_path / "bin.jsonl"
    path.write_bytes(b'{"id": "A", "name": "A"}\n\xc3\x28 broken\n')
    with pytest.raises(LoadError, match=r"bin.jsonl:2: invalid UTF-8"):
        read_path(path)


def test_bad_front_matter_and_yaml(tmp_path: Path) -> None:
    (tmp_path / "card.md").write_text("---\nid: [unclosed\n---\nbody\n", encoding="utf-8")
    (tmp_path / "tools.yaml").write_text(
        "- id: A\n  name: A\n  status: vanished\n", encoding="utf-8"
    )
    with pytest.raises(LoadError) as info:
        read_path(tmp_path)
    messages = [str(e) for e in info.value.errors]
    assert any("card.md" in m and "invalid YAML" in m for m in messages)
    assert any("tools.yaml:3" in m and "status" in m for m in messages)


async def test_a_hostile_file_leaves_the_catalog_unchanged(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(line(), encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        line(id="Y", name="Y") + line(id="Z", name="Z", description="z" * 30_000), encoding="utf-8"
    )
    async with LGent.open(tmp_path / "home") as lg:
        await lg.load(good)
        before = await lg.stats()
        with pytest.raises(LoadError):
            await lg.load(bad)
        assert await lg.stats() == before


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    [
        "id",
        "name",
        "version",
        "status",
        "entity_type",
        "keywords",
        "relations",
        "success_rate",
        "input_type",
        "type",
        "subtype_of",
        "params",
        "last_used",
        "zzz",
    ]
)
RECORDS = st.dictionaries(FIELDS, JSON_VALUES, max_size=6)


@settings(
    max_examples=examples(500),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.one_of(RECORDS.map(json.dumps), st.text(max_size=40)), max_size=6))
def test_fuzz_loader_gives_records_or_a_load_error(tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "fuzz.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
    try:
        batch = read_path(path)
    except LGentError as err:
        assert isinstance(err, LoadError) and str(err)
    else:
        assert len(batch.records) <= len(lines)
