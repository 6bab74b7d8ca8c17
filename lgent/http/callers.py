"""Whom a request is answered for: the open home as the caller's scope sees it.

``RequestGuard`` (``lgent.http.guard``) decides the caller's ``Scope`` from its token and puts
it in the request's state; every route takes ``me: Caller``, the served ``LGent`` scoped to it
(``LGent.scoped``), and asks only that. A request that somehow reached a route without the
guard is answered as an anonymous reader, never as the owner."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from lgent.http.guard import CALLER
from lgent.lgent import LGent
from lgent.scopes import ANONYMOUS, Scope


def caller(request: Request) -> LGent:
    """The served home as the request's caller sees it."""
    home: LGent = request.app.state.lgent
    scope = getattr(request.state, CALLER, None)
    return home.scoped(scope if isinstance(scope, Scope) else ANONYMOUS)


Caller = Annotated[LGent, Depends(caller)]

__all__ = ["Caller", "caller"]
