"""Tables of a graph read from its image only when first used.

Most cold commands never read some of the graph's tables (the facts kept for saving, the type
declarations, the name index for a type question): an image keeps each of those as a pickle
of its own inside the graph's, and a reopened graph unpickles one the first time it is read.
A table still unread when the graph is saved again is written back as the bytes it came as.
Each is kept compressed (zlib, level 1) until read: a sentence's cold query reads none of them,
and on the 17k ecosystem home they were 9.0 MB as pickles against 1.7 MB compressed (57 ms to
compress when the graph is saved, milliseconds to expand one when it is read).
"""

from __future__ import annotations

import pickle
import threading
import zlib
from typing import TYPE_CHECKING, Any

DEFERRED_TABLES = ("_declarations", "_facts", "_names", "_type_names", "_type_words")
"""The graph's tables an image keeps apart (each a pickle of its own), read when first used."""
COMPRESSION = 1
"""zlib's level for the tables kept apart: the fastest (pickles of names and ids shrink 5x)."""
_PENDING = "_deferred"
_PENDING_LOCK = "_deferred_lock"


class DeferredTables:
    """Mixed into ``CatalogGraph``: ``image_state`` and ``restore_state`` turn its state into
    the image's and back, the tables ``DEFERRED_TABLES`` names kept as bytes until read."""

    def image_state(self, state: dict[str, object]) -> dict[str, object]:
        """``state`` (the graph's attributes) with the deferred tables as bytes."""
        pending: dict[str, bytes] = dict(self.__dict__.get(_PENDING) or {})
        kept = {k: v for k, v in state.items() if k not in (_PENDING, _PENDING_LOCK)}
        for name in DEFERRED_TABLES:
            if name in kept:
                table = pickle.dumps(kept.pop(name), protocol=pickle.HIGHEST_PROTOCOL)
                pending[name] = zlib.compress(table, COMPRESSION)
        kept[_PENDING] = pending
        return kept

    def restore_state(self, state: dict[str, object]) -> None:
        """Take ``state`` (an image's), the deferred tables left as bytes until read."""
        pending = state.pop(_PENDING, None)
        self.__dict__.update(state)
        self.__dict__[_PENDING] = dict(pending) if isinstance(pending, dict) else {}
        self.__dict__[_PENDING_LOCK] = threading.Lock()

    if not TYPE_CHECKING:  # for the type checker, every table is an attribute as declared

        def __getattr__(self, name: str) -> Any:
            pending = self.__dict__.get(_PENDING)
            if not pending or name not in pending:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            with self.__dict__[_PENDING_LOCK]:
                if name not in self.__dict__:
                    from lgent.graph.image import table_from

                    self.__dict__[name] = table_from(expanded(pending[name]))
                pending.pop(name, None)
            return self.__dict__[name]


def expanded(data: bytes) -> bytes:
    """A kept table's pickle (``ValueError`` when the bytes are not zlib's: a damaged image)."""
    try:
        return zlib.decompress(data)
    except zlib.error as err:
        raise ValueError(f"not a graph table (zlib: {err})") from err
