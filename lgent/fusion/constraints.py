"""Constraints: short phrases turned into hard filters on entries.

Accepted forms (case-insensitive; units ms, s, sec, seconds, m, min):

    latency < 2s        latency <= 500ms       max latency 1.5 s      under 300ms
    local execution     local      cloud       hybrid      execution:local     no cloud
    status:active       active only            status = experimental
    type:agent          entity_type:tool       agents only
    min success 0.9     success >= 0.9         success_rate > 0.8     min success 90%
    author:ToolForge    contract:deterministic deterministic   (any known contract word)
    contract:read-only  read only    contract:read_only     (``-``, ``_`` and spaces alike)
    min usage 100

An entry with no value for a constrained attribute (e.g. no ``latency_ms``) does not pass:
a hard filter cannot vouch for what it does not know. The interpretation says so.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lgent.errors import ConstraintError
from lgent.models import CatalogEntry, EntityType, Execution, Status, author_key

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

KNOWN_CONTRACTS = (
    "deterministic",
    "idempotent",
    "pure",
    "streaming",
    "stateless",
    "cached",
    "rate_limited",
    "requires_network",
    "requires_gpu",
    "read-only",
    "destructive",
    "open-world",
)
"""Contract words a constraint names without ``contract:`` (what the catalog's own files and the
readers write: MCP annotations and HTTP methods give ``read-only``, ``idempotent``,
``destructive``, ``open-world``). Any word is a contract after ``contract:``."""

_OPS: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "=": operator.eq,
    "==": operator.eq,
}
_UNITS_MS = {
    "ms": 1.0,
    "msec": 1.0,
    "s": 1000.0,
    "sec": 1000.0,
    "secs": 1000.0,
    "second": 1000.0,
    "seconds": 1000.0,
    "m": 60_000.0,
    "min": 60_000.0,
    "minute": 60_000.0,
    "minutes": 60_000.0,
}

FORMS = (
    "'latency < 2s', 'local execution', 'status:active', 'type:agent', 'min success 0.9', "
    "'author:NAME', 'contract:deterministic', 'min usage 100'"
)


@dataclass(frozen=True, slots=True)
class Constraint:
    """One parsed constraint: the text it came from, a readable description, and its test."""

    text: str
    attribute: str
    description: str
    test: Callable[[CatalogEntry], bool]
    allowed: tuple[str, ...] = ()
    """For status, entity_type and execution: the values admitted (brains filter natively)."""

    def admits(self, entry: CatalogEntry) -> bool:
        return self.test(entry)


def parse_constraints(texts: Sequence[str] | None) -> list[Constraint]:
    """Parse every constraint; the first bad one raises ConstraintError naming it."""
    if texts is None:
        return []
    if isinstance(texts, str):
        texts = [texts]
    return [parse_constraint(t) for t in texts]


def extract_constraints(query: str) -> tuple[str, list[Constraint]]:
    """Split trailing constraint clauses off a query: ``"PDF -> Text, runs locally, under 2s"``
    gives ``("PDF -> Text", [local execution, latency <= 2s])``. Only comma- or
    semicolon-separated clauses at the end that parse as constraints are taken."""
    parts = re.split(r"\s*[,;]\s*", query.strip())
    found: list[Constraint] = []
    while len(parts) > 1:
        try:
            found.insert(0, parse_constraint(parts[-1]))
        except ConstraintError:
            break
        parts.pop()
    if not found:
        return query, []
    return ", ".join(parts), found


def parse_constraint(text: str) -> Constraint:
    if not isinstance(text, str):
        raise ConstraintError(repr(text), f"expected a string, got {type(text).__name__}")
    raw = text
    t = " ".join(text.strip().lower().split())
    if not t:
        raise ConstraintError(raw, f"empty constraint; expected one of {FORMS}")
    for parser in (
        _latency,
        _execution,
        _status,
        _entity_type,
        _success,
        _usage,
        _author,
        _contract,
    ):
        found = parser(raw, t)
        if found is not None:
            return found
    raise ConstraintError(raw, f"not understood; expected one of {FORMS}")


def _number(raw: str, value: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise ConstraintError(raw, f"{value!r} is not a number") from None


def _latency(raw: str, t: str) -> Constraint | None:
    m = re.fullmatch(
        r"(?:(?:max(?:imum)?|p\d+)\s+)?latency\s*(?:(?P<op><=|>=|==|<|>|=)\s*|(?:of\s+|under\s+|below\s+)?)"
        r"(?P<num>[\d.]+)\s*(?P<unit>[a-z]+)?",
        t,
    ) or re.fullmatch(
        r"(?:under|below|faster than)\s+(?P<num>[\d.]+)\s*(?P<unit>[a-z]+)?(?:\s+latency)?", t
    )
    if m is None:
        if t.startswith("latency"):
            raise ConstraintError(
                raw, "latency needs a comparison and a duration, e.g. 'latency < 2s'"
            )
        return None
    op = m.groupdict().get("op") or "<="
    unit = m.group("unit") or "ms"
    if unit not in _UNITS_MS:
        raise ConstraintError(raw, f"unknown time unit {unit!r} (use ms, s or min)")
    limit_ms = _number(raw, m.group("num")) * _UNITS_MS[unit]
    compare = _OPS[op]
    return Constraint(
        raw,
        "latency_ms",
        f"latency {op} {_fmt_ms(limit_ms)} (entries without a latency excluded)",
        lambda e: e.latency_ms is not None and compare(e.latency_ms, limit_ms),
    )


def _execution(raw: str, t: str) -> Constraint | None:
    m = re.fullmatch(
        r"(?:(?P<neg>no|not)\s+)?(?:execution\s*[:=]\s*)?(?P<v>local|cloud|hybrid)(?:\s+(?:execution|only|runs?|run))?",
        t,
    ) or re.fullmatch(r"(?:runs?|run|execut\w*)\s+(?P<v>local(?:ly)?|in the cloud|cloud|hybrid)", t)
    if m is None:
        if t.startswith("execution"):
            raise ConstraintError(raw, "execution must be local, cloud or hybrid")
        return None
    value = Execution(m.group("v").replace("locally", "local").replace("in the cloud", "cloud"))
    if m.groupdict().get("neg"):
        return Constraint(
            raw,
            "execution",
            f"execution is not {value.value}",
            lambda e: e.execution is not None and e.execution != value,
        )
    return Constraint(
        raw,
        "execution",
        f"{value.value} execution only",
        lambda e: e.execution == value,
        (value.value,),
    )


def _status(raw: str, t: str) -> Constraint | None:
    m = re.fullmatch(r"status\s*[:=]+\s*(?P<v>\w+)", t) or re.fullmatch(
        r"(?P<v>active|experimental|deprecated|retired|draft)\s+only", t
    )
    if m is None:
        return None
    try:
        status = Status(m.group("v"))
    except ValueError:
        raise ConstraintError(
            raw,
            f"unknown status {m.group('v')!r} (active, experimental, deprecated, retired, draft)",
        ) from None
    return Constraint(
        raw, "status", f"status {status.value}", lambda e: e.status == status, (status.value,)
    )


_PLURALS = {f"{e.value}s": e for e in EntityType}


def _entity_type(raw: str, t: str) -> Constraint | None:
    m = re.fullmatch(r"(?:type|entity_type|kind)\s*[:=]+\s*(?P<v>\w+)", t)
    value = None
    if m is not None:
        try:
            value = EntityType(m.group("v"))
        except ValueError:
            raise ConstraintError(
                raw,
                f"unknown entity type {m.group('v')!r} ({', '.join(e.value for e in EntityType)})",
            ) from None
    else:
        m = re.fullmatch(r"(?:only\s+)?(?P<v>\w+?)s?\s+only|only\s+(?P<w>\w+)", t)
        word = (m.group("v") or m.group("w")) if m else None
        if word:
            value = next(
                (e for e in EntityType if e.value == word or _PLURALS.get(word) == e), None
            )
        if value is None:
            return None
    chosen = value
    return Constraint(
        raw,
        "entity_type",
        f"entity type {chosen.value}",
        lambda e: e.entity_type == chosen,
        (chosen.value,),
    )


def _success(raw: str, t: str) -> Constraint | None:
    m = re.fullmatch(
        r"(?:min(?:imum)?\s+)?success(?:[ _]rate)?\s*(?P<op><=|>=|==|<|>|=|of|at least)?\s*(?P<num>[\d.]+)\s*(?P<pct>%)?",
        t,
    )
    if m is None:
        if t.startswith(("success", "min success")):
            raise ConstraintError(
                raw, "success needs a number from 0 to 1 (or a percentage), e.g. 'min success 0.9'"
            )
        return None
    op = m.group("op") or ">="
    op = ">=" if op in ("of", "at least") else op
    value = _number(raw, m.group("num")) / (100.0 if m.group("pct") else 1.0)
    if not 0.0 <= value <= 1.0:
        raise ConstraintError(raw, f"success rate {value:g} is outside 0..1 (write 0.9 or 90%)")
    compare = _OPS[op]
    return Constraint(
        raw,
        "success_rate",
        f"success rate {op} {value:g} (entries without one excluded)",
        lambda e: e.success_rate is not None and compare(e.success_rate, value),
    )


def _usage(raw: str, t: str) -> Constraint | None:
    m = re.fullmatch(
        r"(?:min(?:imum)?\s+)?usage(?:[ _]count)?\s*(?:>=|>|of|at least)?\s*(?P<num>\d+)", t
    )
    if m is None:
        return None
    floor = int(m.group("num"))
    return Constraint(
        raw, "usage_count", f"used at least {floor} times", lambda e: e.usage_count >= floor
    )


def _author(raw: str, t: str) -> Constraint | None:
    m = re.fullmatch(r"(?:author|by)\s*[:=]\s*(?P<v>.+)", raw.strip(), flags=re.I)
    if m is None:
        return None
    author = m.group("v").strip()
    return Constraint(
        raw,
        "author",
        f"author {author}",
        lambda e: author_key(e.author or "") == author_key(author),
    )


def contract_key(word: str) -> str:
    """A contract word as constraints compare it: lowercase, without ``-``, ``_`` or spaces
    (``read-only``, ``read_only`` and ``Read only`` are one contract)."""
    return re.sub(r"[-_\s]+", "", word.lower())


_KNOWN_KEYS = frozenset(contract_key(c) for c in KNOWN_CONTRACTS)


def _contract(raw: str, t: str) -> Constraint | None:
    m = re.fullmatch(
        r"(?:contracts?\s*[:=]\s*)?(?:must be\s+)?(?P<v>[a-z][a-z0-9_\- ]*[a-z0-9]|[a-z])", t
    )
    if m is None:
        return None
    word = m.group("v")
    key = contract_key(word)
    explicit = t.startswith("contract")
    if key not in _KNOWN_KEYS and not explicit:
        return None
    return Constraint(
        raw,
        "contracts",
        f"contract {word}",
        lambda e: any(contract_key(c) == key for c in e.contracts),
    )


def _fmt_ms(ms: float) -> str:
    return f"{ms / 1000:g}s" if ms >= 1000 else f"{ms:g}ms"


async def read_constraints(state: QueryState, context: FusionContext) -> None:
    """The step: the caller's constraints, and those read off the end of the query text."""
    parsed = parse_constraints(state.arguments.constraints)
    state.text, in_text = extract_constraints(state.arguments.query)
    state.constraints = parsed + in_text
    state.in_text = len(in_text)
