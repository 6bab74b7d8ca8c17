"""What stands between the network and the API: the Host and Origin allow-list, the bearer
token, and the time a client may take to send its request.

- **Host and Origin.** A request whose ``Host`` header names a host that is not allowed gets a
  400, and one whose ``Origin`` (sent by browsers) names such a host a 403, before anything else
  runs: a page on another site that resolves its own name to 127.0.0.1 (DNS rebinding) can then
  neither read nor write. Allowed by default: the loopback names, and the address the server
  binds when it is a specific one.
- **Token.** With a token set (``--token`` or ``LGENT_TOKEN``), a write (``POST`` or ``DELETE``
  under ``/artifacts``) without ``Authorization: Bearer <token>`` gets a 401; so does any request
  when ``http.token_for_reads`` is set.
- **Slow clients.** ``guarded_protocol`` is uvicorn's HTTP/1.1 protocol with two deadlines: a
  connection that has not sent a whole request head within ``header_timeout`` seconds of opening
  (or of its previous response), or whose body is not complete ``body_timeout`` seconds after its
  head, is closed. Uvicorn itself only times out idle keep-alive connections.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from lgent.config import LOOPBACK_NAMES, HttpSettings
from lgent.errors import SettingsError
from lgent.http.errors import error_response

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
TOKEN_TEXT = re.compile(r"[A-Za-z0-9._~+/-]+=*")
"""What a bearer token may be made of (RFC 6750's ``b64token``): what a client can send in an
``Authorization`` header. A token outside it (a letter with an accent, a space) could be set
but never sent, so it is refused when the server starts."""


def check_token(token: str) -> None:
    """SettingsError unless ``token`` can be sent as a bearer token (``TOKEN_TEXT``)."""
    if not TOKEN_TEXT.fullmatch(token):
        bad = next((c for c in token if not TOKEN_TEXT.fullmatch(c)), "=")
        raise SettingsError(
            f"the token holds {bad!r}, which a client cannot send in an Authorization header: "
            "use letters A-Z and a-z, digits and - . _ ~ + / (a random token: "
            "python -c 'import secrets; print(secrets.token_urlsafe(24))')"
        )


WILDCARD_BINDS = frozenset({"0.0.0.0", "::", ""})


@dataclass(frozen=True, slots=True)
class HttpSecurity:
    """How the server guards itself (see the module docstring)."""

    token: str | None = None
    token_for_reads: bool = False
    allowed_hosts: tuple[str, ...] = LOOPBACK_NAMES
    header_timeout: float = 10.0
    body_timeout: float = 30.0

    def __post_init__(self) -> None:
        if self.token is not None:
            check_token(self.token)

    @classmethod
    def from_settings(
        cls,
        settings: HttpSettings,
        *,
        token: str | None = None,
        bind: str | None = None,
        extra_hosts: tuple[str, ...] = (),
    ) -> HttpSecurity:
        """The settings of ``[http]``, the token, and the hosts to allow besides: ``extra_hosts``
        and the bound address when it names one host (not ``0.0.0.0``)."""
        hosts = [*settings.allowed_hosts, *(h.strip().lower() for h in extra_hosts)]
        if bind is not None and bind not in WILDCARD_BINDS:
            hosts.append(bind.strip("[]").lower())
        return cls(
            token=token,
            token_for_reads=settings.token_for_reads,
            allowed_hosts=tuple(dict.fromkeys(hosts)),
            header_timeout=settings.header_timeout_seconds,
            body_timeout=settings.body_timeout_seconds,
        )


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_of(value: str) -> str:
    """The host name of a ``Host`` header value (no port; an IPv6 address without brackets)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class RequestGuard:
    """ASGI middleware: Host and Origin allow-list, then the bearer token."""

    def __init__(self, app: ASGIApp, security: HttpSecurity) -> None:
        self.app = app
        self.security = security
        self.any_host = "*" in security.allowed_hosts

    def allowed(self, host: str) -> bool:
        return self.any_host or host in self.security.allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = host_of(headers.get("host", ""))
        if not self.allowed(host):
            response = error_response(
                400,
                "HostNotAllowed",
                f"Host {host or '(none)'!r} is not served here; allowed: "
                f"{', '.join(self.security.allowed_hosts)} (http.allowed_hosts in lgent.toml, "
                "or lgent serve --allow-host)",
            )
            await response(scope, receive, send)
            return
        origin = headers.get("origin")
        if origin is not None:
            try:
                origin_host = (urlsplit(origin).hostname or "") if origin != "null" else ""
            except ValueError:  # not a URL (``http://[bad``): refused like a foreign origin
                origin_host = None
            if origin_host is None or not self.allowed(origin_host):
                response = error_response(
                    403,
                    "OriginNotAllowed",
                    f"requests from pages at {origin!r} are refused; allowed hosts: "
                    f"{', '.join(self.security.allowed_hosts)}",
                )
                await response(scope, receive, send)
                return
        if (
            self.security.token is not None
            and self.needs_token(scope)
            and not self.authorised(headers.get("authorization", ""))
        ):
            response = error_response(
                401,
                "Unauthorized",
                "this request needs the server's token: send the header "
                "'Authorization: Bearer <token>' (set with --token or LGENT_TOKEN)",
            )
            response.headers["WWW-Authenticate"] = 'Bearer realm="lgent"'
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def needs_token(self, scope: Scope) -> bool:
        if self.security.token_for_reads:
            return True
        path = str(scope.get("path", ""))
        writes = path == "/artifacts" or path.startswith("/artifacts/")
        return writes and scope.get("method", "GET") not in READ_METHODS

    def authorised(self, header: str) -> bool:
        scheme, _, given = header.partition(" ")
        token = self.security.token
        assert token is not None
        return scheme.lower() == "bearer" and hmac.compare_digest(
            given.strip().encode("utf-8"), token.encode("utf-8")
        )


def guarded_protocol(header_timeout: float, body_timeout: float) -> type[asyncio.Protocol]:
    """Uvicorn's h11 protocol, closing connections that send their request too slowly."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _body_deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm_head()

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is h11.SEND_BODY and self._body_deadline is None:
                self._body_deadline = self.loop.call_later(body_timeout, self._late, h11.SEND_BODY)

        def _arm_head(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(header_timeout, self._late, h11.IDLE)

        def _disarm(self) -> None:
            for handle in (self._deadline, self._body_deadline):
                if handle is not None:
                    handle.cancel()
            self._deadline = self._body_deadline = None

        def _late(self, state: Any) -> None:
            if state is h11.SEND_BODY:
                self._body_deadline = None
            if self.conn.their_state is state and not self.transport.is_closing():
                self.logger.warning(
                    "closed a connection that sent its request too slowly (%s)",
                    "head" if state is h11.IDLE else "body",
                )
                self.transport.close()

    return GuardedH11Protocol


__all__ = [
    "HttpSecurity",
    "RequestGuard",
    "check_token",
    "guarded_protocol",
    "host_of",
    "is_loopback",
]
