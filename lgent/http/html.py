"""The frame every server-rendered page shares (head, header, the search box) and the page a
browser gets for what does not exist: a real HTML 404, never the API's JSON."""

from __future__ import annotations

from html import escape

from fastapi.responses import HTMLResponse


def page(title: str, body: str, *, scripts: tuple[str, ...] = (), css_class: str = "") -> str:
    """A whole HTML document: ``title`` escaped, ``body`` HTML already, ``scripts`` paths under
    ``/static`` loaded at the end."""
    loaded = "".join(f'<script src="/static/{escape(s)}"></script>\n' for s in scripts)
    main = f'<main class="{escape(css_class)}">' if css_class else "<main>"
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} · L-gent</title>
<link rel="stylesheet" href="/static/style.css">
</head>
<body>
<header><a class="brand" href="/">L-gent</a>
<form action="/" method="get" class="mini"><input name="q" type="search"
 placeholder="Search the catalog" aria-label="Search the catalog"></form></header>
{main}
{body}
</main>
{loaded}</body>
</html>
"""


def not_found_page(message: str) -> str:
    body = (
        '<h1 id="not-found">Not found</h1>'
        f'<p class="description" id="not-found-reason">{escape(message)}</p>'
        '<p><a href="/">Search or browse the catalog</a></p>'
    )
    return page("Not found", body)


def not_found(message: str) -> HTMLResponse:
    """The HTML 404 page saying ``message``."""
    return HTMLResponse(not_found_page(message), status_code=404)


def wants_html(accept: str) -> bool:
    """Whether a request's ``Accept`` header asks for a page (a browser's navigation) rather
    than JSON."""
    return "text/html" in accept.lower()
