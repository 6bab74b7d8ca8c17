"""The type lattice on small hand-made declarations."""

from __future__ import annotations

import pytest

from lgent.errors import TypeCycleError, TypeLatticeError
from lgent.graph.types import TypeDeclaration, TypeLattice, normalize
from lgent.typeexpr import TypeExpr, parse_type


@pytest.fixture
def lattice() -> TypeLattice:
    return TypeLattice.from_declarations(
        [
            ("FinancialPDF", ["PDF"], 0),  # parent declared later: order does not matter
            ("PDF", ["Document"], 0),
            ("Document", [], 0),
            ("HTML", ["Document"], 0),
            ("Text", [], 0),
            ("Sequence", [], 1),
            ("List", ["Sequence"], 1),
            ("Dict", [], 2),
        ]
    )


def test_declared_edges_and_transitivity(lattice: TypeLattice) -> None:
    assert lattice.is_subtype("PDF", "Document")
    assert lattice.is_subtype("FinancialPDF", "Document")
    assert not lattice.is_subtype("Document", "PDF")
    assert not lattice.is_subtype("PDF", "HTML")
    assert lattice.is_subtype("PDF", "PDF")


def test_any_is_the_top(lattice: TypeLattice) -> None:
    for t in ["PDF", "List[PDF]", "Dict[Text, PDF]", "Unknown", "Any"]:
        assert lattice.is_subtype(t, "Any")
    assert lattice.is_subtype("Any", "Any")
    assert not lattice.is_subtype("Any", "Document")
    assert not lattice.is_subtype("Any", "List")


def test_parametric_covariance(lattice: TypeLattice) -> None:
    assert lattice.is_subtype("List[FinancialPDF]", "List[Document]")
    assert lattice.is_subtype("List[PDF]", "Sequence[Document]")
    assert not lattice.is_subtype("List[Document]", "List[PDF]")
    assert not lattice.is_subtype("Sequence[PDF]", "List[PDF]")
    assert lattice.is_subtype("Dict[Text, FinancialPDF]", "Dict[Text, Document]")
    assert not lattice.is_subtype("Dict[Text, PDF]", "Dict[PDF, PDF]")
    assert lattice.is_subtype("List[List[FinancialPDF]]", "Sequence[List[PDF]]")
    assert not lattice.is_subtype("List[PDF]", "Dict[PDF, PDF]")
    assert not lattice.is_subtype("List[PDF]", "PDF")
    assert not lattice.is_subtype("PDF", "List[PDF]")


def test_bare_constructor_means_any_argument(lattice: TypeLattice) -> None:
    assert lattice.is_subtype("List[PDF]", "List")
    assert lattice.is_subtype("List[PDF]", "Sequence")
    assert lattice.is_subtype("List[PDF]", "List[Any]")
    assert lattice.is_subtype("List", "List[Any]")
    assert lattice.is_subtype("List[Any]", "List")
    assert not lattice.is_subtype("List", "List[PDF]")
    assert lattice.is_subtype("Dict[Text, PDF]", "Dict[Any, Document]")
    assert not lattice.is_subtype("Dict[Text, Any]", "Dict[Text, PDF]")


def test_typeexpr_arguments_are_accepted(lattice: TypeLattice) -> None:
    assert lattice.is_subtype(parse_type("List[PDF]"), TypeExpr("Sequence"))


def test_unknown_names_are_only_subtypes_of_themselves_and_any(lattice: TypeLattice) -> None:
    assert lattice.is_subtype("Mystery", "Mystery")
    assert lattice.is_subtype("Mystery", "Any")
    assert not lattice.is_subtype("Mystery", "Document")
    assert not lattice.is_subtype("PDF", "Mystery")
    assert lattice.is_subtype("Box[PDF]", "Box[Document]")  # unknown constructors: covariant
    assert not lattice.is_subtype("Box[PDF]", "List[PDF]")


