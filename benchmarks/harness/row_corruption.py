"""Row corruption drills (issue 35): damage one row of the embedding cache or of the catalog, then
check that ``lgent doctor`` names it, that the next read of it says so, and that no answer is
served from it.

**Embedding cache.** A trial copies a home whose indexes are built, picks one row of
``indexes/semantic/embeddings.sqlite`` and damages its vector in place, one way per trial in
turn: every value overwritten with 1e10, 20 random bytes XORed, every sign flipped, one mantissa
bit flipped (the last two keep a vector of length 1, so no range check could see them). Then

* ``check_home``: detected when the semantic finding fails and names the damaged rows;
* the next read of the cache (a rebuild of the semantic index, which reads every vector):
  detected when the brain's status says vectors failed their checksum and were embedded again;
* a wrong answer is a probe ranking (ids, scores to 5 places) that differs from the intact
  home's after that rebuild.

**Catalog.** A trial damages the latest row of one artifact, one way per trial in turn: its JSON
edited in place through SQL (a description changed), its ``status`` column edited through SQL,
or letters of its JSON changed in ``catalog.db`` itself, byte for byte (a stray write that
still parses). Then

* ``check_home``: detected when the ``catalog rows`` finding fails and names the artifact;
* the next read: ``LGent.get`` of the artifact raises ``CatalogCorruptError`` naming it;
* each fused probe query is then judged (``judge``): the intact home's answer, refused (it
  met the damaged row: ``CatalogCorruptError``, nothing served), degraded (a brain whose build
  reads every row, the graph brain say, could not be built, and the answer says so), or wrong:
  a different answer that does not say why.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
import string
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.harness.corruption import PROBES, Ranking, rankings
from lgent import LGent
from lgent.brains.semantic.embedders import Embedder
from lgent.doctor import check_home
from lgent.errors import CatalogCorruptError

CACHE_DAMAGE = ("overwritten with 1e10", "20 bytes flipped", "signs flipped", "one mantissa bit")
ROW_DAMAGE = ("JSON edited (SQL)", "status edited (SQL)", "letters changed in the file")
QUERY_PROBES = (*PROBES, "PDFParser_v2", "what depends on PDFParser", "PDF -> Text")


@dataclass(frozen=True)
class RowTrial:
    kind: str
    how: str
    row: str
    doctor_named_it: bool
    read_reported_it: bool
    wrong_answers: int
    refused: int = 0
    """Probe queries that raised ``CatalogCorruptError`` (served nothing)."""
    degraded: int = 0
    """Probe queries answered without a brain that the damaged row kept from being built,
    saying so in their warnings."""


def damage_vector(blob: bytes, how: str, rng: random.Random) -> bytes:
    floats = np.frombuffer(blob, dtype=np.float32).copy()
    if how == CACHE_DAMAGE[0]:
        floats[:] = 1e10
        return floats.tobytes()
    if how == CACHE_DAMAGE[2]:
        return (-floats).tobytes()
    data = bytearray(blob)
    if how == CACHE_DAMAGE[3]:
        data[rng.randrange(0, len(data), 4)] ^= 1  # the lowest bit of one float's mantissa
        return bytes(data)
    for offset in rng.sample(range(len(data)), 20):
        data[offset] ^= rng.randrange(1, 256)
    return bytes(data)


def run_cache_trial(
    base: Path,
    work: Path,
    n: int,
    reference: dict[str, Ranking],
    rng: random.Random,
    embedder: Embedder | None,
) -> RowTrial:
    how = CACHE_DAMAGE[n % len(CACHE_DAMAGE)]
    home = _copy(base, work)
    db = sqlite3.connect(home / "indexes" / "semantic" / "embeddings.sqlite")
    keys = [k for (k,) in db.execute("SELECT key FROM embeddings ORDER BY key")]
    key = rng.choice(keys)
    (blob,) = db.execute("SELECT vector FROM embeddings WHERE key = ?", (key,)).fetchone()
    db.execute(
        "UPDATE embeddings SET vector = ? WHERE key = ?",
        (damage_vector(bytes(blob), how, rng), key),
    )
    db.commit()
    db.close()
    finding = next(f for f in check_home(home) if f.name == "semantic index")
    named = finding.level == "fail" and key[:12] in finding.message

    async def reread() -> tuple[dict[str, Ranking], str]:
        async with LGent.open(home, embedder=embedder) as lg:
            await lg.reindex(["semantic"])
            note = str(lg.brain_status("semantic").extra.get("cache", ""))
        got, _ = await rankings(home, "semantic", embedder)
        return got, note

    got, note = asyncio.run(reread())
    reported = "failed their checksum" in note
    wrong = sum(got[p] != reference[p] for p in PROBES)
    return RowTrial("embedding cache row", how, key[:12], named, reported, wrong)


Answer = tuple[list[str], str] | None
"""A query probe's result ids and its warnings joined, or None when it was refused."""


