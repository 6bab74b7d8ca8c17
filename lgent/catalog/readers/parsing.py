"""JSON and YAML parsed within limits: nesting depth, integer size, a bound on what YAML aliases
expand to, and (for L-gent's own records) string keys. Every breach is a LoadError naming the file
and, where the parser knows it, the line and column; nothing else escapes (no RecursionError,
no ValueError for a 5,000-digit integer, no TypeError for a key ``1:``)."""

from __future__ import annotations

import json
from typing import Any

import yaml

from lgent import limits
from lgent.errors import LoadError

MAX_YAML_NODES = 2_000_000
"""Values a YAML document may hold once its aliases are expanded (a guard against alias bombs)."""

_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_TAG_NAMES = {
    "tag:yaml.org,2002:int": "an integer",
    "tag:yaml.org,2002:bool": "a boolean",
    "tag:yaml.org,2002:null": "null",
    "tag:yaml.org,2002:float": "a number",
    "tag:yaml.org,2002:timestamp": "a date",
}


class _IntTooLong(ValueError):
    def __init__(self, digits: int) -> None:
        self.digits = digits


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > limits.MAX_INT_DIGITS:
        raise _IntTooLong(digits)
    return int(text)


def _int_error(digits: int, source: str, line: int | None) -> LoadError:
    return LoadError(
        f"an integer of {digits} digits is over the limit of {limits.MAX_INT_DIGITS} digits",
        source=source,
        line=line,
    )


def _depth_error(source: str, line: int | None, where: str = "") -> LoadError:
    return LoadError(
        f"nested more than {limits.MAX_NESTING_DEPTH} levels deep{where}", source=source, line=line
    )


def parse_json(text: str, source: str, line: int = 1) -> Any:
    """``text`` parsed as JSON; LoadError for invalid JSON or any limit broken."""
    try:
        data = json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as err:
        raise LoadError(
            f"invalid JSON: {err.msg} (column {err.colno})",
            source=source,
            line=line + err.lineno - 1,
        ) from None
    except _IntTooLong as err:
        raise _int_error(err.digits, source, line) from None
    except RecursionError:
        raise _depth_error(source, line) from None
    check_depth(data, source, line)
    return data


def check_depth(data: Any, source: str, line: int | None = None) -> None:
    """LoadError when ``data`` (parsed JSON) nests deeper than the limit."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limits.MAX_NESTING_DEPTH:
            raise _depth_error(source, line)
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))


def load_yaml(
    text: str, source: str, *, first_line: int = 1, string_keys: bool = False
) -> tuple[yaml.Node | None, Any]:
    """``text`` composed and constructed as YAML (safe tags only): its node tree, for lines,
    and its value. LoadError for invalid YAML or any limit broken; ``string_keys`` also refuses
    a mapping key that is not a string (``1:``, ``true:``, ``~:``), naming its line and column."""
    size = len(text.encode("utf-8"))
    if size > limits.MAX_YAML_BYTES:
        raise LoadError(
            f"YAML of {size / 1e6:.1f} MB is over the {limits.MAX_YAML_BYTES // 10**6} MB "
            "limit for YAML (convert it to JSON, which has no such limit)",
            source=source,
            line=first_line,
        )
    try:
        node = yaml.compose(text, Loader=_YAML_LOADER)
        if node is None:
            return None, None
        _check_node(node, source, first_line, string_keys)
        loader = _YAML_LOADER("")
        try:
            value = loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = first_line + mark.line if mark is not None else first_line
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise LoadError(f"invalid YAML: {problem}", source=source, line=line) from None
    except RecursionError:
        raise _depth_error(source, first_line) from None
    except (TypeError, ValueError) as err:  # e.g. an unhashable key PyYAML lets through
        raise LoadError(f"invalid YAML: {err}", source=source, line=first_line) from None
    return node, value


def _check_node(root: yaml.Node, source: str, first_line: int, string_keys: bool) -> None:
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    seen = 0
    while stack:
        node, depth = stack.pop()
        seen += 1
        if seen > MAX_YAML_NODES:
            raise LoadError(
                f"YAML expands to more than {MAX_YAML_NODES:,} values (aliases repeated?)",
                source=source,
                line=first_line,
            )
        line = first_line + node.start_mark.line
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _INT_TAG:
                digits = len(str(node.value).lstrip("+-").replace("_", ""))
                if digits > limits.MAX_INT_DIGITS:
                    raise _int_error(digits, source, line)
            continue
        if depth > limits.MAX_NESTING_DEPTH:
            raise _depth_error(source, line, f" (column {node.start_mark.column + 1})")
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)
            continue
        for key, value in node.value:
            if string_keys and key.tag not in (_STR_TAG, _MERGE_TAG):
                what = _TAG_NAMES.get(key.tag, "not a string")
                shown = f"{key.value!r} " if isinstance(key, yaml.ScalarNode) else ""
                raise LoadError(
                    f"key {shown}at column {key.start_mark.column + 1} is {what}; keys must be "
                    "strings (quote it)",
                    source=source,
                    line=first_line + key.start_mark.line,
                )
            stack.append((key, depth + 1))
            stack.append((value, depth + 1))


__all__ = ["MAX_YAML_NODES", "check_depth", "load_yaml", "parse_json"]
