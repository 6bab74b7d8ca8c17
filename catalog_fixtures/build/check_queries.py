"""Check that semantic_intent queries share no content word with their grade-3 targets.

    .venv/bin/python catalog_fixtures/build/check_queries.py

For every semantic_intent query and every artifact graded 3 for it, the query's words are
compared with the words of the artifact's id, name, keywords and description (every stored
version). Words are split on non-alphanumerics and on case changes, lowercased, stop words
dropped, and compared by a crude stem (the first 5 letters). Any shared stem is a violation:
the query would be findable by plain word overlap, which is not what this class measures.
Exit code 1 when violations remain.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))

from catalog_io import load, load_queries  # noqa: E402

STOP_WORDS = set("""
a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing
don't down during each either else ever every few for from further get gets got had hadn't has
hasn't have haven't having he her here hers herself him himself his how i if in into is isn't it
it's its itself just let like me more most much must my myself need needs no nor not now of off on
once one only or other our ours ourselves out over own per please same shall she should so some
something such than that the their theirs them themselves then there these they this those
through thing things to too under until up upon us very want wants was wasn't way we were what
when where whether which while who whom why will with within without would you your yours
yourself yourselves i'd i'm i've we'd we're we've you'd you're ve ll re d s t m
""".split())



def words(text: str) -> list[str]:
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", text)
    text = re.sub(r"([A-Za-z])([0-9])", r"\1 \2", text)
    out = []
    for w in re.split(r"[^A-Za-z0-9]+", text):
        w = w.lower()
        if w and w not in STOP_WORDS and not w.isdigit():
            out.append(w)
    return out


def stem(word: str) -> str:
    return word[:5]


def artifact_stems(records: list[dict]) -> dict[str, str]:
    """stem -> an example word it came from."""
    out: dict[str, str] = {}
    for rec in records:
        parts = [rec["id"], rec.get("name", ""), rec.get("description", ""), *rec.get("keywords", [])]
        for p in parts:
            for w in words(p):
                out.setdefault(stem(w), w)
    return out


def main() -> int:
    loaded = load()
    versions: dict[str, list[dict]] = {}
    for rec, _ in loaded.entries:
        versions.setdefault(rec["id"], []).append(rec)
    violations = 0
    checked = 0
    for q in load_queries():
        if q.get("class") != "semantic_intent":
            continue
        q_stems = {stem(w): w for w in words(q["query"])}
        for rid, grade in q["relevant"].items():
            if grade != 3:
                continue
            checked += 1
            a_stems = artifact_stems(versions.get(rid, []))
            shared = sorted(set(q_stems) & set(a_stems))
            if shared:
                violations += 1
                pairs = ", ".join(f"{q_stems[s]!r}~{a_stems[s]!r}" for s in shared)
                print(f"{q['qid']}: {rid}: shared {pairs}")
    print(f"checked {checked} (query, grade-3 target) pairs: {violations} violation(s)")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
