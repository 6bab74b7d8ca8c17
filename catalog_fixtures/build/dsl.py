"""Tiny helpers for writing catalog entries by hand in compact form.

Every description, keyword list and number in build/data/*.py is written by hand; these helpers
only expand the compact notation into the catalog's JSON fields.
"""

from __future__ import annotations

REL_CODES = {
    "succ": "successor_to",
    "dep": "depends_on",
    "forge": "forged_by",
    "impl": "implements",
    "sim": "similar_to",
}


def _health(text: str) -> dict:
    """'0.95 38750 2026-11-20T09:14 340 local' -> success_rate, usage_count, last_used, latency_ms, execution.

    '-' leaves a field out.
    """
    parts = text.split()
    if len(parts) != 5:
        raise ValueError(f"health needs 5 fields: {text!r}")
    sr, uses, last, lat, ex = parts
    out: dict = {}
    if sr != "-":
        out["success_rate"] = float(sr)
    if uses != "-":
        out["usage_count"] = int(uses)
    if last != "-":
        out["last_used"] = last + ":00Z" if len(last) == 16 else last
    if lat != "-":
        out["latency_ms"] = float(lat) if "." in lat else int(lat)
    if ex != "-":
        out["execution"] = ex
    return out


def _relations(text: str) -> list[dict]:
    rels = []
    for item in text.split():
        code, _, targets = item.partition(":")
        for target in targets.split(","):
            rels.append({"type": REL_CODES[code], "target": target})
    return rels


def E(
    id: str | tuple[str, str],
    kind: str,
    version: str,
    status: str,
    io: str,
    description: str,
    keywords: str,
    author: str,
    contracts: str,
    health: str,
    rel: str = "",
    *,
    name: str | None = None,
    fmt: str = "jsonl",
    file: str | None = None,
    body: str | None = None,
) -> dict:
    """One catalog entry. io is 'In -> Out' (either side may be '-'), keywords comma-separated.

    ``id`` may be ``(id, human name)`` when the display name differs from the id.
    """
    if isinstance(id, tuple):
        id, name = id
    rec: dict = {"id": id, "name": name or id, "entity_type": kind, "version": version, "status": status}
    rec["description"] = " ".join(description.split())
    rec["keywords"] = [k.strip() for k in keywords.split(",") if k.strip()]
    if author:
        rec["author"] = author
    if io:
        src, _, dst = (s.strip() for s in io.partition("->"))
        if src and src != "-":
            rec["input_type"] = src
        if dst and dst != "-":
            rec["output_type"] = dst
    if contracts:
        rec["contracts"] = [c.strip() for c in contracts.split(",")]
    rec.update(_health(health))
    if rel:
        rec["relations"] = _relations(rel)
    return {"record": rec, "fmt": fmt, "file": file, "body": body}
