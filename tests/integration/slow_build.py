"""A child process for the build drills: opens a home with an embedder slow enough to be caught
mid-build, asks one query that needs the semantic brain, then (snapshot mode) keeps serving.

    python -m tests.integration.slow_build HOME wait|snapshot
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder, Vectors

BATCH_SECONDS = 0.1


class SlowEmbedder(HashingEmbedder):
    """The hashing embedder's vectors (same name, so the same cache keys), a tenth of a second
    per batch of entry texts; a single text (a query) is not slowed."""

    def __init__(self) -> None:
        super().__init__(64)

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        if len(texts) > 1:
            time.sleep(BATCH_SECONDS)
        return super().embed_batch(texts)


async def main(home: Path, freshness: str) -> None:
    async with LGent.open(home, embedder=SlowEmbedder(), freshness=freshness) as lg:
        print("open", flush=True)
        response = await lg.query("widget that converts text into summaries")
        print("answered", flush=True)
        for run in response.brains:  # what each brain did, for a test that did not expect this
            print(f"{run.brain}: ran={run.ran} {run.reason} {run.catching_up or ''}", flush=True)
        if freshness == "snapshot":
            await asyncio.sleep(3600)  # a server: the build goes on in the background


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2]))
