"""Every loader format, the folder walk, and the problems they report (file:line:field)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from lgent.catalog.loaders import read_path
from lgent.errors import LoadError, ValidationError
from lgent.models import CatalogEntry


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def jsonl(*records: dict[str, object]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def test_jsonl_entries_and_types(tmp_path: Path) -> None:
    f = write(
        tmp_path / "c.jsonl",
        jsonl(
            {"type": "PDF", "subtype_of": []},
            {"id": "A", "name": "A", "input_type": "PDF"},
        )
        + "\n   \n"
        + jsonl({"id": "B", "name": "B"}),
    )
    batch = read_path(f)
    assert [e.id for e in batch.entries] == ["A", "B"]
    assert [t.type for t in batch.types] == ["PDF"]
    assert [r.line for r in batch.records] == [1, 2, 5]


def test_jsonl_error_names_file_line_and_field(tmp_path: Path) -> None:
    lines = [{"id": f"X{i}", "name": "X"} for i in range(6)] + [
        {"id": "X6", "name": "X", "success_rate": 3}
    ]
    f = write(tmp_path / "bad.jsonl", jsonl(*lines))
    with pytest.raises(LoadError) as info:
        read_path(f)
    (problem,) = info.value.errors
    assert isinstance(problem, ValidationError)
    assert (problem.source, problem.line, problem.fields) == (str(f), 7, ["success_rate"])
    assert str(info.value).startswith(f"{f}:7: entry 'X6': invalid success_rate")


def test_all_problems_are_collected(tmp_path: Path) -> None:
    f = write(tmp_path / "bad.jsonl", '{"id": "A"}\nnot json\n{"name": "no id"}\n[1]\n')
    with pytest.raises(LoadError) as info:
        read_path(f)
    messages = [str(e) for e in info.value.errors]
    assert len(messages) == 4
    assert ":1: entry 'A': invalid name: is required" in messages[0]
    assert ":2: invalid JSON" in messages[1]
    assert ":3: record is neither an entry" in messages[2]
    assert ":4: expected an object, got list" in messages[3]
    assert "(and 3 more problems)" in str(info.value)


def test_duplicate_id_and_version_in_one_batch(tmp_path: Path) -> None:
    f = write(
        tmp_path / "dup.jsonl",
        jsonl(
            {"id": "A", "name": "A", "version": "1.0.0"},
            {"id": "A", "name": "A", "version": "2.0.0"},
            {"id": "A", "name": "A again", "version": "1.0.0"},
        ),
    )
    with pytest.raises(
        LoadError,
        match=r"dup.jsonl:3: duplicate entry 'A' version 1.0.0 \(first at .*dup.jsonl:1\)",
    ):
        read_path(f)


def test_an_ecosystem_source_whose_ids_another_source_holds_is_left_out(tmp_path: Path) -> None:
    server = {
        "serverInfo": {"name": "shop", "version": "1.0.0"},
        "tools": [{"name": "lookup", "description": "Look up.", "inputSchema": {"type": "object"}}],
    }
    first, second, third = (write(tmp_path / f"{n}.json", json.dumps(server)) for n in "abc")
    other = {**server, "serverInfo": {"name": "mall", "version": "1.0.0"}}
    write(tmp_path / "d.json", json.dumps(other))
    batch = read_path(tmp_path)
    read = [(r.record, Path(r.source).name) for r in batch.records]
    assert [(e.id, name) for e, name in read if isinstance(e, CatalogEntry)] == [
        ("shop", "a.json"),
        ("shop/lookup", "a.json"),
        ("mall", "d.json"),
        ("mall/lookup", "d.json"),
    ]
    assert batch.rejected == [
        (str(f), f"{f}: id 'shop' is also read from {first}") for f in (second, third)
    ]


def test_json_manifest_forms(tmp_path: Path) -> None:
    write(tmp_path / "one.json", json.dumps({"id": "One", "name": "One"}))
    write(
        tmp_path / "many.json",
        json.dumps([{"id": "Two", "name": "Two"}, {"id": "Three", "name": "Three"}]),
    )
    write(
        tmp_path / "both.json",
        json.dumps({"types": [{"type": "T"}], "entries": [{"id": "Four", "name": "Four"}]}),
    )
    batch = read_path(tmp_path)
    assert sorted(e.id for e in batch.entries) == ["Four", "One", "Three", "Two"]
    assert [t.type for t in batch.types] == ["T"]


def test_yaml_manifest_reports_line_of_bad_key(tmp_path: Path) -> None:
    write(
        tmp_path / "tools.yaml",
        "- id: Good\n  name: Good\n- id: Bad\n  name: Bad\n  success_rate: 3\n",
    )
    with pytest.raises(LoadError) as info:
        read_path(tmp_path / "tools.yaml")
    (problem,) = info.value.errors
    assert isinstance(problem, ValidationError)
    assert problem.line == 5 and problem.fields == ["success_rate"]


def test_yaml_syntax_error(tmp_path: Path) -> None:
    write(tmp_path / "broken.yml", "id: A\nname: [unclosed\n")
    with pytest.raises(LoadError, match=r"broken.yml:\d+: invalid YAML"):
        read_path(tmp_path / "broken.yml")


def test_markdown_front_matter(tmp_path: Path) -> None:
    write(
        tmp_path / "cards" / "ocr.md",
        "---\nid: OCR\nname: OCR Tool\nkeywords: [ocr, scan]\n---\n# OCR\nUsage notes.\n",
    )
    write(tmp_path / "cards" / "README.md", "# Cards\nNo front matter here.\n")
    batch = read_path(tmp_path)
    assert [e.id for e in batch.entries] == ["OCR"]
    assert batch.entries[0].keywords == ("ocr", "scan")
    assert (
        str(tmp_path / "cards" / "README.md"),
        "Markdown without YAML front matter",
    ) in batch.skipped


def test_markdown_bad_front_matter_line(tmp_path: Path) -> None:
    write(tmp_path / "card.md", "---\nid: X\nname: X\nstatus: gone\n---\nbody\n")
    with pytest.raises(LoadError) as info:
        read_path(tmp_path / "card.md")
    problem = info.value.errors[0]
    assert isinstance(problem, ValidationError) and problem.line == 4


def test_folder_walk_ignore_rules(tmp_path: Path) -> None:
    write(tmp_path / ".lgentignore", "# comment\nqueries/\n*.draft.json\n")
    write(tmp_path / "a.jsonl", jsonl({"id": "A", "name": "A"}))
    write(tmp_path / "queries" / "q.jsonl", '{"qid": "q1"}\n')
    write(tmp_path / "x.draft.json", "{}")
    write(tmp_path / ".hidden" / "h.jsonl", "garbage")
    write(tmp_path / "notes.txt", "free text")
    batch = read_path(tmp_path)
    assert [e.id for e in batch.entries] == ["A"]
    reasons = dict(batch.skipped)
    assert reasons[str(tmp_path / "queries")] == "matched by .lgentignore"
    assert reasons[str(tmp_path / "x.draft.json")] == "matched by .lgentignore"
    assert reasons[str(tmp_path / "notes.txt")].startswith("not a catalog file")


def test_invalid_utf8_names_line(tmp_path: Path) -> None:
    f = write(
        tmp_path / "bin.jsonl", b'{"id": "A", "name": "A"}\n{"id": "B", "name": "\xff\xfe"}\n'
    )
    with pytest.raises(LoadError, match=r"bin.jsonl:2: invalid UTF-8"):
        read_path(f)


def test_missing_path_and_unsupported_suffix(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="no such file or folder"):
        read_path(tmp_path / "nope.jsonl")
    with pytest.raises(LoadError, match=r"unsupported file type '\.csv'"):
        read_path(write(tmp_path / "data.csv", "id,name\n"))


def test_progress_reports_bytes(tmp_path: Path) -> None:
    f = write(
        tmp_path / "big.jsonl", jsonl(*({"id": f"E{i}", "name": f"E{i}"} for i in range(5000)))
    )
    seen: list[tuple[int, int]] = []
    read_path(f, progress=lambda done, total, _file: seen.append((done, total)))
    assert seen[-1] == (f.stat().st_size, f.stat().st_size)
    assert len(seen) >= 3 and all(a <= b for (a, _), (b, _) in itertools.pairwise(seen))


async def test_a_home_inside_the_loaded_folder_is_skipped(tmp_path: Path) -> None:
    from lgent import LGent

    data = tmp_path / "data"
    data.mkdir()
    (data / "tools.jsonl").write_text(json.dumps({"id": "A", "name": "A"}) + "\n")
    async with LGent.open(data / "home") as lg:  # a home kept beside the data, not hidden
        await lg.load(data)
        assert (await lg.query("A")).results  # its indexes are written
    again = read_path(data)
    assert [e.id for e in again.entries] == ["A"]
    assert (
        str(data / "home"),
        "an L-gent home (its catalog and indexes are not catalog files)",
    ) in (again.skipped)


def test_several_paths_are_read_as_one_batch_each_file_once(tmp_path: Path) -> None:
    first = write(tmp_path / "a" / "tools.jsonl", jsonl({"id": "A", "name": "A"}))
    write(tmp_path / "b" / "more.jsonl", jsonl({"id": "B", "name": "B"}))
    batch = read_path([tmp_path / "b", first, tmp_path / "a"])
    assert [e.id for e in batch.entries] == ["B", "A"]  # in the order given, first.jsonl once
    assert batch.files == [str(tmp_path / "b" / "more.jsonl"), str(first)]


def test_several_paths_share_the_duplicate_check_and_name_a_missing_one(tmp_path: Path) -> None:
    one = write(tmp_path / "one.jsonl", jsonl({"id": "A", "name": "A", "version": "1.0.0"}))
    two = write(tmp_path / "two.jsonl", jsonl({"id": "A", "name": "A", "version": "1.0.0"}))
    with pytest.raises(LoadError, match=r"two.jsonl:1: duplicate entry 'A' version 1.0.0"):
        read_path([one, two])
    with pytest.raises(LoadError, match=r"no such file or folder: .*nope"):
        read_path([one, tmp_path / "nope"])
    with pytest.raises(LoadError, match="no file or folder to load"):
        read_path([])
