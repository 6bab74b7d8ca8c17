"""What an imported artifact's metadata may say, from its source and nothing else: where it runs
(``execution``, from how it is reached), who provides it (``author``) and its version (the
source's, or ``UNVERSIONED``: never a made-up number that would sort against real ones).

- **Execution**: a server started as a local command (MCP stdio) runs ``local``; one reached at
  a URL runs ``cloud``, unless the URL is the machine's own (``localhost``, a loopback
  address), which is ``local``; both kinds of launch: ``hybrid``; nothing said: no execution.
- **Provider**: the organisation that offers the API, not the person to write to: an API
  directory's provider name, else the host of the API's base URL, else the host of its contact
  URL.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from lgent.versions import UNVERSIONED

_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def versioned(version: object) -> dict[str, str]:
    """``{"version": ...}`` as the source wrote it, or ``UNVERSIONED`` when it wrote none."""
    if isinstance(version, int | float) and not isinstance(version, bool):
        return {"version": str(version)}
    if isinstance(version, str) and version.strip():
        return {"version": version.strip()}
    return {"version": UNVERSIONED}


def host_of(url: object) -> str | None:
    """The host name of ``url`` (lower case), or None when it has none."""
    if not isinstance(url, str) or not url.strip():
        return None
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    return host.lower() if host else None


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine."""
    if host in _LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def execution_of_url(url: object) -> dict[str, str]:
    """``{"execution": ...}`` of something reached at ``url`` (empty when there is no URL)."""
    host = host_of(url)
    if host is None:
        return {}
    return {"execution": "local" if is_loopback(host) else "cloud"}


def execution_of_launches(launches: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """``{"execution": ...}`` of an MCP server from its launch configurations."""
    found: set[str] = set()
    for launch in launches:
        if launch.get("command"):
            found.add("local")
        elif launch.get("url"):
            found.update(execution_of_url(launch["url"]).values())
    if not found:
        return {}
    return {"execution": found.pop() if len(found) == 1 else "hybrid"}


def provider_of(info: Mapping[str, Any], base: str | None) -> dict[str, str]:
    """``{"author": ...}``: who provides an API described by an OpenAPI ``info`` object, reached
    at ``base`` (empty when nothing says)."""
    named = info.get("x-providerName")
    if isinstance(named, str) and named.strip():
        return {"author": named.strip()[:300]}
    contact = info.get("contact")
    for url in (base, contact.get("url") if isinstance(contact, Mapping) else None):
        host = host_of(url)
        if host is not None and not is_loopback(host):
            return {"author": host.removeprefix("www.")[:300]}
    return {}