async def query_answers(home: Path, embedder: Embedder | None) -> dict[str, Answer]:
    """Each query probe's answer (None when it was refused: a damaged row met)."""
    found: dict[str, Answer] = {}
    async with LGent.open(home, embedder=embedder) as lg:
        for probe in QUERY_PROBES:
            try:
                response = await lg.query(probe, limit=10)
                found[probe] = ([r.id for r in response.results], " ".join(response.warnings))
            except CatalogCorruptError:
                found[probe] = None
    return found


def judge(got: Answer, reference: Answer) -> str:
    """``same`` as the intact home's answer, ``refused`` (an error), ``degraded`` (it differs,
    and its warnings say a brain was left out because a row failed its checksum: a brain whose
    build reads every row cannot be built while one is damaged), else ``wrong``."""
    if got is None:
        return "refused"
    if reference is not None and got[0] == reference[0]:
        return "same"
    return "degraded" if "checksum" in got[1] else "wrong"


def run_catalog_trial(
    base: Path,
    work: Path,
    n: int,
    reference: dict[str, Answer],
    rng: random.Random,
    embedder: Embedder | None,
) -> RowTrial:
    how = ROW_DAMAGE[n % len(ROW_DAMAGE)]
    home = _copy(base, work)
    path = home / "catalog.db"
    db = sqlite3.connect(path)
    rows = db.execute(
        "SELECT id, version, data, status FROM entries WHERE is_latest = 1 ORDER BY id"
    ).fetchall()
    artifact_id, version, data, status = rng.choice(rows)
    if how == ROW_DAMAGE[0]:
        words = [w for w in data.split('"') if len(w) > 3 and w.isalpha()]
        word = rng.choice(words) if words else "name"
        db.execute(
            "UPDATE entries SET data = replace(data, ?, ?) WHERE id = ? AND version = ?",
            (word, word[::-1] + "x", artifact_id, version),
        )
    elif how == ROW_DAMAGE[1]:
        other = "retired" if status != "retired" else "active"
        db.execute(
            "UPDATE entries SET status = ? WHERE id = ? AND version = ?",
            (other, artifact_id, version),
        )
    db.commit()
    db.close()
    if how == ROW_DAMAGE[2]:
        _change_letters(path, (artifact_id, version), str(data).encode(), rng)
    finding = next((f for f in check_home(home) if f.name == "catalog rows"), None)
    named = finding is not None and finding.level == "fail" and repr(artifact_id) in finding.message

    async def read() -> bool:
        async with LGent.open(home, embedder=embedder) as lg:
            try:
                await lg.get(artifact_id)
            except CatalogCorruptError as err:
                return repr(artifact_id) in str(err)
        return False

    reported = asyncio.run(read())
    got = asyncio.run(query_answers(home, embedder))
    verdicts = [judge(got[p], reference[p]) for p in QUERY_PROBES]
    return RowTrial(
        "catalog row",
        how,
        f"{artifact_id}@{version}",
        named,
        reported,
        verdicts.count("wrong"),
        verdicts.count("refused"),
        verdicts.count("degraded"),
    )


def _change_letters(
    path: Path, key: tuple[str, str], data: bytes, rng: random.Random, count: int = 3
) -> None:
    """Change ``count`` ASCII letters of the stored text ``data`` of row ``key`` (id, version)
    in the file itself, in place: at the copy SQLite reads (a page on the free list may hold an
    older copy of the same text)."""
    original = path.read_bytes()
    start = 0
    while (at := original.find(data, start)) >= 0:
        start = at + 1
        content = bytearray(original)
        letters = [i for i in range(at, at + len(data)) if chr(content[i]).isalpha()]
        for offset in rng.sample(letters, min(count, len(letters))):
            old = chr(content[offset])
            content[offset] = ord(rng.choice([c for c in string.ascii_lowercase if c != old]))
        path.write_bytes(bytes(content))
        db = sqlite3.connect(path)
        try:
            (now,) = db.execute(
                "SELECT data FROM entries WHERE id = ? AND version = ?", key
            ).fetchone()
        finally:
            db.close()
        if str(now).encode() != data:
            return
        path.write_bytes(original)
    raise RuntimeError(f"the row {key} was not found whole in {path}")


def _copy(base: Path, work: Path) -> Path:
    shutil.rmtree(work, ignore_errors=True)
    home = work / "home"
    shutil.copytree(base, home)
    return home