def test_arity_mismatch_raises(lattice: TypeLattice) -> None:
    with pytest.raises(TypeLatticeError, match=r"'List' takes 1 type argument, got 2"):
        lattice.is_subtype("List[PDF, PDF]", "Any")
    with pytest.raises(TypeLatticeError, match=r"'Dict' takes 2 type arguments, got 1"):
        lattice.is_subtype("PDF", "Dict[PDF]")
    with pytest.raises(TypeLatticeError, match=r"'PDF' takes 0 type arguments"):
        lattice.is_subtype("PDF[Text]", "Any")
    with pytest.raises(TypeLatticeError, match=r"'Any' takes no type arguments"):
        lattice.is_subtype("Any[PDF]", "Any")


def test_malformed_text_raises(lattice: TypeLattice) -> None:
    with pytest.raises(TypeLatticeError, match="position 5"):
        lattice.is_subtype("List[", "Any")


def test_supertypes(lattice: TypeLattice) -> None:
    assert lattice.supertypes("FinancialPDF") == ["Document", "PDF", "Any"]
    assert lattice.supertypes("Document") == ["Any"]
    assert lattice.supertypes("Any") == []
    assert lattice.supertypes("Mystery") == ["Any"]
    assert lattice.supertypes("List[PDF]") == [
        "List",
        "List[Document]",
        "Sequence",
        "Sequence[Document]",
        "Sequence[PDF]",
        "Any",
    ]


def test_supertypes_are_exactly_the_is_subtype_targets(lattice: TypeLattice) -> None:
    for t in ["List[FinancialPDF]", "Dict[Text, PDF]", "HTML"]:
        for s in lattice.supertypes(t):
            assert lattice.is_subtype(t, s), (t, s)
            assert normalize(parse_type(s)) != normalize(parse_type(t))


def test_subtypes(lattice: TypeLattice) -> None:
    assert lattice.subtypes("Document") == ["FinancialPDF", "HTML", "PDF"]
    assert lattice.subtypes("FinancialPDF") == []
    assert lattice.subtypes("Sequence") == ["List"]
    assert lattice.subtypes("Sequence[Any]") == ["List"]
    assert lattice.subtypes("Sequence[PDF]") == []
    assert lattice.subtypes("Any") == lattice.types()
    assert lattice.subtypes("Mystery") == []


def test_types_known_and_arity(lattice: TypeLattice) -> None:
    assert lattice.types() == [
        "Dict",
        "Document",
        "FinancialPDF",
        "HTML",
        "List",
        "PDF",
        "Sequence",
        "Text",
    ]
    assert len(lattice) == 8
    assert lattice.known("List[PDF]")
    assert lattice.known("Any")
    assert not lattice.known("List[Mystery]")
    assert lattice.arity("Dict") == 2
    assert lattice.arity("Mystery") is None


def test_require_known_suggests_close_names(lattice: TypeLattice) -> None:
    assert lattice.require_known("List[ PDF ]") == parse_type("List[PDF]")
    with pytest.raises(TypeLatticeError) as info:
        lattice.require_known("List[Documnt]")
    assert str(info.value) == (
        "unknown type in 'List[Documnt]': 'Documnt' (did you mean 'Document'?)"
    )
    with pytest.raises(TypeLatticeError, match=r"'Zzz'$"):
        lattice.require_known("Zzz")


def test_undeclared_supertype_is_known_with_unknown_arity() -> None:
    lattice = TypeLattice()
    lattice.add_type("Invoice", ["Record"])
    assert lattice.known("Record")
    assert lattice.types() == ["Invoice", "Record"]
    assert lattice.arity("Record") is None
    assert lattice.declarations() == [TypeDeclaration("Invoice", ("Record",), 0)]
    assert lattice.is_subtype("Record[Invoice]", "Record[Record]")  # any arity accepted


def test_cycle_is_rejected_named_in_order_and_lattice_unchanged(lattice: TypeLattice) -> None:
    before = lattice.declarations()
    assert lattice.is_subtype("FinancialPDF", "Document")  # warm the caches
    with pytest.raises(TypeCycleError) as info:
        lattice.add_type("Document", ["FinancialPDF"])
    assert info.value.cycle == ["Document", "FinancialPDF", "PDF"]
    assert str(info.value) == "subtype cycle: Document -> FinancialPDF -> PDF -> Document"
    assert isinstance(info.value, TypeLatticeError)
    assert lattice.declarations() == before
    assert not lattice.is_subtype("Document", "FinancialPDF")


