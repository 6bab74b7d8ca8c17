"""One side of ``benchmarks.long_text_bench``: the semantic brain of one checkout (not run by hand).

    PYTHONPATH=CHECKOUT python benchmarks/long_text_worker.py SPECS MCP IDS.json [ENTRY_TOKENS]

Run as a file, with ``PYTHONPATH`` naming the checkout whose ``lgent`` it measures, so the same
script drives the code before a change (another checkout) and after it. It imports nothing from
``benchmarks`` and only what both sides have: ``read_path``, ``SemanticBrain``, ``SemanticSettings``
and ``configured_embedder``. It reads the ecosystem entries itself, keeps those named in
``IDS.json`` in that order, loads and warms the model, says ``{"ready": ...}`` on stdout, then
answers one JSON request per stdin line with one JSON line:

- ``{"op": "build", "start": i, "stop": j}``: a fresh in-memory semantic brain built over entries
  ``i:j`` (every text embedded, nothing cached): wall and CPU seconds, texts embedded, texts cut.
- ``{"op": "queries", "texts": [...]}``: each text embedded alone, as a query is: milliseconds each.
- ``{"op": "quit"}``.

``ENTRY_TOKENS`` sets ``semantic.entry_tokens`` (a checkout without the setting is given none).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Sequence
from typing import Any


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv: Sequence[str]) -> int:
    specs, mcp, ids_file, *rest = argv
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from lgent.brains.semantic.brain import SemanticBrain
    from lgent.brains.semantic.embedder_choice import configured_embedder
    from lgent.catalog.loaders import read_path

    try:
        from lgent.brains.semantic.settings import SemanticSettings
    except ImportError:  # a checkout from before each brain declared its own settings
        from lgent.config import SemanticSettings  # type: ignore[attr-defined,no-redef]

    settings = SemanticSettings(entry_tokens=int(rest[0])) if rest else SemanticSettings()
    with open(ids_file, encoding="utf-8") as stream:
        wanted: list[str] = json.load(stream)
    found = {e.id: e for path in (specs, mcp) for e in read_path(path).entries}
    entries = [found[i] for i in wanted]
    embedder = configured_embedder(settings)
    warm = SemanticBrain(None, settings, embedder)
    warm.build(entries[:64], [], 1)  # load the model, warm it up
    for text in ("send a message to a channel", "list the pets of a store") * 5:
        embedder.embed_batch([text])
    print(json.dumps({"ready": len(entries), "lgent": sys.modules["lgent"].__file__}), flush=True)
    for line in sys.stdin:
        request: dict[str, Any] = json.loads(line)
        if request["op"] == "quit":
            break
        if request["op"] == "build":
            brain = SemanticBrain(None, settings, embedder)
            chunk = entries[request["start"] : request["stop"]]
            cpu, wall = cpu_seconds(), time.perf_counter()
            brain.build(chunk, [], 1)
            wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
            cut = brain.status().extra.get("texts_cut", 0)
            reply = {
                "seconds": wall,
                "cpu": cpu,
                "embedded": brain.counters.texts_embedded,
                "cut": cut,
            }
        elif request["op"] == "queries":
            latencies = []
            for text in request["texts"]:
                began = time.perf_counter_ns()
                embedder.embed_batch([text])
                latencies.append((time.perf_counter_ns() - began) / 1e6)
            reply = {"ms": latencies}
        else:
            reply = {"error": f"unknown op {request['op']!r}"}
        print(json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
