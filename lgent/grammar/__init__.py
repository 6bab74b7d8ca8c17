"""The keyword query grammar: text -> syntax tree. Imports neither tantivy nor the catalog.

``parse(text)`` is strict (raises ``QuerySyntaxError`` with a position); ``parse_lenient(text)``
repairs and reports. See docs/query-syntax.md for the language.
"""

from lgent.grammar.ast import (
    And,
    Fuzzy,
    MatchAll,
    Node,
    Not,
    Or,
    Phrase,
    Required,
    Term,
    Wildcard,
    dump,
    iter_nodes,
    to_dict,
)
from lgent.grammar.parser import (
    FIELD_ALIASES,
    FIELDS,
    MAX_DEPTH,
    DefaultOperator,
    LenientResult,
    parse,
    parse_lenient,
)

__all__ = [
    "FIELDS",
    "FIELD_ALIASES",
    "MAX_DEPTH",
    "And",
    "DefaultOperator",
    "Fuzzy",
    "LenientResult",
    "MatchAll",
    "Node",
    "Not",
    "Or",
    "Phrase",
    "Required",
    "Term",
    "Wildcard",
    "dump",
    "iter_nodes",
    "parse",
    "parse_lenient",
    "to_dict",
]
