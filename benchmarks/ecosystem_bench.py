"""Importing the real ecosystem: an empty home to all three brains ready for the 567 Swagger specs
(16k operations), with the peak memory, and what the primitive-type rule changes in composition.

    python -m benchmarks.ecosystem_bench              # writes the section of docs/benchmarks.md
    python -m benchmarks.ecosystem_bench --no-write

Reads ../shared/ecosystem in place, or ``$LGENT_ECOSYSTEM_DATA`` (the archive is unpacked into a
temporary folder, untimed).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.harness.runner import machine_info, peak_rss_mib, reset_peak_rss, write_results
from lgent import LGent

SHARED = Path(
    os.environ.get("LGENT_ECOSYSTEM_DATA")
    or Path(__file__).resolve().parent.parent.parent / "shared" / "ecosystem"
)
ARCHIVE = SHARED / "openapi" / "apis-guru-swagger2-specs.tar.gz"
MCP_TOOLS = SHARED / "mcp-tools-list"


async def empty_home_to_ready(specs: Path, home: Path) -> dict[str, Any]:
    """Seconds per stage from an empty home to every brain built, and what was loaded."""
    times: dict[str, float] = {}
    start = time.perf_counter()
    async with LGent.open(home) as lg:
        report = await lg.load(specs)
        times["load (read, check, commit)"] = time.perf_counter() - start
        for brain in ("keyword", "graph", "semantic"):
            began = time.perf_counter()
            await lg.reindex([brain])
            times[f"{brain} brain built"] = time.perf_counter() - began
        began = time.perf_counter()
        await lg.query("list the pets of a store")
        times["first query (semantic intent)"] = time.perf_counter() - began
        stats = await lg.stats()
    times["total"] = time.perf_counter() - start
    return {
        "times": times,
        "operations": stats["by_entity_type"].get("tool", 0),
        "apis": stats["by_entity_type"].get("other", 0),
        "types": stats["types"],
        "rejected": len(report.rejected),
        "warnings": len(report.warnings),
    }


async def chaining(source: Path, sample: int) -> dict[str, int]:
    """Downstream neighbours summed over (a sample of) the artifacts with an output type: as
    composition links them (structural types only) and as plain subtyping would."""
    async with LGent.open(None) as lg:
        await lg.load(source)
        index = lg.catalog_graph()
        ids = sorted(s.id for s in index.signatures() if s.output_type and s.input_type)
        picked = random.Random(7).sample(ids, min(sample, len(ids)))
        linked = plain = 0
        for artifact in picked:
            linked += len(index.find_compatible(artifact, limit=None, include_unusable=True))
            plain += len(
                index.find_compatible(artifact, limit=None, include_unusable=True, chain=False)
            )
        return {"artifacts": len(picked), "linked": linked, "plain": plain}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if not ARCHIVE.exists():
        raise SystemExit(f"the Swagger archive is not at {ARCHIVE}")
    info = machine_info()
    with tempfile.TemporaryDirectory() as work:
        with tarfile.open(ARCHIVE) as tar:
            tar.extractall(work, filter="data")
        specs = Path(work) / "specs"
        reset_peak_rss()
        ready = asyncio.run(empty_home_to_ready(specs, Path(work) / "home"))
        peak = peak_rss_mib()
        swagger_links = asyncio.run(chaining(specs, 500))
    mcp_links = asyncio.run(chaining(MCP_TOOLS, 10_000))
    rows = "\n".join(f"| {stage} | {seconds:.1f} |" for stage, seconds in ready["times"].items())
    markdown = f"""\
`python -m benchmarks.ecosystem_bench`: the 567 Swagger 2.0 specs of
`../shared/ecosystem/openapi/apis-guru-swagger2-specs.tar.gz` loaded into an empty home with
`lgent load`, then every brain built (the semantic one embeds every artifact with the real
model), then one query. {ready["operations"]:,} operations and {ready["apis"]} APIs imported,
{ready["types"]:,} types derived from their schemas; {ready["rejected"]} spec(s) left out,
{ready["warnings"]} warning(s).

| stage | seconds |
|---|---:|
{rows}

Peak memory (resident set, the whole process, model included): **{peak:,.0f} MiB**.

What the primitive rule changes (downstream neighbours of artifacts with both types, summed;
"plain subtyping" is what chaining through `json.*` types would give):

| catalog | artifacts | linked (structural types only) | plain subtyping |
|---|---:|---:|---:|
| MCP tools/list (70 servers) | {mcp_links["artifacts"]} | {mcp_links["linked"]:,} | {mcp_links["plain"]:,} |
| Swagger specs (sample) | {swagger_links["artifacts"]} | {swagger_links["linked"]:,} | {swagger_links["plain"]:,} |
"""
    if args.no_write:
        print(markdown)
    else:
        write_results("Importing the ecosystem", markdown, info=info)


if __name__ == "__main__":
    main()
