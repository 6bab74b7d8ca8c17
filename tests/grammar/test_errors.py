"""Strict-mode errors: type, position, expected, found, and the caret of ``pretty()``."""

from __future__ import annotations

import pytest

from lgent.errors import LGentError, QueryError, QuerySyntaxError
from lgent.grammar import MAX_DEPTH, parse

OPERAND = "a term, phrase or '('"
FIELD_LIST = (
    "a field name (one of: author, description, execution, id, input, keywords, name, output, "
    "status, tag, type, version)"
)

ERRORS: list[tuple[str, int, str, str]] = [
    # (query, position, expected, found)
    ("", 0, OPERAND, "end of query"),
    ("   ", 3, OPERAND, "end of query"),
    ("(a", 2, "')' to close the '(' at position 0", "end of query"),
    ("((a) b", 6, "')' to close the '(' at position 0", "end of query"),
    ("a)", 1, "end of query (no '(' is open)", "')'"),
    ("(a OR b)) c", 8, "end of query (no '(' is open)", "')'"),
    (")", 0, OPERAND, "')'"),
    ("()", 1, OPERAND, "')'"),
    ("a ( ) b", 4, OPERAND, "')'"),
    ("pdf AND", 7, OPERAND, "end of query"),
    ("OR pdf", 0, OPERAND, "'OR'"),
    ("AND", 0, OPERAND, "'AND'"),
    ("NOT", 3, OPERAND, "end of query"),
    ("a AND OR b", 6, OPERAND, "'OR'"),
    ("a || && b", 5, OPERAND, "'&&'"),
    ("(a OR)", 5, OPERAND, "')'"),
    ("a NOT", 5, OPERAND, "end of query"),
    ("NOT OR a", 4, OPERAND, "'OR'"),
    ("a -", 3, OPERAND + " directly after '-'", "end of query"),
    ("a - b", 3, OPERAND + " directly after '-'", "whitespace"),
    ("(a +)", 4, OPERAND + " directly after '+'", "')'"),
    ("-AND", 1, OPERAND, "'AND'"),
    ('"abc', 4, "closing '\"' for the phrase opened at position 0", "end of query"),
    ('a "b c" "d e', 12, "closing '\"' for the phrase opened at position 8", "end of query"),
    ('name:"abc', 9, "closing '\"' for the phrase opened at position 5", "end of query"),
    ('""', 0, "a non-empty phrase", "'\"\"'"),
    ('a "  "', 2, "a non-empty phrase", "'\"  \"'"),
    ("foo:bar", 0, FIELD_LIST, "'foo'"),
    ("pdf http://x", 4, FIELD_LIST, "'http'"),
    ("name:", 5, OPERAND + " after 'name:'", "end of query"),
    ("name: parser", 5, OPERAND + " after 'name:'", "whitespace"),
    ("(tag:)", 5, OPERAND + " after 'tag:'", "')'"),
    ("name:()", 6, OPERAND, "')'"),
    ("a :b", 2, OPERAND, "':'"),
    ("parser~3", 7, "a fuzzy distance of 0, 1 or 2", "'3'"),
    ("parser~10", 7, "a fuzzy distance of 0, 1 or 2", "'10'"),
    ("name:x~" + "9" * 5000, 7, "a fuzzy distance of 0, 1 or 2", "'" + "9" * 21 + "...'"),
    ("~1", 0, "a term before '~'", "'~'"),
    ('"a b"~2', 5, "a term before '~'", "'~'"),
    ("pa*r~1", 0, "a fuzzy term without '*' or '?'", "'pa*r~1'"),
    (
        "(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1),
        MAX_DEPTH,
        f"at most {MAX_DEPTH} nested parentheses",
        "'('",
    ),
]


@pytest.mark.parametrize(("query", "position", "expected", "found"), ERRORS)
def test_syntax_error(query: str, position: int, expected: str, found: str) -> None:
    with pytest.raises(QuerySyntaxError) as info:
        parse(query)
    err = info.value
    assert (err.position, err.expected, err.found) == (position, expected, found)
    assert err.query == query
    assert isinstance(err, QueryError)
    assert isinstance(err, LGentError)
    assert str(err) == f"syntax error at position {position}: expected {expected}, found {found}"


def test_errors_under_default_or() -> None:
    with pytest.raises(QuerySyntaxError) as info:
        parse("a b OR", default_operator="OR")
    assert (info.value.position, info.value.found) == (6, "end of query")


def test_first_problem_is_reported() -> None:
    with pytest.raises(QuerySyntaxError) as info:
        parse('foo:x "unclosed')
    assert info.value.position == 0


def test_depth_limit_is_exactly_max_depth() -> None:
    deepest = "(" * MAX_DEPTH + "a" + ")" * MAX_DEPTH
    assert parse(deepest).dump() == "Term('a')"
    assert parse("name:" + deepest).dump() == "Term(name:'a')"
    with pytest.raises(QuerySyntaxError):
        parse("name:(" + deepest + ")")


def test_ten_thousand_parens_no_recursion_error() -> None:
    for query in ("(" * 10_000, "(" * 10_000 + "a" + ")" * 10_000, ")" * 10_000):
        with pytest.raises(QuerySyntaxError):
            parse(query)


def test_long_prefix_chains_are_fine() -> None:
    assert parse("NOT " * 10_000 + "x").dump() == "Term('x')"
    assert parse("-" * 10_001 + "x").dump() == "And(MatchAll(), Not(Term('x')))"
    assert parse("+-" * 5_000 + "x").dump() == "Required(Term('x'))"
    assert parse("+-" * 5_001 + "x").dump() == "And(MatchAll(), Not(Term('x')))"


PRETTY: list[tuple[str, str]] = [
    ("pdf AND", "  pdf AND\n         ^"),
    ("OR pdf", "  OR pdf\n  ^"),
    ("(a b", "  (a b\n      ^"),
    ("a OR b)", "  a OR b)\n        ^"),
    ("x unknown:y", "  x unknown:y\n    ^"),
    ("数据 parser~7", "  数据 parser~7\n            ^"),
    ("a\tb\n)", "  a b )\n      ^"),
]


@pytest.mark.parametrize(("query", "picture"), PRETTY)
def test_pretty_puts_the_caret_under_the_spot(query: str, picture: str) -> None:
    with pytest.raises(QuerySyntaxError) as info:
        parse(query)
    first, rest = info.value.pretty().split("\n", 1)
    assert first == str(info.value)
    assert rest == picture
    caret_line = rest.split("\n")[1]
    assert caret_line.index("^") - 2 == info.value.position
