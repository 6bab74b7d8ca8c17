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
- **Scopes.** Each request is answered for one caller (``lgent.scopes``), put in the request's
  state (``CALLER``): the server's token reads and writes everything; a named token of
  ``[access.tokens]`` (sent as the bearer token, or, for the web page's reads, in the
  ``lgent_token`` cookie) gets its scope; an unknown token is a 401; a request without one gets
  ``[access] anonymous`` (every published artifact) when any token is configured, and the
  home's own user's scope on a server with no token at all (as before tokens had names).
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
from urllib.parse import unquote, urlsplit

from starlette.types import ASGIApp, Receive, Send
from starlette.types import Scope as Scope_

from lgent.config import LOOPBACK_NAMES, HttpSettings
from lgent.errors import SettingsError
from lgent.http.errors import error_response
from lgent.scopes import ANONYMOUS as ANONYMOUS_DEFAULT
from lgent.scopes import EVERY_STATUS, OWNER, Scope, Tokens

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CALLER = "lgent_scope"
"""The key of the request state that holds the caller's ``Scope``."""
COOKIE = "lgent_token"
"""The cookie the web page keeps a named token in (sent with its reads only)."""
SERVER = Scope(name="server", statuses=EVERY_STATUS, write=("*",))
"""The scope of the server's own token (``--token``): everything, as before tokens had names."""
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
    tokens: Tokens | None = None
    """The named tokens (``[access]``); None: the served home's (``build_http_app``)."""

    @property
    def any_token(self) -> bool:
        return self.token is not None or bool(self.tokens and self.tokens.tokens)

    def anonymous(self) -> Scope | None:
        """The scope of a request without a token (None: it needs one)."""
        if self.token_for_reads:
            return None
        if not self.any_token:
            return OWNER
        return ANONYMOUS_DEFAULT if self.tokens is None else self.tokens.anonymous

    def scope_of(self, secret: str) -> Scope | None:
        """The scope a token grants (None: no such token)."""
        if self.token is not None and hmac.compare_digest(
            secret.encode("utf-8"), self.token.encode("utf-8")
        ):
            return SERVER
        return None if self.tokens is None else self.tokens.find(secret)

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

    async def __call__(self, scope: Scope_, receive: Receive, send: Send) -> None:
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
        caller = self.caller(scope, headers)
        if caller is None:
            response = error_response(
                401,
                "Unauthorized",
                "this request needs a token the server knows: send the header "
                "'Authorization: Bearer <token>' (the server's, set with --token or "
                "LGENT_TOKEN, or a named one of [access.tokens] in lgent.toml)",
            )
            response.headers["WWW-Authenticate"] = 'Bearer realm="lgent"'
            await response(scope, receive, send)
            return
        scope.setdefault("state", {})[CALLER] = caller
        await self.app(scope, receive, send)

    def caller(self, scope: Scope_, headers: dict[str, str]) -> Scope | None:
        """Whom the request is answered for (None: it is refused with a 401)."""
        header = headers.get("authorization")
        if header is not None:
            scheme, _, given = header.partition(" ")
            if scheme.lower() != "bearer" or not given.strip():
                return None
            return self.security.scope_of(given.strip())
        if not self.is_write(scope):  # a cookie never writes: a write sends its token
            cookie = _cookie(headers.get("cookie", ""), COOKIE)
            if cookie:
                return self.security.scope_of(cookie)
        if self.security.any_token and self.needs_token(scope):
            return None
        return self.security.anonymous()

    def needs_token(self, scope: Scope_) -> bool:
        return self.security.token_for_reads or self.is_write(scope)

    @staticmethod
    def is_write(scope: Scope_) -> bool:
        """A request that changes the catalog (``POST`` or ``DELETE`` under ``/artifacts``)."""
        path = str(scope.get("path", ""))
        writes = path == "/artifacts" or path.startswith("/artifacts/")
        return writes and scope.get("method", "GET") not in READ_METHODS


def _cookie(header: str, name: str) -> str | None:
    """The value of cookie ``name`` in a ``Cookie`` header, if it is there."""
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return unquote(value.strip()) or None
    return None


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
    "CALLER",
    "COOKIE",
    "SERVER",
    "HttpSecurity",
    "RequestGuard",
    "check_token",
    "guarded_protocol",
    "host_of",
    "is_loopback",
]