def test_self_cycle() -> None:
    with pytest.raises(TypeCycleError) as info:
        TypeLattice.from_declarations([("A", ["A"], 0)])
    assert info.value.cycle == ["A"]


def test_cycle_in_bulk_declarations_rolls_back_all() -> None:
    lattice = TypeLattice.from_declarations([("X", [], 0)])
    with pytest.raises(TypeCycleError) as info:
        lattice.add_types([("A", ["B"], 0), ("C", [], 0), ("B", ["A"], 0)])
    assert info.value.cycle == ["B", "A"]
    assert lattice.types() == ["X"]


def test_redeclaring_replaces_parents_and_params(lattice: TypeLattice) -> None:
    lattice.add_type("HTML", ["Text"])
    assert lattice.is_subtype("HTML", "Text")
    assert not lattice.is_subtype("HTML", "Document")
    lattice.add_type("Text", [], params=1)
    assert lattice.arity("Text") == 1


def test_remove_type(lattice: TypeLattice) -> None:
    lattice.remove_type("FinancialPDF")
    assert "FinancialPDF" not in lattice.types()
    lattice.remove_type("Document")  # still named by PDF and HTML: stays known, undeclared
    assert lattice.known("Document")
    assert lattice.arity("Document") is None
    assert lattice.is_subtype("PDF", "Document")
    assert "Document" not in [d.name for d in lattice.declarations()]
    with pytest.raises(TypeLatticeError, match=r"'Documnt' is not declared \(did you mean"):
        lattice.remove_type("Documnt")


def test_undeclared_parent_disappears_with_its_last_child() -> None:
    lattice = TypeLattice()
    lattice.add_type("Invoice", ["Record"])
    lattice.remove_type("Invoice")
    assert lattice.types() == []


def test_declarations_round_trip(lattice: TypeLattice) -> None:
    again = TypeLattice.from_declarations(lattice.declarations())
    assert again.declarations() == lattice.declarations()
    assert again.types() == lattice.types()


def test_version_changes_and_caches_are_invalidated(lattice: TypeLattice) -> None:
    assert not lattice.is_subtype("Text", "Document")
    version = lattice.version
    lattice.add_type("Text", ["Document"])
    assert lattice.version > version
    assert lattice.is_subtype("Text", "Document")
    assert lattice.is_subtype("List[Text]", "Sequence[Document]")


@pytest.mark.parametrize(
    ("decl", "message"),
    [
        (("Any", [], 0), "built-in top type"),
        (("List[X]", [], 0), "must be a plain name"),
        (("A", ["List[PDF]"], 0), "must be a plain name"),
        (("A", "PDF", 0), "must be a list of type names"),
        (("A", [], -1), "integer >= 0"),
        (("A", [], True), "integer >= 0"),
        (("bad name", [], 0), "malformed type expression"),
        ((3, [], 0), "must be a string"),
    ],
)
def test_bad_declarations(decl: tuple[str, list[str], int], message: str) -> None:
    with pytest.raises(TypeLatticeError, match=message):
        TypeLattice.from_declarations([decl])


def test_any_as_parent_is_implicit() -> None:
    lattice = TypeLattice.from_declarations([("A", ["Any"], 0)])
    assert lattice.types() == ["A"]
    assert lattice.declarations() == [TypeDeclaration("A", ("Any",), 0)]


def test_normalize() -> None:
    assert str(normalize(parse_type("List[Any]"))) == "List"
    assert str(normalize(parse_type("Dict[Any, List[Any]]"))) == "Dict[Any, List]"
    assert str(normalize(parse_type("Dict[Any, Any]"))) == "Dict"
    assert str(normalize(parse_type("Dict[Any, List[PDF]]"))) == "Dict[Any, List[PDF]]"
