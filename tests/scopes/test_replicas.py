"""On a shared PostgreSQL catalog every replica applies the same rule: two replicas, each in its
own home with the same tokens, answer a token's questions alike, and the writer a replica
recorded is the writer every replica's change log names."""

from __future__ import annotations

from pathlib import Path

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.catalog.replica import ReplicaCatalog
from tests.scopes.catalog import ACCESS, ENTRIES, SECRETS, TEAM_A, TEAM_B, TYPES
from tests.scopes.test_scope_matrix import toml_of


async def test_every_replica_applies_the_same_rule(pg_catalog_url: str, tmp_path: Path) -> None:
    homes = [tmp_path / "one", tmp_path / "two"]
    for home in homes:
        home.mkdir()
        (home / "lgent.toml").write_text(toml_of(ACCESS), encoding="utf-8")
    opened = [
        LGent.open(home, catalog=pg_catalog_url, embedder=HashingEmbedder()) for home in homes
    ]
    async with opened[0] as one, opened[1] as two:
        await one.register_many(ENTRIES, TYPES)
        writer = one.scoped(one.settings.access.parsed().find(SECRETS["team-a"]))  # type: ignore[arg-type]
        await writer.register({"id": "team-a/shared", "name": "shared", "status": "draft"})
        for lg in (one, two):
            assert isinstance(lg.store, ReplicaCatalog)
            lg.store.pull()
        answers = []
        for lg in (one, two):
            tokens = lg.settings.access.parsed()
            a = lg.scoped(tokens.find(SECRETS["team-a"]))  # type: ignore[arg-type]
            b = lg.scoped(tokens.find(SECRETS["team-b"]))  # type: ignore[arg-type]
            seen_a = {e.id for e in await a.list_entries()}
            seen_b = {e.id for e in await b.list_entries()}
            assert seen_a == TEAM_A | {"team-a/shared"} and seen_b == TEAM_B
            paths = [p.ids for p in await a.find_paths("RawHTML", "Report", k=5)]
            facets = await b.facets(names=["status", "tag"])
            history = [(c.status, c.writer) for c in await lg.history("team-a/shared")]
            assert history == [("draft", "team-a")]
            answers.append((seen_a, seen_b, paths, facets, history))
        assert answers[0] == answers[1]
