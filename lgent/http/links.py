"""Links to the web page's artifact pages, percent-encoded so that any id arrives whole.

An id may hold ``/``, ``.`` segments (``x/../y``) or ``+``; left as they are, a browser resolves
the dot segments before sending and a query string reads ``+`` as a space. Encoding the whole id
as one path segment (``/`` as ``%2F``) avoids both; the router decodes it back.
"""

from __future__ import annotations

from urllib.parse import quote


def artifact_href(artifact_id: str, version: str | None = None) -> str:
    """The URL path of an artifact's page (of ``version``, if given); HTML-escape it to use."""
    href = "/artifact/" + quote(artifact_id, safe="")
    return href if version is None else f"{href}?version={quote(version, safe='')}"
