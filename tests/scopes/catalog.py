"""A catalog shared by two teams, each with artifacts the other must never see, built so that
the best answer to every graph question of the whole catalog passes through the other team's
artifacts: a scope that leaked would show it."""

from __future__ import annotations

from typing import Any

from lgent.models import CatalogEntry, TypeDecl
from lgent.scopes import hash_secret

TYPES = [TypeDecl(type=t) for t in ("RawHTML", "Document", "Summary", "Report")]


def _entry(artifact_id: str, takes: str, gives: str, **fields: Any) -> CatalogEntry:
    name = artifact_id.split("/")[-1]
    return CatalogEntry.parse(
        {
            "id": artifact_id,
            "name": name,
            "input_type": takes,
            "output_type": gives,
            "description": fields.pop("description", f"{name.replace('-', ' ')} for reports"),
            **fields,
        }
    )


ENTRIES = [
    _entry("team-a/html-to-doc", "RawHTML", "Document", keywords=["html", "parsing"]),
    _entry(
        "team-a/slow-summary",
        "Document",
        "Summary",
        success_rate=0.6,
        keywords=["summary"],
        description="summarise a document into a short summary, slowly",
    ),
    _entry("team-a/summary-report", "Summary", "Report", keywords=["report"]),
    _entry(
        "team-a/draft-summary",
        "RawHTML",
        "Summary",
        status="draft",
        keywords=["summary", "draft"],
        description="summarise raw HTML into a summary (not published yet)",
    ),
    _entry(
        "team-b/fast-summary",
        "Document",
        "Summary",
        success_rate=0.99,
        keywords=["summary"],
        description="summarise a document into a short summary, fast and well",
    ),
    _entry(
        "team-b/html-report",
        "RawHTML",
        "Report",
        success_rate=0.99,
        keywords=["report", "html"],
        description="turn raw HTML straight into a summary report",
    ),
    _entry(
        "team-b/report-reader",
        "Report",
        "Document",
        keywords=["report"],
        description="read a summary report back as a document",
    ),
]
TEAM_A = {e.id for e in ENTRIES if e.id.startswith("team-a/")}
TEAM_B = {e.id for e in ENTRIES if e.id.startswith("team-b/")}
PUBLISHED_A = TEAM_A - {"team-a/draft-summary"}

SECRETS = {"team-a": "a-secret-for-team-a", "team-b": "b-secret-for-team-b"}
ACCESS: dict[str, Any] = {
    "tokens": {
        "team-a": {
            "secret_sha256": hash_secret(SECRETS["team-a"]),
            "namespaces": ["team-a"],
            "write": ["team-a"],
        },
        "team-b": {
            "secret_sha256": hash_secret(SECRETS["team-b"]),
            "namespaces": ["team-b"],
        },
    }
}
"""The ``[access]`` section: team-a reads and writes its namespace (and so sees its drafts);
team-b only reads its own."""
