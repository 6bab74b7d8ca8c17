"""Value kinds: real-world value types (a URL, a PDF path, a currency code, a geographic point)
found in the JSON Schemas of real tools, with the evidence that found them.

    vocabulary = default_vocabulary()                 # lgent/kinds/vocabulary.yaml
    kinds = infer_tool_kinds(vocabulary, name=..., description=..., input_schema=...,
                             output_schema=...)
    kinds.needs, kinds.outputs                        # InferredKind: kind, confidence, evidence

The vocabulary is data (``vocabulary.yaml``: type declarations with ``evidence``), extended by a
catalog's own declarations (:meth:`Vocabulary.extended`). Inference is a pure function with no
model and no network (``infer.py``); records are matched by their fields (``records.py``).
docs/importing.md documents the rules. This package knows nothing of the brains, fusion or the
resolver: they read its results.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lgent.kinds.infer import WRAPPERS, infer_tool_kinds, record_shape
    from lgent.kinds.operations import OperationSchemas, openapi_operation_schemas
    from lgent.kinds.records import FieldShape, RecordFit, RecordShape, field_fits, record_fit
    from lgent.kinds.results import Evidence, InferredKind, ParameterKinds, ToolKinds
    from lgent.kinds.rules import CONFIDENCE, MIN_CONFIDENCE
    from lgent.kinds.vocabulary import (
        ANY,
        Kind,
        Vocabulary,
        default_vocabulary,
        load_vocabulary,
        vocabulary_file,
    )

_HOMES = {
    "infer": ("WRAPPERS", "infer_tool_kinds", "record_shape"),
    "operations": ("OperationSchemas", "openapi_operation_schemas"),
    "records": ("FieldShape", "RecordFit", "RecordShape", "field_fits", "record_fit"),
    "results": ("Evidence", "InferredKind", "ParameterKinds", "ToolKinds"),
    "rules": ("CONFIDENCE", "MIN_CONFIDENCE"),
    "vocabulary": (
        "ANY",
        "Kind",
        "Vocabulary",
        "default_vocabulary",
        "load_vocabulary",
        "vocabulary_file",
    ),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}
"""Each name's module, imported when the name is first read: a process that only decodes an
entry's stored kinds (``lgent.kinds.results``) does not load the inference rules, the
vocabulary or the schema readers."""


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "ANY",
    "CONFIDENCE",
    "MIN_CONFIDENCE",
    "WRAPPERS",
    "Evidence",
    "FieldShape",
    "InferredKind",
    "Kind",
    "OperationSchemas",
    "ParameterKinds",
    "RecordFit",
    "RecordShape",
    "ToolKinds",
    "Vocabulary",
    "default_vocabulary",
    "field_fits",
    "infer_tool_kinds",
    "load_vocabulary",
    "openapi_operation_schemas",
    "record_fit",
    "record_shape",
    "vocabulary_file",
]
