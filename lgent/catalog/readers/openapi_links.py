"""OpenAPI 3 ``links``: which operation a response's values may be passed to.

A Link Object in a response (``responses.<code>.links.<name>``, or a ``$ref`` to
``components/links``) names the operation it leads to by ``operationId`` or by a local
``operationRef`` (``#/paths/~12.0~1users~1{username}/get``). The OpenAPI reader turns each link
of a success (2xx) or ``default`` response into a ``feeds`` relation from the linking operation
to the linked one: what the first returns feeds the second. A link to an operation the document
does not hold, or to another document, is left out with a warning. Swagger 2 has no links.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lgent.catalog.readers.schema_types import resolve_ref
from lgent.ids import normalise_id

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def operation_local_id(path: str, method: str, operation: Mapping[str, Any]) -> str:
    """The part of an operation's id after its API: the ``operationId``, else the method and
    the path without braces (``get/pets/petId``)."""
    operation_id = operation.get("operationId")
    if isinstance(operation_id, str) and operation_id.strip():
        return operation_id.strip()
    return method + path.replace("{", "").replace("}", "")


@dataclass
class OperationIndex:
    """The artifact ids of a document's operations, by ``operationId`` and by path and method."""

    by_operation_id: dict[str, str] = field(default_factory=dict)
    by_place: dict[tuple[str, str], str] = field(default_factory=dict)

    @classmethod
    def of(cls, paths: Mapping[str, Any], api_id: str) -> OperationIndex:
        index = cls()
        for path, item in paths.items():
            if not isinstance(item, Mapping):
                continue
            for method in METHODS:
                operation = item.get(method)
                if not isinstance(operation, Mapping):
                    continue
                found = normalise_id(f"{api_id}/{operation_local_id(str(path), method, operation)}")
                if not found:
                    continue
                index.by_place.setdefault((str(path), method), found)
                operation_id = operation.get("operationId")
                if isinstance(operation_id, str) and operation_id.strip():
                    index.by_operation_id.setdefault(operation_id.strip(), found)
        return index


def _local_operation(ref: str) -> tuple[str, str] | None:
    """``(path, method)`` of a local ``operationRef`` (``#/paths/<path>/<method>``)."""
    if not ref.startswith("#/paths/"):
        return None
    parts = ref[len("#/paths/") :].split("/")
    if len(parts) != 2:
        return None
    path = parts[0].replace("~1", "/").replace("~0", "~")
    return path, parts[1].lower()


def linked_operations(
    document: Any,
    operation: Mapping[str, Any],
    index: OperationIndex,
    warn: Callable[[str], None],
    at: str,
) -> list[str]:
    """The ids of the operations the success responses of ``operation`` link to, in order,
    each once."""
    responses = operation.get("responses")
    if not isinstance(responses, Mapping):
        return []
    found: list[str] = []
    for code, response in responses.items():
        if not (str(code).startswith("2") or str(code) == "default"):
            continue
        response = _followed(document, response)
        links = response.get("links") if isinstance(response, Mapping) else None
        if not isinstance(links, Mapping):
            continue
        for name, link in links.items():
            where = f"{at}/responses/{code}/links/{name}"
            target = _target(_followed(document, link), index, where, warn)
            if target is not None and target not in found:
                found.append(target)
    return found


def _target(
    link: Any, index: OperationIndex, where: str, warn: Callable[[str], None]
) -> str | None:
    if not isinstance(link, Mapping):
        warn(f"{where}: a link must be an object (or a $ref to one); left out")
        return None
    operation_id, ref = link.get("operationId"), link.get("operationRef")
    if isinstance(operation_id, str) and operation_id.strip():
        target = index.by_operation_id.get(operation_id.strip())
        if target is None:
            warn(f"{where}: links to operationId {operation_id!r}, which no operation has")
        return target
    if isinstance(ref, str):
        place = _local_operation(ref)
        target = None if place is None else index.by_place.get(place)
        if target is None:
            warn(f"{where}: operationRef {ref!r} names no operation of this document")
        return target
    warn(f"{where}: a link needs an operationId or an operationRef; left out")
    return None


def _followed(document: Any, value: Any) -> Any:
    """``value``, or what its local ``$ref`` points at (None when it points nowhere)."""
    for _ in range(8):
        if not isinstance(value, Mapping) or not isinstance(value.get("$ref"), str):
            return value
        value = resolve_ref(document, value["$ref"])
    return None


__all__ = ["OperationIndex", "linked_operations", "operation_local_id"]
