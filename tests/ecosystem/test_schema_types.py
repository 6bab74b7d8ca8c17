"""The schema-to-type rules, and the graph's treatment of primitive and structural types."""

from __future__ import annotations

import pytest

from lgent.catalog.readers.schema_types import SchemaTyper, shared_declarations
from lgent.graph.composition import CompositionIndex
from lgent.graph.paths import find_paths, members
from lgent.graph.signatures import PathSearch, Signature
from lgent.graph.types import TypeLattice

DOC = {
    "components": {
        "schemas": {
            "Pet": {
                "type": "object",
                "description": "A pet",
                "properties": {"n": {"type": "string"}},
            },
            "Dog": {"allOf": [{"$ref": "#/components/schemas/Pet"}, {"type": "object"}]},
            "PetId": {"type": "integer"},
            "Alias": {"$ref": "#/components/schemas/Pet"},
            "LoopA": {"$ref": "#/components/schemas/LoopB"},
            "LoopB": {"$ref": "#/components/schemas/LoopA"},
            "CycleA": {"allOf": [{"$ref": "#/components/schemas/CycleB"}]},
            "CycleB": {"allOf": [{"$ref": "#/components/schemas/CycleA"}]},
        }
    }
}


@pytest.fixture
def typer() -> tuple[SchemaTyper, list[str]]:
    warnings: list[str] = []
    return SchemaTyper("zoo", DOC, warnings.append, "spec.json"), warnings


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        (ref("Pet"), "zoo.Pet"),
        ({"type": "array", "items": ref("Pet")}, "List[zoo.Pet]"),
        (
            {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
            "List[List[json.number]]",
        ),
        ({"type": "string", "format": "date-time"}, "json.date-time"),
        ({"type": "string", "format": "password"}, "json.string"),
        ({"type": ["integer", "null"]}, "json.integer"),
        ({"anyOf": [ref("Pet"), {"type": "null"}]}, "zoo.Pet"),
        ({"enum": ["a", "b"]}, "json.string"),
        ({"type": "object", "title": "Reply", "properties": {}}, "zoo.Reply"),
        ({"type": "string", "title": "Url"}, "json.string"),  # a title on a primitive names nothing
        (ref("PetId"), "json.integer"),  # a named primitive is that primitive
        (ref("Alias"), "zoo.Pet"),  # an alias is followed
        ({"type": "object", "properties": {"a": {}}}, None),  # anonymous object
        ({"oneOf": [{"type": "string"}, {"type": "integer"}]}, None),  # a real union
        ({"$ref": "other.json#/Pet"}, None),  # external
    ],
)
def test_mapping_rules(
    typer: tuple[SchemaTyper, list[str]], schema: object, expected: str | None
) -> None:
    assert typer[0].type_of(schema, "/x") == expected


def test_allof_makes_a_subtype_and_declarations_are_collected(
    typer: tuple[SchemaTyper, list[str]],
) -> None:
    t, _ = typer
    assert t.type_of(ref("Dog"), "/x") == "zoo.Dog"
    decls = {d.type: d for d in t.declarations()}
    assert decls["zoo.Dog"].subtype_of == ("zoo.Pet",)
    assert decls["zoo.Pet"].description == "A pet"


def test_ref_to_nowhere_and_cycles_are_warnings_naming_the_pointer(
    typer: tuple[SchemaTyper, list[str]],
) -> None:
    t, warnings = typer
    assert t.type_of(ref("Missing"), "/paths/~1a/get") is None
    assert t.type_of(ref("LoopA"), "/paths/~1b/get") is None
    assert t.type_of(ref("CycleA"), "/paths/~1c/get") == "zoo.CycleA"
    assert warnings[0] == (
        "spec.json#/paths/~1a/get: $ref '#/components/schemas/Missing' points to nowhere; no type"
    )
    assert warnings[1].startswith("spec.json#/paths/~1b/get: $ref cycle")
    assert "allOf cycle" in warnings[2]
    lattice = TypeLattice.from_declarations(
        (d.type, d.subtype_of, d.params, bool(d.primitive)) for d in t.declarations()
    )  # no cycle reaches the lattice
    assert lattice.is_subtype("zoo.CycleA", "zoo.CycleB")
    assert not lattice.is_subtype("zoo.CycleB", "zoo.CycleA")


