"""Lenient parsing: every repair, its result and the warning that reports it."""

from __future__ import annotations

import pytest

from lgent.grammar import MAX_DEPTH, Term, parse, parse_lenient

REPAIRS: list[tuple[str, str, list[str]]] = [
    # (query, dump of the repaired AST, warnings)
    ('"abc def', "And(Term('abc'), Term('def'))", ["position 0: unmatched '\"' ignored"]),
    (
        'O"Reilly books',
        "And(Term('O'), Term('Reilly'), Term('books'))",
        ["position 1: unmatched '\"' ignored"],
    ),
    ('name:"abc', "Term(name:'abc')", ["position 5: unmatched '\"' ignored"]),
    ("(a OR b", "Or(Term('a'), Term('b'))", ["position 0: unclosed '(' closed at end of query"]),
    (
        "a OR b) c",
        "And(Or(Term('a'), Term('b')), Term('c'))",
        ["position 6: unmatched ')' ignored"],
    ),
    ("pdf AND", "Term('pdf')", ["position 4: dangling 'AND' dropped"]),
    ("OR pdf", "Term('pdf')", ["position 0: dangling 'OR' dropped"]),
    ("a AND OR b", "Or(Term('a'), Term('b'))", ["position 2: dangling 'AND' dropped"]),
    ("a || && b", "Or(Term('a'), Term('b'))", ["position 5: dangling '&&' dropped"]),
    ("pdf NOT", "Term('pdf')", ["position 4: dangling 'NOT' dropped"]),
    ("pdf - x", "And(Term('pdf'), Term('x'))", ["position 4: '-' not followed by a term dropped"]),
    ("(a +)", "Term('a')", ["position 3: '+' not followed by a term dropped"]),
    ("a () b", "And(Term('a'), Term('b'))", ["position 2: empty group '()' dropped"]),
    (
        "a (AND) b",
        "And(Term('a'), Term('b'))",
        ["position 2: empty group '()' dropped", "position 3: dangling 'AND' dropped"],
    ),
    ('a "" b', "And(Term('a'), Term('b'))", ["position 2: empty phrase dropped"]),
    (
        "foo:bar baz",
        "And(Term('foo'), Term('bar'), Term('baz'))",
        ["position 0: unknown field 'foo' searched as plain text"],
    ),
    (
        "-foo:bar",
        "And(MatchAll(), Not(And(Term('foo'), Term('bar'))))",
        ["position 1: unknown field 'foo' searched as plain text"],
    ),
    (
        "http://example.com",
        "And(Term('http'), Term('//example.com'))",
        ["position 0: unknown field 'http' searched as plain text"],
    ),
    (
        'foo:"x y"',
        "And(Term('foo'), Phrase('x y'))",
        ["position 0: unknown field 'foo' searched as plain text"],
    ),
    (
        "name:(foo:x)",
        "And(Term('foo'), Term(name:'x'))",
        ["position 6: unknown field 'foo' searched as plain text"],
    ),
    (
        "name: parser",
        "And(Term('name'), Term('parser'))",
        ["position 0: 'name:' has no value; searched as the term 'name'"],
    ),
    ("pdf a :b", "And(Term('pdf'), Term('a'), Term('b'))", ["position 6: stray ':' ignored"]),
    ("parser~3", "Fuzzy('parser', 2)", ["position 7: fuzzy distance '3' lowered to 2"]),
    (
        "~1 x",
        "And(Term('~1'), Term('x'))",
        ["position 0: '~' without a term; '~1' searched as plain text"],
    ),
    ("pa*r~1", "Wildcard('pa*r')", ["position 4: fuzzy '~' dropped from wildcard 'pa*r'"]),
    ("", "None", ["position 0: empty query"]),
    (" \t\n", "None", ["position 0: empty query"]),
    (
        "NOT",
        "Term('NOT')",
        [
            "position 0: dangling 'NOT' dropped",
            "position 0: nothing searchable was left after repairs; "
            "the query's words are searched as plain terms",
        ],
    ),
    (
        "( )",
        "And(Term('('), Term(')'))",
        [
            "position 0: empty group '()' dropped",
            "position 0: nothing searchable was left after repairs; "
            "the query's words are searched as plain terms",
        ],
    ),
]


@pytest.mark.parametrize(("query", "expected", "warnings"), REPAIRS)
def test_repair(query: str, expected: str, warnings: list[str]) -> None:
    result = parse_lenient(query)
    assert (result.ast.dump() if result.ast else "None") == expected
    assert result.warnings == warnings


@pytest.mark.parametrize(
    "query",
    ["pdf", 'name:"x y" -draft', "(a OR b) c~1 News*", "+a -b", "tag:(x y)", "*"],
)
def test_valid_queries_parse_the_same_without_warnings(query: str) -> None:
    for operator in ("AND", "OR"):
        result = parse_lenient(query, default_operator=operator)
        assert result.warnings == []
        assert result.ast == parse(query, default_operator=operator)


def test_default_operator_applies_to_repairs() -> None:
    result = parse_lenient("foo:bar", default_operator="OR")
    assert result.ast is not None
    assert result.ast.dump() == "Or(Term('foo'), Term('bar'))"
    fallback = parse_lenient("AND OR", default_operator="OR")
    assert fallback.ast is not None
    assert fallback.ast.dump() == "Or(Term('AND'), Term('OR'))"


def test_deep_nesting_is_flattened() -> None:
    depth = MAX_DEPTH + 10
    result = parse_lenient("(" * depth + "a b" + ")" * depth + " c")
    assert result.ast is not None
    assert result.ast.dump() == "And(Term('a'), Term('b'), Term('c'))"
    assert result.warnings == [
        f"position {MAX_DEPTH}: parentheses nested deeper than {MAX_DEPTH} flattened"
    ]


def test_ten_thousand_parens() -> None:
    result = parse_lenient("(" * 10_000 + "x")
    assert result.ast is not None
    assert result.ast.dump() == "Term('x')"
    assert len(result.warnings) == MAX_DEPTH + 1  # 64 auto-closed groups + one flattening note
    closing = parse_lenient(")" * 10_000 + "x")
    assert closing.ast == Term("x", start=10_000, end=10_001)
    assert len(closing.warnings) == 10_000


def test_deep_field_groups_no_recursion_error() -> None:
    result = parse_lenient("name:(" * 10_000 + "x")
    assert result.ast is not None
    assert result.ast.dump() == "Term(name:'x')"
    assert parse_lenient("name:(" * 70 + "a b" + ")" * 70).warnings == [
        f"position {6 * MAX_DEPTH + 5}: parentheses nested deeper than {MAX_DEPTH} flattened"
    ]


def test_warnings_are_in_text_order() -> None:
    warnings = parse_lenient('a) "b (c').warnings
    assert warnings == [
        "position 1: unmatched ')' ignored",
        "position 3: unmatched '\"' ignored",
        "position 6: unclosed '(' closed at end of query",
    ]
