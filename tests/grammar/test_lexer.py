"""The lexer alone: token kinds, values, spans and the prefix/field rules."""

from __future__ import annotations

import pytest

from lgent.grammar.lexer import Kind, tokenize, unescape


def kinds(text: str) -> list[str]:
    return [f"{t.kind.name}:{t.value}" for t in tokenize(text)[:-1]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pdf parser", ["WORD:pdf", "WORD:parser"]),
        (
            "a AND b && c OR d || e NOT f",
            [
                "WORD:a",
                "AND:AND",
                "WORD:b",
                "AND:&&",
                "WORD:c",
                "OR:OR",
                "WORD:d",
                "OR:||",
                "WORD:e",
                "NOT:NOT",
                "WORD:f",
            ],
        ),
        ("(a)", ["LPAREN:(", "WORD:a", "RPAREN:)"]),
        ('"x \\" y"', ['PHRASE:x " y']),
        ("name:x", ["FIELD:name", "WORD:x"]),
        ("name:AND", ["FIELD:name", "WORD:AND"]),
        ("id:a:b", ["FIELD:id", "WORD:a:b"]),
        ("name: x", ["FIELD:name", "WORD:x"]),
        ('name:"a b"', ["FIELD:name", "PHRASE:a b"]),
        ("name:(a)", ["FIELD:name", "LPAREN:(", "WORD:a", "RPAREN:)"]),
        ("-x +y", ["MINUS:-", "WORD:x", "PLUS:+", "WORD:y"]),
        ("a-b c+", ["WORD:a-b", "WORD:c+"]),
        ("--x", ["MINUS:-", "MINUS:-", "WORD:x"]),
        (":x", ["COLON::", "WORD:x"]),
        ('a "b', ["WORD:a", 'BAD_QUOTE:"', "WORD:b"]),
        ("News* ~1 x~2", ["WORD:News*", "WORD:~1", "WORD:x~2"]),
    ],
)
def test_tokens(text: str, expected: list[str]) -> None:
    assert kinds(text) == expected


def test_spans_and_eof() -> None:
    tokens = tokenize(' name:"a b" -x ')
    assert [(t.kind, t.start, t.end) for t in tokens] == [
        (Kind.FIELD, 1, 6),
        (Kind.PHRASE, 6, 11),
        (Kind.MINUS, 12, 13),
        (Kind.WORD, 13, 14),
        (Kind.EOF, 15, 15),
    ]
    assert tokens[1].text == '"a b"'


@pytest.mark.parametrize(
    ("text", "attached"),
    [("-x", True), ("- x", False), ("-", False), ("(-)", False), ('-"x"', True), ("-(", True)],
)
def test_prefix_attachment(text: str, attached: bool) -> None:
    prefix = next(t for t in tokenize(text) if t.kind is Kind.MINUS)
    assert prefix.attached is attached


def test_unescape() -> None:
    assert unescape('a\\"b\\\\c\\n') == 'a"b\\c\\n'


def test_many_unclosed_quotes_are_linear() -> None:
    tokens = tokenize('"\\' * 20_000)
    assert sum(t.kind is Kind.BAD_QUOTE for t in tokens) == 20_000
