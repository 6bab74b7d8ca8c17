"""Plain words written without spaces (Chinese, Japanese) read as a search box reads them.

The index holds each ideograph or kana as a token of its own (``lgent/analysis``), so a word
like ``查询火车余票`` compiles to a phrase of its six characters: only the artifacts holding that
exact run match, and a request rarely repeats a description word for word. As CJK analyzers do
(Lucene's bigrams), ``with_cjk_parts`` adds, beside each such word, its characters as words (what
the artifact must share with it) and each pair of neighbouring characters as a phrase (a shared
two-character word, ``余票``, counts more than two scattered characters). The whole word stays:
an exact run counts most.
"""

from __future__ import annotations

from lgent.analysis.identifiers import CJK_RUN
from lgent.grammar import ast


def cjk_parts(text: str) -> list[ast.Node]:
    """The characters of each run of two or more CJK characters in ``text`` as terms, and each
    pair of neighbours as a phrase."""
    parts: list[ast.Node] = []
    for run in CJK_RUN.finditer(text):
        chars = run.group()
        if len(chars) < 2:
            continue
        parts.extend(ast.Term(ch) for ch in dict.fromkeys(chars))
        pairs = dict.fromkeys(chars[i : i + 2] for i in range(len(chars) - 1))
        parts.extend(ast.Phrase(pair) for pair in pairs)
    return parts


def with_cjk_parts(node: ast.Node) -> ast.Node:
    """A plain-words tree (an OR of words and phrases) with the CJK parts of each unfielded
    word or phrase added; the tree itself when it has none."""
    children = node.children if isinstance(node, ast.Or) else (node,)
    added: list[ast.Node] = []
    for child in children:
        if isinstance(child, ast.Term | ast.Phrase) and child.field is None:
            added.extend(cjk_parts(child.text))
    if not added:
        return node
    return ast.Or((*children, *added))
