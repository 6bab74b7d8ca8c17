"""The LGent facade's catalog operations, in memory and on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lgent import CatalogError, LGent, LoadError, NotFoundError, QueryError, ValidationError
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.catalog.records import EntryFilter
from lgent.models import TypeDecl
from tests.conftest import make_entry


@pytest.fixture(params=["memory", "disk"])
def home(request: pytest.FixtureRequest, tmp_path: Path) -> Path | None:
    return None if request.param == "memory" else tmp_path / "home"


async def test_open_creates_home_and_round_trips(home: Path | None) -> None:
    async with LGent.open(home) as lg:
        await lg.register(make_entry("A", description="alpha"))
        await lg.register_many([make_entry("B"), make_entry("C", version="1.0.0")])
        assert (await lg.get("A")).description == "alpha"
        assert await lg.remove("B") == 1
        with pytest.raises(NotFoundError):
            await lg.get("B")
        assert await lg.versions("C") == ["1.0.0"]
        with pytest.raises(NotFoundError, match="no artifact with id 'B'"):
            await lg.versions("B")
        assert [e.id for e in await lg.list_entries(EntryFilter())] == ["A", "C"]
    if home is not None:
        assert (home / "catalog.db").is_file()
        async with LGent.open(home) as lg:
            assert (await lg.stats())["artifacts"] == 2


async def test_load_reports_and_warns(tmp_path: Path, home: Path | None) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text(
        json.dumps({"type": "PDF"})
        + "\n"
        + json.dumps(
            {
                "id": "A",
                "name": "A",
                "input_type": "PDF",
                "output_type": "Mystery",
                "relations": [{"type": "depends_on", "target": "Ghost"}],
            }
        )
        + "\n"
    )
    async with LGent.open(home) as lg:
        report = await lg.load(f)
        assert report.result.added == ["A"] and report.result.types_added == ["PDF"]
        assert any("'Mystery' is not declared" in w for w in report.warnings)
        assert any("'Ghost' is not in the catalog" in w for w in report.warnings)
        again = await lg.load(f)
        assert (
            again.result.unchanged == ["A"]
            and again.result.change_number == report.result.change_number
        )


async def test_type_cycle_refuses_the_whole_batch(tmp_path: Path, home: Path | None) -> None:
    f = tmp_path / "types.jsonl"
    f.write_text(
        "".join(
            json.dumps(t) + "\n"
            for t in [
                {"type": "A", "subtype_of": ["C"]},
                {"type": "B", "subtype_of": ["A"]},
                {"type": "C", "subtype_of": ["B"]},
            ]
        )
        + json.dumps({"id": "X", "name": "X"})
        + "\n"
    )
    async with LGent.open(home) as lg:
        with pytest.raises(LoadError, match=r"types.jsonl:\d: subtype cycle: (\w -> ){3}\w"):
            await lg.load(f)
        assert (await lg.stats())["artifacts"] == 0


async def test_cycle_with_existing_types_is_caught(home: Path | None) -> None:
    async with LGent.open(home) as lg:
        await lg.register_many([], [TypeDecl(type="A"), TypeDecl(type="B", subtype_of=("A",))])
        with pytest.raises(LoadError, match="subtype cycle"):
            await lg.register_many([], [TypeDecl(type="A", subtype_of=("B",))])
        with pytest.raises(LoadError, match="unknown supertype 'Nowhere'"):
            await lg.register_many([], [TypeDecl(type="D", subtype_of=("Nowhere",))])
        assert [t.type for t in await lg.types()] == ["A", "B"]


async def test_bad_file_leaves_catalog_unchanged(tmp_path: Path, home: Path | None) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps({"id": "Keep", "name": "Keep"}) + "\n")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        "".join(json.dumps({"id": f"N{i}", "name": "N"}) + "\n" for i in range(6))
        + json.dumps({"id": "N6", "name": "N", "success_rate": 3})
        + "\n"
    )
    async with LGent.open(home) as lg:
        await lg.load(good)
        before = await lg.stats()
        with pytest.raises(LoadError, match=r"bad.jsonl:7: .*success_rate"):
            await lg.load(bad)
        assert await lg.stats() == before


async def test_list_offsets_and_limits_out_of_range_are_query_errors(home: Path | None) -> None:
    async with LGent.open(home) as lg:
        await lg.register(make_entry("A"))
        for bad in ({"offset": 2**63}, {"offset": -1}, {"limit": -1}, {"limit": True}):
            with pytest.raises(QueryError, match="must be an integer from 0 to"):
                await lg.list_entries(**bad)  # type: ignore[arg-type]
        assert [e.id for e in await lg.list_entries(limit=1, offset=0)] == ["A"]


async def test_list_filters_are_checked_and_may_be_a_mapping() -> None:
    async with LGent.open(None) as lg:
        await lg.register_many(
            [make_entry("A", status="active"), make_entry("B", status="experimental")]
        )
        assert [e.id for e in await lg.list_entries(EntryFilter(status="Active"))] == ["A"]
        assert [e.id for e in await lg.list_entries({"status": "experimental"})] == ["B"]
        assert await lg.count_entries({"entity_type": "TOOL"}) == 2
        with pytest.raises(QueryError, match=r"filter status: unknown value 'zombie' \(one of"):
            await lg.list_entries({"status": "zombie"})
        with pytest.raises(QueryError, match="filter entity_type: unknown value 5"):
            EntryFilter(entity_type=5)  # type: ignore[arg-type]
        with pytest.raises(QueryError, match="filter author: expected a string, got int"):
            EntryFilter(author=3)  # type: ignore[arg-type]
        with pytest.raises(QueryError, match="filter output_type: empty"):
            await lg.list_entries({"output_type": "  "})
        with pytest.raises(QueryError, match=r"unknown field\(s\) colour"):
            await lg.count_entries({"colour": "red"})
        with pytest.raises(QueryError, match="expected an EntryFilter or a mapping, got str"):
            await lg.list_entries("active")  # type: ignore[arg-type]


def test_one_liners_refuse_a_folder_without_a_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lgent

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LGENT_HOME", raising=False)
    with pytest.raises(CatalogError, match=r"no catalog at \.lgent"):
        lgent.search("pdf parser")
    with pytest.raises(CatalogError, match=r"no catalog at .*typo"):
        lgent.fill_holes(["A", "???", "B"], home=tmp_path / "typo")
    assert not (tmp_path / ".lgent").exists() and not (tmp_path / "typo").exists()


async def test_a_closed_lgent_says_so(tmp_path: Path) -> None:
    async with LGent.open(tmp_path / "home") as lg:
        await lg.register(make_entry("A"))
    for call in (
        lambda: lg.query("A"),
        lambda: lg.search("A"),
        lambda: lg.get("A"),
        lambda: lg.list_entries(),
        lambda: lg.register(make_entry("B")),
        lambda: lg.lineage("A"),
    ):
        with pytest.raises(CatalogError, match="is closed; open the home again"):
            await call()


async def test_a_blank_version_is_named_as_the_problem() -> None:
    async with LGent.open(None) as lg:
        await lg.register(make_entry("A"))
        for call in (lambda: lg.get("A", ""), lambda: lg.remove("A", " ")):
            with pytest.raises(ValidationError, match="version: must not be empty"):
                await call()
        assert (await lg.get("A")).id == "A"


async def test_settings_may_be_a_mapping_and_are_checked_either_way() -> None:
    from lgent.config import Settings
    from lgent.errors import SettingsError

    async with LGent.open(None, settings={"cache": {"size": 0}}) as lg:
        assert lg.settings.cache.size == 0
    with pytest.raises(SettingsError, match=r"cache\.size: must be an integer >= 0, got -1"):
        async with LGent.open(None, settings={"cache": {"size": -1}}):
            pass
    with pytest.raises(SettingsError, match=r"settings\.cache: expected CacheSettings, got dict"):
        Settings(cache={"size": -1})  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="expected Settings or a mapping of sections, got int"):
        async with LGent.open(None, settings=5):  # type: ignore[arg-type]
            pass


async def test_a_query_of_an_empty_catalog_says_it_is_empty(tmp_path: Path) -> None:
    async with LGent.open(tmp_path / "mistyped") as lg:  # a mistyped path opens a new home
        empty = await lg.query("pdf")
        await lg.register(make_entry("PDFParser"))
        held = await lg.query("zzz unrelated words")
    assert empty.results == () and empty.warnings == (
        f"the catalog at {tmp_path / 'mistyped'} is empty: load artifacts into it first "
        "(LGent.load, lgent load)",
    )
    assert not any("is empty" in w for w in held.warnings)


@pytest.mark.parametrize(("weak_match", "warned"), [(1.0, True), (-1.0, False)])
async def test_a_semantic_search_whose_best_match_is_weak_says_so(
    weak_match: float, warned: bool
) -> None:
    settings = {"semantic": {"weak_match": weak_match, "threshold": -1.0}}
    async with LGent.open(None, settings, embedder=HashingEmbedder(64)) as lg:
        await lg.register_many([make_entry("A", description="parses pdf files")])
        found = await lg.search("parse pdf", brain="semantic")
    said = [w for w in found.warnings if w.startswith("weak match")]
    assert found.hits and len(said) == int(warned)
    if warned:
        assert said[0].startswith("weak match: nothing is close in meaning (best similarity")
