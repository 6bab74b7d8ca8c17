"""Artifact ids: what a valid one is, and the stable id a real-world name is normalised into.

A valid id starts with a letter or digit (of any script) and goes on with letters, digits and
``_ . : / + -``. A name that is not a valid id (``Ant Design Components``, ``天气 查询``) is
normalised: Unicode NFKC, every run of other characters (spaces, punctuation) becomes one ``-``,
leading and trailing separators are dropped. Letters keep their case and script, so a valid id is
its own normal form. An id still longer than the limit keeps its start and ends with a short hash
of the whole, so distinct long names stay distinct.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from lgent.limits import MAX_ID_LENGTH

ID_RE = re.compile(r"^[^\W_][\w.:/+\-]*$")
_OTHER = re.compile(r"[^\w.:/+\-]+")
_EDGES = re.compile(r"^[\W_]+|[^\w]+$")


def is_valid_id(text: str) -> bool:
    """True when ``text`` is a valid artifact id as it stands."""
    return ID_RE.match(text) is not None and len(text) <= MAX_ID_LENGTH


def normalise_id(text: str) -> str:
    """The stable id for ``text`` (itself when already valid); empty when nothing of it is left
    (a name of only punctuation)."""
    if is_valid_id(text):
        return text
    cleaned = _OTHER.sub("-", unicodedata.normalize("NFKC", text))
    cleaned = _EDGES.sub("", cleaned)
    if len(cleaned) > MAX_ID_LENGTH:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
        cleaned = cleaned[: MAX_ID_LENGTH - 11].rstrip("-") + "-" + digest
    return cleaned


def stable_id(artifact_id: str) -> str:
    """``artifact_id`` as the catalog stores it: itself if valid, else its normal form."""
    return normalise_id(artifact_id) or artifact_id


def namespace_of(artifact_id: str) -> str:
    """What ``artifact_id`` holds before its first ``/`` (``slack.com`` for ``slack.com/chat``);
    an id without one is its own namespace, so a server and its tools share one."""
    return artifact_id.split("/", 1)[0]


__all__ = ["ID_RE", "is_valid_id", "namespace_of", "normalise_id", "stable_id"]
