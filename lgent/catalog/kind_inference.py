"""Value kinds at import: what the ecosystem readers infer for each tool (``lgent.kinds``).

One :class:`KindInference` serves a whole load (``loaders`` gives it to the readers as
``ReadContext.kinds``): the vocabulary (L-gent's, extended by the catalog's own kind
declarations: :func:`catalog_vocabulary`) and a memo of what was inferred, so a parameter or
record that recurs across the operations of a spec is judged once. A reader calls
:meth:`KindInference.tool_kinds` with a tool's name, description and schemas (or
:meth:`~KindInference.operation_kinds` with an OpenAPI operation) and stores the result in the
entry's ``kinds``. Declared ``input_type`` / ``output_type`` are left as the
reader found them: the kinds sit beside them, and the graph lets a declared type win.

:func:`kind_declarations` gives the vocabulary's kinds as type declarations, which a load of
ecosystem sources adds to the catalog where it lacks them, so every kind an entry names is a
type of the catalog's lattice.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lgent.models import TypeDecl

if TYPE_CHECKING:
    from lgent.kinds import Vocabulary
    from lgent.kinds.cache import InferenceCache


def catalog_vocabulary(declared: Iterable[TypeDecl]) -> Vocabulary:
    """The shipped vocabulary extended by a catalog's declarations: those with ``evidence``
    and the subtypes of kinds (a catalog's declaration of a shipped kind replaces it)."""
    from lgent.kinds import default_vocabulary

    return default_vocabulary().extended(declared)


def kind_declarations(vocabulary: Vocabulary, declared: Mapping[str, Any]) -> list[TypeDecl]:
    """The kinds of ``vocabulary`` as type declarations, parents first, leaving out every
    type ``declared`` names (the catalog's own declaration stays as it is)."""
    return [d for d in vocabulary.declarations() if d.type not in declared]


@dataclass
class KindInference:
    """The inference of one load: a vocabulary, a memo, and what it cost (``tools``,
    ``seconds``)."""

    vocabulary: Vocabulary
    cache: InferenceCache = field(default_factory=lambda: _new_cache())
    tools: int = 0
    seconds: float = 0.0

    @classmethod
    def default(cls) -> KindInference:
        """Inference with the shipped vocabulary alone."""
        from lgent.kinds import default_vocabulary

        return cls(default_vocabulary())

    def operation_kinds(
        self,
        document: Any,
        path_item: Mapping[str, Any],
        operation: Mapping[str, Any],
        *,
        name: str,
        description: str,
    ) -> dict[str, Any]:
        """An OpenAPI or Swagger operation's kinds: its arguments and first success response
        read as a tool's schemas (``lgent.kinds.openapi_operation_schemas``)."""
        from lgent.kinds import openapi_operation_schemas

        schemas = openapi_operation_schemas(document, path_item, operation)
        return self.tool_kinds(
            name=name,
            description=description,
            input_schema=schemas.input_schema,
            output_schema=schemas.output_schema,
            output_description=schemas.output_description,
            document=document,
        )

    def tool_kinds(
        self,
        *,
        name: str,
        description: str,
        input_schema: Any,
        output_schema: Any = None,
        output_description: str = "",
        document: Any = None,
    ) -> dict[str, Any]:
        """A tool's kinds as an entry stores them (``ToolKinds.to_dict``). ``document``: where
        its ``$ref`` point (an OpenAPI document; by default each schema itself)."""
        from lgent.kinds import infer_tool_kinds

        started = time.perf_counter()
        found = infer_tool_kinds(
            self.vocabulary,
            name=name,
            description=description,
            input_schema=input_schema,
            output_schema=output_schema,
            output_description=output_description,
            document=document,
            cache=self.cache,
        )
        self.tools += 1
        self.seconds += time.perf_counter() - started
        return found.to_dict()


def _new_cache() -> InferenceCache:
    from lgent.kinds.cache import InferenceCache

    return InferenceCache()


__all__ = ["KindInference", "catalog_vocabulary", "kind_declarations"]
