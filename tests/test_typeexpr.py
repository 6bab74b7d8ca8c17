"""Type expression parsing: canonical form, nesting, whitespace, and errors with positions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lgent.errors import TypeLatticeError
from lgent.typeexpr import MAX_NESTING, TypeExpr, canonical, parse_type


def test_plain_name() -> None:
    assert parse_type("PDF") == TypeExpr("PDF")
    assert parse_type("  PDF\t") == TypeExpr("PDF")
    assert parse_type("my.pkg-Type_2") == TypeExpr("my.pkg-Type_2")


def test_parametric_any_arity_and_nesting() -> None:
    assert parse_type("List[Document]") == TypeExpr("List", (TypeExpr("Document"),))
    assert parse_type("Dict[str,Document]") == TypeExpr(
        "Dict", (TypeExpr("str"), TypeExpr("Document"))
    )
    nested = parse_type("List[List[PDF]]")
    assert nested == TypeExpr("List", (TypeExpr("List", (TypeExpr("PDF"),)),))
    assert parse_type("F[A, B, C]").args == (TypeExpr("A"), TypeExpr("B"), TypeExpr("C"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("List[ Document ]", "List[Document]"),
        ("Dict[str,Document]", "Dict[str, Document]"),
        (" Dict [ str ,  List [ PDF ] ] ", "Dict[str, List[PDF]]"),
        ("PDF", "PDF"),
    ],
)
def test_canonical_form(text: str, expected: str) -> None:
    assert canonical(text) == expected
    assert str(parse_type(text)) == expected


def test_names_are_case_sensitive() -> None:
    assert parse_type("pdf") != parse_type("PDF")


def test_names_lists_every_name() -> None:
    assert parse_type("Dict[str, List[PDF]]").names() == {"Dict", "str", "List", "PDF"}


@pytest.mark.parametrize(
    ("text", "position", "found"),
    [
        ("List[", 5, "end of text"),
        ("[PDF]", 0, "'['"),
        ("PDF]", 3, "']'"),
        ("", 0, "end of text"),
        ("   ", 3, "end of text"),
        ("List[]", 5, "']'"),
        ("List[A,]", 7, "']'"),
        ("List[A B]", 7, "'B'"),
        ("Financial PDF", 10, "'P'"),
        ("PD$F", 2, "'$'"),
        ("1PDF", 0, "'1'"),
        ("List[A]]", 7, "']'"),
        ("List[A][B]", 7, "'['"),
    ],
)
def test_malformed_input_names_text_and_position(text: str, position: int, found: str) -> None:
    with pytest.raises(TypeLatticeError) as info:
        parse_type(text)
    message = str(info.value)
    assert repr(text) in message
    assert f"at position {position}:" in message
    assert f"found {found}" in message


def test_non_string_is_a_type_lattice_error() -> None:
    with pytest.raises(TypeLatticeError, match="must be a string"):
        parse_type(["PDF"])  # type: ignore[arg-type]


def test_nesting_limit() -> None:
    deep = "L[" * (MAX_NESTING + 1) + "X" + "]" * (MAX_NESTING + 1)
    with pytest.raises(TypeLatticeError, match="nests deeper"):
        parse_type(deep)
    ok = "L[" * MAX_NESTING + "X" + "]" * MAX_NESTING
    assert str(parse_type(ok)) == ok


def test_overlong_text() -> None:
    with pytest.raises(TypeLatticeError, match="longer than"):
        parse_type("A" * 10_000)


_names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\-]{0,6}", fullmatch=True)
_exprs = st.recursive(
    _names.map(TypeExpr),
    lambda inner: st.builds(TypeExpr, _names, st.lists(inner, min_size=1, max_size=3).map(tuple)),
    max_leaves=8,
)


@given(_exprs)
def test_canonical_text_round_trips(expr: TypeExpr) -> None:
    assert parse_type(str(expr)) == expr


@given(st.text(max_size=30))
def test_any_text_parses_or_raises_type_lattice_error(text: str) -> None:
    try:
        expr = parse_type(text)
    except TypeLatticeError:
        return
    assert parse_type(str(expr)) == expr
