"""How much of the real MCP servers kind inference reads, and a seeded sample to judge by hand.

    python -m benchmarks.kind_coverage                  # the 70 MCP servers: coverage + sample
    python -m benchmarks.kind_coverage --sample 30 --seed 31 --swagger

Coverage: the share of tools with an inferred input kind (any parameter; a required one) and
with an output kind, also counted without the two most general kinds (``Text``,
``Identifier``), which say little. The sample: ``--sample`` inferences drawn with ``--seed``
from every (tool, parameter or output, best kind) the inference made, printed with the schema
text they rest on, so that each can be judged; docs/importing.md lists the judged sample.
``--swagger`` adds the same coverage over the 567 Swagger specs (slower: about a minute).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from benchmarks.ecosystem_tools import ToolSchemas, mcp_tools, swagger_operations, unpacked_specs
from lgent.kinds import InferredKind, ToolKinds, Vocabulary, default_vocabulary, infer_tool_kinds

GENERAL = frozenset({"Text", "Identifier"})
"""Kinds too general to say much: counted apart."""


@dataclass(frozen=True)
class Inference:
    """One inferred kind, for the sample: the tool, the slot (a parameter, a group, the
    output), the kind and its strongest evidence."""

    tool: str
    slot: str
    found: InferredKind

    def line(self) -> str:
        top = self.found.evidence[0]
        return (
            f"{self.tool} [{self.slot}] -> {self.found.type_expr} "
            f"({self.found.confidence:.2f}; {top.rule} of {top.kind}: {top.quote!r} at {top.where})"
        )


def inferences(tool: ToolSchemas, kinds: ToolKinds) -> list[Inference]:
    found = [
        Inference(tool.id, f"input {p.name}", p.best) for p in kinds.inputs if p.best is not None
    ]
    found += [Inference(tool.id, f"input {'+'.join(g.fields)}", g) for g in kinds.groups]
    if kinds.output is not None:
        found.append(Inference(tool.id, "output", kinds.output))
    return found


@dataclass
class Coverage:
    tools: int = 0
    any_input: int = 0
    required_input: int = 0
    specific_input: int = 0
    output: int = 0
    specific_output: int = 0
    input_kinds: Counter[str] | None = None
    output_kinds: Counter[str] | None = None

    def add(self, kinds: ToolKinds) -> None:
        self.tools += 1
        accepted = kinds.accepts
        self.any_input += bool(accepted)
        self.required_input += bool(kinds.needs)
        self.specific_input += any(k.kind not in GENERAL for k in accepted)
        self.output += kinds.output is not None
        self.specific_output += kinds.output is not None and kinds.output.kind not in GENERAL
        assert self.input_kinds is not None and self.output_kinds is not None
        self.input_kinds.update(k.kind for k in accepted)
        if kinds.output is not None:
            self.output_kinds[kinds.output.kind] += 1

    def table(self, title: str) -> str:
        def share(n: int) -> str:
            return f"{n:,} ({n / max(self.tools, 1):.1%})"

        rows = [
            ("an input kind (any parameter)", share(self.any_input)),
            ("an input kind of a required parameter", share(self.required_input)),
            ("an input kind other than Text/Identifier", share(self.specific_input)),
            ("an output kind", share(self.output)),
            ("an output kind other than Text/Identifier", share(self.specific_output)),
        ]
        lines = [f"| {title}: {self.tools:,} tools | tools |", "|---|---:|"]
        lines += [f"| {label} | {value} |" for label, value in rows]
        return "\n".join(lines)


def measure(
    vocabulary: Vocabulary, tools: Iterable[ToolSchemas]
) -> tuple[Coverage, list[Inference]]:
    coverage = Coverage(input_kinds=Counter(), output_kinds=Counter())
    made: list[Inference] = []
    for tool in tools:
        kinds = infer_tool_kinds(
            vocabulary,
            name=tool.name,
            description=tool.description,
            input_schema=tool.input_schema,
            output_schema=tool.output_schema,
            output_description=tool.output_description,
            document=tool.document,
        )
        coverage.add(kinds)
        made.extend(inferences(tool, kinds))
    return coverage, made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=30, help="inferences to draw")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--swagger", action="store_true", help="also the Swagger specs")
    args = parser.parse_args()
    vocabulary = default_vocabulary()
    coverage, made = measure(vocabulary, mcp_tools())
    print(coverage.table("MCP servers (70)"))
    assert coverage.input_kinds is not None and coverage.output_kinds is not None
    print("\ninput kinds:", ", ".join(f"{k} {n}" for k, n in coverage.input_kinds.most_common(25)))
    print("output kinds:", ", ".join(f"{k} {n}" for k, n in coverage.output_kinds.most_common(25)))
    picked = random.Random(args.seed).sample(made, min(args.sample, len(made)))
    print(f"\nsample of {len(picked)} of {len(made):,} inferences (seed {args.seed}):")
    for number, item in enumerate(picked, 1):
        print(f"{number:>3}. {item.line()}")
    if args.swagger:
        with unpacked_specs() as specs:
            swagger, _ = measure(vocabulary, swagger_operations(specs))
        print()
        print(swagger.table("Swagger specs (567)"))


if __name__ == "__main__":
    main()
