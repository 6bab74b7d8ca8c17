"""The vocabulary file: it loads, its lattice orders kinds, bad files are typed errors naming
file, line and field, and a catalog's own kinds extend it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from lgent import LGent
from lgent.errors import LoadError, ValidationError
from lgent.kinds import Vocabulary, infer_tool_kinds, load_vocabulary, vocabulary_file
from lgent.kinds.vocabulary import VOCABULARY_FILE
from lgent.models import TypeDecl

SHIPPED = Path(__file__).resolve().parents[2] / "lgent" / "kinds" / VOCABULARY_FILE


def test_the_shipped_vocabulary_is_a_manifest_of_kinds(vocabulary: Vocabulary) -> None:
    records = yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))["types"]
    assert len(vocabulary) == len(records)
    assert all(TypeDecl.parse(r).evidence is not None for r in records)
    assert {"URL", "WebPageURL", "PdfFilePath", "GeoPoint", "CurrencyCode"} <= set(vocabulary.kinds)


def test_the_lattice_orders_kinds(vocabulary: Vocabulary) -> None:
    assert vocabulary.is_subkind("PdfFilePath", "FilePath")
    assert vocabulary.is_subkind("PdfFilePath", "Path")
    assert vocabulary.is_subkind("SVG", "Image") and vocabulary.is_subkind("SVG", "SourceCode")
    assert vocabulary.is_subkind("Markdown", "Text")
    assert vocabulary.is_subkind("URL", "any")
    assert not vocabulary.is_subkind("FilePath", "PdfFilePath")
    assert not vocabulary.is_subkind("URL", "Path")
    assert vocabulary.depth("Path") == 0
    assert vocabulary.depth("SvgFilePath") == 3
    assert "PdfFilePath" in vocabulary.descendants("Path")
    assert vocabulary.ancestors("SvgFilePath") == {"ImageFilePath", "FilePath", "Path"}


def test_declarations_put_parents_first(vocabulary: Vocabulary) -> None:
    order = [d.type for d in vocabulary.declarations()]
    for decl in vocabulary.declarations():
        for parent in decl.subtype_of:
            assert order.index(parent) < order.index(decl.type)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "kinds.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_bad_regex_names_file_line_and_field(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "types:\n- type: Good\n  evidence: {names: ['good']}\n"
        "- type: Bad\n  evidence:\n    phrases: ['(unclosed']\n",
    )
    with pytest.raises(LoadError) as caught:
        load_vocabulary(path)
    (problem,) = caught.value.errors
    assert isinstance(problem, ValidationError)
    assert problem.source == str(path) and problem.line == 5
    assert problem.fields == ["evidence.phrases"]
    assert "'(unclosed' is not a regular expression" in str(problem)


def test_an_unknown_parent_or_field_kind_is_named(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "types:\n- type: A\n  subtype_of: [Missing]\n"
        "- type: B\n  evidence: {fields: {x: Nowhere}}\n",
    )
    with pytest.raises(LoadError) as caught:
        load_vocabulary(path)
    messages = [str(e) for e in caught.value.errors]
    assert (
        messages[0]
        == f"{path}:2: kind 'A': subtype_of names 'Missing', which is not a kind of this vocabulary"
    )
    assert "evidence.fields.x names 'Nowhere'" in messages[1] and f"{path}:4:" in messages[1]


def test_a_subtype_cycle_and_a_kind_declared_twice(tmp_path: Path) -> None:
    cycle = write(tmp_path, "types:\n- type: A\n  subtype_of: [B]\n- type: B\n  subtype_of: [A]\n")
    with pytest.raises(LoadError, match=r"subtype cycle: A -> B -> A"):
        load_vocabulary(cycle)
    twice = write(tmp_path, "types:\n- type: A\n- type: A\n")
    with pytest.raises(LoadError, match=r"kinds.yaml:3: kind 'A' is declared twice"):
        load_vocabulary(twice)


def test_an_entry_or_broken_yaml_is_a_load_error(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="expected a type declaration, found the entry 'x'"):
        load_vocabulary(write(tmp_path, "entries:\n- {id: x, name: x, description: d}\n"))
    with pytest.raises(LoadError, match="invalid YAML"):
        load_vocabulary(write(tmp_path, "types: [\n"))
    with pytest.raises(LoadError, match="cannot read the vocabulary"):
        load_vocabulary(tmp_path / "missing.yaml")


ISBN = {
    "type": "Isbn",
    "description": "An ISBN of a book.",
    "evidence": {"json_type": "string", "names": ["(?:.+_)?isbn"], "values": ["97[89]\\d{10}"]},
}


def test_a_catalog_kind_extends_the_vocabulary(vocabulary: Vocabulary) -> None:
    schema = {"type": "object", "properties": {"book_isbn": {"type": "string"}}}
    before = infer_tool_kinds(vocabulary, input_schema=schema)
    assert before.inputs[0].best is None
    extended = vocabulary.extended([TypeDecl.parse(ISBN)])
    after = infer_tool_kinds(extended, input_schema=schema)
    assert after.inputs[0].best is not None and after.inputs[0].best.kind == "Isbn"
    assert len(extended) == len(vocabulary) + 1 and "Isbn" not in vocabulary


def test_a_catalog_declaration_wins_and_subtypes_join(vocabulary: Vocabulary) -> None:
    mine = TypeDecl.parse({"type": "URL", "evidence": {"names": ["link_to_it"]}})
    child = TypeDecl.parse({"type": "PodcastURL", "subtype_of": ["URL", "MyOwnType"]})
    unrelated = TypeDecl.parse({"type": "MyOwnType"})
    extended = vocabulary.extended([mine, child, unrelated])
    assert extended.kind("URL").declaration is mine
    assert extended.is_subkind("PodcastURL", "URL")
    assert extended.kind("PodcastURL").parents == ("URL",)
    assert "MyOwnType" not in extended
    schema = {"type": "object", "properties": {"url": {"type": "string"}}}
    assert infer_tool_kinds(extended, input_schema=schema).inputs[0].best is None
    assert vocabulary.extended([]) is vocabulary


async def test_kinds_declared_in_a_catalog_load_and_extend(
    vocabulary: Vocabulary, tmp_path: Path
) -> None:
    manifest = tmp_path / "catalog.yaml"
    manifest.write_text(yaml.safe_dump({"types": [ISBN]}), encoding="utf-8")
    async with LGent.open(None) as lg:
        await lg.load(manifest)
        declared = await lg.types()
    (isbn,) = [d for d in declared if d.type == "Isbn"]
    assert isbn.evidence is not None and isbn.evidence.names == ("(?:.+_)?isbn",)
    extended = vocabulary.extended(declared)
    assert extended.kind("Isbn").rules.values[0].fullmatch("9780306406157")


async def test_a_catalog_kind_with_a_bad_rule_is_refused(tmp_path: Path) -> None:
    manifest = tmp_path / "catalog.yaml"
    manifest.write_text("types:\n- type: Isbn\n  evidence:\n    names: ['[']\n", encoding="utf-8")
    async with LGent.open(None) as lg:
        with pytest.raises(LoadError) as caught:
            await lg.load(manifest)
        assert await lg.types() == []
    assert f"{manifest}:3: invalid evidence.names" in str(caught.value)  # the evidence key


async def test_the_shipped_vocabulary_loads_into_a_catalog(vocabulary: Vocabulary) -> None:
    async with LGent.open(None) as lg:
        report = await lg.load(vocabulary_file())
        declared = {d.type: d for d in await lg.types()}
    assert report.rejected == []
    assert set(declared) == set(vocabulary.kinds)
    assert declared["GeoPoint"] == vocabulary.kind("GeoPoint").declaration
