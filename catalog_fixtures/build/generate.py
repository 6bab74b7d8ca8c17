"""Write the example catalog from the hand-written data in build/data/.

    python catalog_fixtures/build/generate.py

Deterministic: the same data always gives byte-identical files. Writes types.jsonl,
artifacts/<domain>.jsonl, manifests/*.yaml|json, cards/*.md and queries/labeled_queries.jsonl
(from build/queries.py), replacing what was there.
"""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path

import yaml

sys.dont_write_bytecode = True

BUILD = Path(__file__).resolve().parent
ROOT = BUILD.parent
sys.path.insert(0, str(BUILD))

from data import DOMAINS  # noqa: E402
from data.types import TYPES  # noqa: E402


def _dump_json(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _yaml(obj) -> str:
    return yaml.safe_dump(obj, sort_keys=False, allow_unicode=True, width=100)


def write_types() -> None:
    lines = []
    for item in TYPES:
        name, parents, desc, *rest = item
        rec = {"type": name}
        if rest:
            rec["params"] = rest[0]
        rec["subtype_of"] = list(parents)
        rec["description"] = desc
        lines.append(_dump_json(rec))
    (ROOT / "types.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_entries() -> None:
    for sub in ("artifacts", "manifests", "cards"):
        shutil.rmtree(ROOT / sub, ignore_errors=True)
        (ROOT / sub).mkdir()
    grouped: dict[str, list] = {}
    for domain in DOMAINS:
        module = importlib.import_module(f"data.{domain}")
        jsonl = []
        for item in module.ENTRIES:
            if item["fmt"] == "jsonl":
                jsonl.append(_dump_json(item["record"]))
            else:
                grouped.setdefault(item["file"], []).append(item)
        (ROOT / "artifacts" / f"{domain}.jsonl").write_text("\n".join(jsonl) + "\n", encoding="utf-8")
    for rel, items in sorted(grouped.items()):
        path = ROOT / rel
        fmt = items[0]["fmt"]
        records = [i["record"] for i in items]
        if fmt == "yaml":
            path.write_text(_yaml(records if len(records) > 1 else records[0]), encoding="utf-8")
        elif fmt == "json":
            assert len(records) == 1, rel
            path.write_text(json.dumps(records[0], indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        elif fmt == "card":
            assert len(records) == 1, rel
            rec = records[0]
            body = items[0]["body"].strip("\n")
            text = f"---\n{_yaml(rec)}---\n\n# {rec['name']}\n\n{rec['description']}\n\n{body}\n"
            path.write_text(text, encoding="utf-8")
        else:
            raise ValueError(f"unknown format {fmt!r} for {rel}")


def write_queries() -> None:
    from queries import QUERIES

    out = ROOT / "queries"
    out.mkdir(exist_ok=True)
    lines = [_dump_json(q) for q in QUERIES]
    (out / "labeled_queries.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    write_types()
    write_entries()
    if (BUILD / "queries.py").exists():
        write_queries()
    print(f"wrote catalog under {ROOT}")


if __name__ == "__main__":
    main()