def lattice() -> TypeLattice:
    decls = [(d.type, d.subtype_of, d.params, bool(d.primitive)) for d in shared_declarations()]
    return TypeLattice.from_declarations([*decls, ("Pet", (), 0), ("Dog", ("Pet",), 0)])


def test_primitive_is_declared_inherited_and_lifted_through_constructors() -> None:
    lat = lattice()
    assert lat.is_primitive("json.email") and lat.is_primitive("List[json.integer]")
    assert not lat.is_primitive("Pet") and not lat.is_primitive("List[Pet]")
    assert not lat.is_primitive("Any")


def index() -> CompositionIndex:
    return CompositionIndex(
        lattice(),
        [
            Signature("fetch", "json.uri", "json.string"),
            Signature("summarize", "json.string", "json.string"),
            Signature("adopt", "json.string", "Dog"),
            Signature("groom", "Pet", "Pet"),
            Signature("photo", "Pet", "json.binary"),
        ],
    )


def test_primitives_never_chain_two_artifacts() -> None:
    idx = index()
    assert idx.find_compatible("fetch") == []  # its string output links to nothing
    assert [s.id for s in idx.find_compatible("adopt")] == ["groom", "photo"]  # Dog <: Pet
    assert [s.id for s in idx.find_compatible("groom", "upstream")] == ["adopt"]
    # a named source may be primitive; links inside the path may not
    paths = find_paths(idx, PathSearch("json.uri", "json.string", max_length=3, k=10))
    assert [p.ids for p in paths] == [("fetch",), ("summarize",)]  # never fetch >> summarize
    two = find_paths(idx, PathSearch("json.string", "json.binary", max_length=3, k=10))
    assert [p.ids for p in two] == [("adopt", "photo"), ("adopt", "groom", "photo")]


def test_a_named_primitive_still_matches() -> None:
    idx = index()
    assert sorted(idx.fitting_ids("json.string", "json.string")) == ["summarize"]
    assert sorted(idx.fitting_ids("json.uri", "json.string")) == ["fetch", "summarize"]
    accepting = idx.find_compatible(Signature("q", None, "json.email"), chain=False)
    assert [s.id for s in accepting] == ["adopt", "summarize"]


def test_members_of_paths_respect_the_rule() -> None:
    idx = index()
    found = [artifact for artifact, _ in members(idx, "json.uri", "json.binary", 4)]
    assert found == ["adopt", "photo", "groom"]  # not fetch: its output would need a string link


def test_accepting_rows_read_off_supertypes_equal_one_check_per_input() -> None:
    from lgent.catalog.loaders import read_path
    from tests.conftest import FIXTURES

    batch = read_path(FIXTURES)
    decls = [(t.type, t.subtype_of, t.params, bool(t.primitive)) for t in batch.types]
    lat = TypeLattice.from_declarations(
        [*decls, *((d.type, d.subtype_of, d.params, True) for d in shared_declarations()[1:])]
    )
    sigs = [Signature(e.id, e.input_type, e.output_type) for e in batch.entries]
    extra = [
        "Any",
        "List",
        "List[Any]",
        "Stream[PDF]",
        "List[List[Document]]",
        "json.email",
        "List[json.string]",
        "Nope",
        "List[Nope]",
    ]
    sigs += [
        Signature(f"x{i}", a, b)
        for i, (a, b) in enumerate(zip(extra, reversed(extra), strict=True))
    ]
    idx = CompositionIndex(lat, sigs)
    for name in idx._out.names:
        slow = [idx._is_subtype(name, s) for s in idx._in.names]
        assert idx._accepting(name).tolist() == slow, name
