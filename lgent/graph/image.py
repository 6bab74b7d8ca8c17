"""A built ``CatalogGraph`` as bytes, and back: opening a graph from its image costs a few
hundred milliseconds at 17,000 artifacts, where building it from facts costs seconds.

The image is a pickle of the graph's own tables (caches and locks left out: they are rebuilt
when first needed), so it is only as durable as the code that wrote it: ``code_fingerprint()``
digests the graph package's source, and an image written by other code is not read (the graph
is built from its facts instead, ``lgent.graph.facts``). A pickle can name any function to
call, so the image is read by an unpickler that resolves only the classes of the graph's own
tables (``_READABLE_MODULES``) and refuses every other name: a planted image cannot run code, it can
only fail to load (the graph is then rebuilt from the catalog, and the answer says why).
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import io
import pickle
from functools import cache
from pathlib import Path

from lgent.graph.model import CatalogGraph

_SOURCES = (
    Path(__file__).parent,
    Path(__file__).parent.parent / "typeexpr.py",
    Path(__file__).parent.parent / "models.py",
    Path(__file__).parent.parent / "model",
)


@cache
def code_fingerprint() -> str:
    """A digest of the source the image's classes come from (the graph package and the type
    expressions): images written by other code are not read."""
    digest = hashlib.sha256()
    for folder in _SOURCES:
        files = sorted(folder.glob("*.py")) if folder.is_dir() else [folder]
        for path in files:
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def image_of(graph: CatalogGraph) -> bytes:
    """The graph's tables as bytes (``graph_from`` reads them back)."""
    return pickle.dumps(graph, protocol=pickle.HIGHEST_PROTOCOL)


_READABLE_MODULES = ("lgent.graph.", "lgent.typeexpr", "lgent.models", "lgent.model.")
"""Where the classes an image may name live (classes only: never a function)."""

_READABLE_VALUES = frozenset(
    {
        ("datetime", "datetime"),
        ("datetime", "date"),
        ("datetime", "timedelta"),
        ("datetime", "timezone"),
    }
)
"""Standard-library value classes the tables hold (times of artifacts and measurements)."""


class _TablesOnly(pickle.Unpickler):
    """An unpickler that resolves only classes of the graph's tables."""

    def find_class(self, module: str, name: str) -> type:
        if (module, name) in _READABLE_VALUES:
            found: object = getattr(importlib.import_module(module), name)
            assert isinstance(found, type)
            return found
        if module.startswith(_READABLE_MODULES) and "." not in name:
            found = getattr(importlib.import_module(module), name, None)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not a class of the graph's tables")


def table_from(data: bytes) -> object:
    """One of the tables an image keeps apart (``lgent.graph.deferred``), read as the image is:
    only the graph's own classes (``ValueError`` otherwise)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _TablesOnly(io.BytesIO(data)).load()
    except Exception as err:  # any unpickling failure means the same: not a table
        raise ValueError(f"not a graph table ({type(err).__name__}: {err!s:.120})") from err
    finally:
        if enabled:
            gc.enable()


def graph_from(image: bytes) -> CatalogGraph:
    """The graph ``image_of`` wrote (``ValueError`` when the bytes are not one, or name
    anything but the graph's own classes)."""
    enabled = gc.isenabled()
    gc.disable()  # hundreds of thousands of small objects: no collection halfway through
    try:
        graph = _TablesOnly(io.BytesIO(image)).load()
    except Exception as err:  # any unpickling failure means the same: not an image
        raise ValueError(f"not a graph image ({type(err).__name__}: {err!s:.120})") from err
    finally:
        if enabled:
            gc.enable()
    if not isinstance(graph, CatalogGraph):
        raise ValueError(f"not a graph image (it holds a {type(graph).__name__})")
    return graph
