"""What an artifact takes and gives, as composition reads it: its *ports*.

A declared ``input_type`` / ``output_type`` (a hand-written entry, a schema's own name) is a port
of confidence 1. Value kinds inferred from an imported tool's schemas (``entry.kinds``,
``lgent.kinds``) add ports: one input port per kind the tool needs (a required parameter, or a
record several of them make: ``latitude`` + ``longitude`` make a ``GeoPoint``), one output port
per kind its result is, each with the confidence inference gave it (a list of a kind, given or
taken, is also a port of one of them, a little less surely: ``ELEMENT``). A declared type wins: an
inferred port of the same type as a declared one is not added, and a declared primitive
(``json.string``: how a value is written, not what it is) gives way to inferred kinds on its
side. Credentials are no input: the caller configures them, no tool feeds them.

An artifact with several ports is registered in the composition index once per (input, output)
pair (at most ``MAX_PORT_PAIRS``), so a tool that needs an address and a date can follow either
a geocoder or a date tool; its ``needs`` say everything it must be given to run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lgent.graph.facts import ArtifactFacts

MAX_PORT_PAIRS = 6
"""The most (input, output) pairs one artifact is registered with."""
ELEMENT = 0.9
"""An inferred list of a kind is also a port of one of them, at this share of its confidence:
the next tool takes one of a geocoder's matches; a tool taking a list takes a list of one."""
NOT_INPUTS = frozenset({"Credential"})
"""Kinds a caller configures rather than feeds from another tool."""


@dataclass(frozen=True, slots=True)
class Port:
    """One side of an artifact: a type, how sure the importer was of it, and whether it was
    declared (else inferred from the schemas)."""

    type: str
    confidence: float = 1.0
    declared: bool = True
    primitive: bool = False
    """A declared primitive (``json.string``): a port still, after every other."""


@dataclass(frozen=True, slots=True)
class Sides:
    """An artifact's input ports (best first), output ports (best first) and needs (every type
    it must be given to run)."""

    inputs: tuple[Port, ...] = ()
    outputs: tuple[Port, ...] = ()
    needs: tuple[str, ...] = ()

    @property
    def input(self) -> Port | None:
        return self.inputs[0] if self.inputs else None

    @property
    def output(self) -> Port | None:
        return self.outputs[0] if self.outputs else None

    def pairs(self) -> list[tuple[Port | None, Port | None]]:
        """The (input, output) pairs the artifact is registered with, best first (a side with
        no port is None); at least one pair, at most ``MAX_PORT_PAIRS``."""
        ins: list[Port | None] = list(self.inputs) or [None]
        outs: list[Port | None] = list(self.outputs) or [None]
        found = [(i, o) for i in ins for o in outs]
        found.sort(key=lambda pair: -_sureness(pair))
        return found[:MAX_PORT_PAIRS]


def _sureness(pair: tuple[Port | None, Port | None]) -> float:
    return min(p.confidence for p in pair if p is not None) if any(pair) else 0.0


def sides_of(facts: ArtifactFacts, is_primitive: Callable[[str], bool]) -> Sides:
    """The ports of the artifact ``facts`` describes; ``is_primitive(type)`` says which declared
    types give way to inferred kinds."""
    declared, declared_out = facts.input_type, facts.output_type
    inputs: list[Port] = []
    outputs: list[Port] = []
    needs: list[str] = []
    in_primitive = declared is not None and _safely(is_primitive, declared)
    out_primitive = declared_out is not None and _safely(is_primitive, declared_out)
    if declared is not None:
        inputs.append(Port(declared, primitive=in_primitive))
        needs.append(declared)
    if declared_out is not None:
        outputs.append(Port(declared_out, primitive=out_primitive))
    inferred_in = [Port(t, c, False) for t, c in facts.inferred_needs]
    inferred_out = [Port(t, c, False) for t, c in facts.inferred_outputs]
    inferred_out += [
        Port(t[5:-1], c * ELEMENT, False) for t, c in facts.inferred_outputs if _listed(t)
    ]
    if inferred_in and (declared is None or in_primitive):
        needs = [p.type for p in inferred_in]
    inferred_in += [
        Port(t[5:-1], c * ELEMENT, False) for t, c in facts.inferred_needs if _listed(t)
    ]
    inputs += [p for p in inferred_in if p.type not in {q.type for q in inputs}]
    outputs += [p for p in inferred_out if p.type not in {q.type for q in outputs}]
    return Sides(tuple(_unique(inputs)), tuple(_unique(outputs)), tuple(dict.fromkeys(needs)))


def _listed(type_name: str) -> bool:
    """Whether an inferred output is a list of one kind (``List[GeoPoint]``)."""
    return type_name.startswith("List[") and type_name.endswith("]") and "," not in type_name


def _unique(ports: list[Port]) -> list[Port]:
    """Each type once, at its best (first) port; declared ones first, then inferred ones by
    confidence, a declared primitive last."""
    seen: dict[str, Port] = {}
    for port in ports:
        if port.type not in seen:
            seen[port.type] = port
    return sorted(seen.values(), key=lambda p: (p.primitive, not p.declared, -p.confidence))


def _safely(is_primitive: Callable[[str], bool], name: str) -> bool:
    from lgent.errors import TypeLatticeError

    try:
        return is_primitive(name)
    except TypeLatticeError:  # a malformed type is reported by the graph's problems()
        return False
