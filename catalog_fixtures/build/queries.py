"""The labeled query set, written by hand (one module per query class under queries_src/).

Grades: 3 = exactly what the user wants, 2 = clearly useful, 1 = related / partially useful.
"""

from queries_src.composition import QUERIES as COMPOSITION
from queries_src.exact_name import QUERIES as EXACT_NAME
from queries_src.keyword_syntax import QUERIES as KEYWORD_SYNTAX
from queries_src.relationship import QUERIES as RELATIONSHIP
from queries_src.semantic_intent import QUERIES as SEMANTIC_INTENT
from queries_src.type_compat import QUERIES as TYPE_COMPAT

QUERIES = EXACT_NAME + KEYWORD_SYNTAX + SEMANTIC_INTENT + TYPE_COMPAT + RELATIONSHIP + COMPOSITION
