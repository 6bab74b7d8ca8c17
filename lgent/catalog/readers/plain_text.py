"""Descriptions as plain text: HTML made text, whitespace normalised.

Specs write their descriptions in HTML (``<p>``, ``<br/>``, ``&nbsp;``, links, AWS's
``<important>`` and ``<note>``), in Markdown, or in plain text, and plain text often holds
``<placeholders>`` (``gs://<bucket>/<path>``, ``Bearer <token>``) that an HTML parser would take
for tags and drop. So a text is read as HTML only when it holds markup: a tag whose name is an
HTML element or one of the documentation tags specs use, or a character reference. Every other
``<`` and ``&`` is escaped first, so placeholders survive the conversion. The conversion itself
is inscriptis (lists become ``*`` items, paragraphs and line breaks become lines, a table's cells
stay apart); then runs of spaces become one, lines are trimmed and at most one blank line is left
between paragraphs.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html.entities import html5
from typing import Any

HTML_ELEMENTS = frozenset(
    [
        "a",
        "abbr",
        "acronym",
        "address",
        "area",
        "article",
        "aside",
        "audio",
        "b",
        "base",
        "basefont",
        "bdi",
        "bdo",
        "big",
        "blink",
        "blockquote",
        "body",
        "br",
        "button",
        "canvas",
        "caption",
        "center",
        "cite",
        "code",
        "col",
        "colgroup",
        "data",
        "datalist",
        "dd",
        "del",
        "details",
        "dfn",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "em",
        "embed",
        "fieldset",
        "figcaption",
        "figure",
        "font",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hgroup",
        "hr",
        "html",
        "i",
        "iframe",
        "img",
        "input",
        "ins",
        "kbd",
        "label",
        "legend",
        "li",
        "link",
        "main",
        "map",
        "mark",
        "marquee",
        "menu",
        "meta",
        "meter",
        "nav",
        "nobr",
        "noframes",
        "noscript",
        "object",
        "ol",
        "optgroup",
        "option",
        "output",
        "p",
        "param",
        "picture",
        "pre",
        "progress",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "script",
        "search",
        "section",
        "select",
        "small",
        "source",
        "span",
        "strike",
        "strong",
        "style",
        "sub",
        "summary",
        "sup",
        "table",
        "tbody",
        "td",
        "template",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "time",
        "title",
        "tr",
        "track",
        "tt",
        "u",
        "ul",
        "var",
        "video",
        "wbr",
    ]
)
"""Element names of HTML (the living standard's, and the obsolete ones specs still use)."""
DOC_TAGS = frozenset({"note", "important", "para", "fullname", "caution", "remarks", "warning"})
"""Tags of documentation formats specs carry over (AWS's service docs, DocBook, .NET comments)."""
BLOCKS = ("note", "important", "para", "fullname", "caution", "remarks", "warning", "dt", "dd")
"""Tags shown as paragraphs of their own."""
MARKUP = HTML_ELEMENTS | DOC_TAGS
LAYOUT = (
    frozenset(
        [
            "p",
            "br",
            "div",
            "li",
            "ul",
            "ol",
            "table",
            "tr",
            "td",
            "th",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "pre",
            "dl",
            "dt",
            "dd",
            "blockquote",
            "hr",
            "section",
            "article",
        ]
    )
    | DOC_TAGS
)
"""Tags that lay a text out: a text holding one is HTML, whose line breaks are only spaces;
a text holding only inline tags (``<code>``, ``<a>``) or references is Markdown or plain text
whose line breaks are kept."""

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)(?=[\s/>])[^<>]*>")
_REFERENCE = re.compile(r"&(#[0-9]{1,7};|#[xX][0-9A-Fa-f]{1,6};|[A-Za-z][A-Za-z0-9]{0,31};)")
_ANGLE_OR_AMP = re.compile(r"<|&")
_INVISIBLE = re.compile(r"[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_LINE_BREAKS = re.compile(r"\r\n?|[\u2028\u2029\u0085]")
_ODD = re.compile(r"[\r\u2028\u2029\u0085\u200b\u200c\u200d\u2060\ufeff\u00ad]")


def _is_tag(match: re.Match[str]) -> bool:
    return match.group(2).lower() in MARKUP


def _is_reference(text: str) -> bool:
    """True for ``&name;`` of HTML's named references, or a numeric one (``&#40;``)."""
    return text.startswith("&#") or text[1:] in html5


def has_markup(text: str) -> bool:
    """True when ``text`` holds an HTML or documentation tag, or a character reference."""
    if "<" not in text and "&" not in text:
        return False
    if any(_is_tag(m) for m in _TAG.finditer(text)):
        return True
    return any(_is_reference(m.group()) for m in _REFERENCE.finditer(text))


def _escaped(text: str) -> str:
    """``text`` with every ``<`` that opens no markup tag and every ``&`` that starts no
    character reference escaped, so the HTML parser keeps them as text."""
    tags = {m.start(): m.end() for m in _TAG.finditer(text) if _is_tag(m)}
    parts: list[str] = []
    at = 0
    for match in _ANGLE_OR_AMP.finditer(text):
        start = match.start()
        if start < at:
            continue
        parts.append(text[at:start])
        if match.group() == "<":
            end = tags.get(start)
            if end is not None:
                parts.append(text[start:end])
                at = end
                continue
            parts.append("&lt;")
        else:
            reference = _REFERENCE.match(text, start)
            parts.append("&" if reference and _is_reference(reference.group()) else "&amp;")
        at = start + 1
    parts.append(text[at:])
    return "".join(parts)


@lru_cache(maxsize=1)
def _config() -> Any:
    from inscriptis.css_profiles import CSS_PROFILES
    from inscriptis.html_properties import Display
    from inscriptis.model.config import ParserConfig
    from inscriptis.model.html_element import HtmlElement

    css = dict(CSS_PROFILES["strict"])
    for tag in BLOCKS:
        css[tag] = HtmlElement(display=Display.block, margin_before=1, margin_after=1)
    return ParserConfig(css=css)


def _html_to_text(html: str) -> str:
    from inscriptis import get_text

    return str(get_text(html, _config()))


def normalise_whitespace(text: str) -> str:
    """Runs of spaces (any kind) within a line made one, a line's indentation kept (less what
    every line has), trailing spaces, invisible characters and blank lines at either end
    dropped, at most one blank line between paragraphs."""
    if _ODD.search(text):
        text = _INVISIBLE.sub("", _LINE_BREAKS.sub("\n", text))
    if "\n" not in text:
        return " ".join(text.split())
    lines: list[tuple[int, str]] = []  # (indentation, words), a blank line as (-1, "")
    for line in text.split("\n"):
        words = line.split()
        if not words:
            if lines and lines[-1][0] >= 0:
                lines.append((-1, ""))
            continue
        body = line.lstrip(" \t")
        lines.append((len(line[: len(line) - len(body)].replace("\t", "    ")), " ".join(words)))
    while lines and lines[-1][0] < 0:
        lines.pop()
    common = min((indent for indent, _ in lines if indent >= 0), default=0)
    return "\n".join(
        " " * (indent - common) + words if indent >= 0 else "" for indent, words in lines
    )


def _laid_out(text: str) -> bool:
    return any(m.group(2).lower() in LAYOUT for m in _TAG.finditer(text))


def html_to_text(text: str) -> str:
    """``text`` with its markup made text (``text`` itself when it holds none); whitespace
    as the conversion leaves it."""
    if not has_markup(text):
        return text
    text = _LINE_BREAKS.sub("\n", text)
    html = _escaped(text)
    if not _laid_out(text):
        html = html.replace("\n", "<br>\n")
    return _html_to_text(html)


def plain_text(text: str) -> str:
    """``text`` as plain text (see the module): HTML converted when it holds markup, and
    whitespace normalised in any case."""
    return normalise_whitespace(html_to_text(text))


__all__ = ["HTML_ELEMENTS", "has_markup", "html_to_text", "normalise_whitespace", "plain_text"]
