"""Requests are bounded before any model validates them (issue 35, item 6), and the smaller HTTP
items of item 9: a malformed Origin, a token a client cannot send, the status of an unreachable
database and of a full disk."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest

from lgent import LGent
from lgent.errors import CatalogUnreachableError, DiskFullError, SettingsError
from lgent.http.app import build_http_app
from lgent.http.errors import MAX_BODY_VALUES, MAX_DETAILS, body_shape_problem, status_of
from lgent.http.guard import HttpSecurity


@asynccontextmanager
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with LGent.open(None) as lg:
        transport = httpx.ASGITransport(app=build_http_app(lg))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            yield http


def many_keys(count: int) -> bytes:
    body = {"query": "pdf", **{f"k{i:05d}": 0 for i in range(count)}}
    return json.dumps(body).encode()


async def test_a_body_of_70k_unknown_keys_is_refused_before_validation() -> None:
    body = many_keys(70_000)
    assert 800_000 < len(body) < 1_000_000  # under the byte limit
    async with client() as http:
        answer = await http.post(
            "/query", content=body, headers={"Content-Type": "application/json"}
        )
    assert answer.status_code == 413, answer.text[:300]
    assert len(answer.content) < 1_000
    assert f"more than {MAX_BODY_VALUES} values" in answer.json()["error"]["message"]


async def test_a_422_lists_a_bounded_number_of_problems() -> None:
    async with client() as http:
        answer = await http.post(
            "/query", content=many_keys(1_000), headers={"Content-Type": "application/json"}
        )
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert len(error["details"]) == MAX_DETAILS
    assert error["message"].endswith(f"(and {1_000 - MAX_DETAILS} more problems)")
    assert len(answer.content) < 10_000


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"query": ' + b'{"a": ' * 40 + b"1" + b"}" * 40 + b"}",
        b'{"query": "pdf", "limit": ' + b"9" * 5_000 + b"}",
    ],
    ids=["100k deep", "40 deep", "5,000-digit integer"],
)
async def test_odd_bodies_get_typed_4xx_answers(body: bytes) -> None:
    async with client() as http:
        answer = await http.post(
            "/query", content=body, headers={"Content-Type": "application/json"}
        )
    assert 400 <= answer.status_code < 500, answer.text[:300]
    assert answer.json()["error"]["type"] in ("TooLarge", "MalformedJSON", "InvalidRequest")


async def test_health_answers_while_big_bodies_are_checked() -> None:
    async with client() as http:
        bad = [
            http.post(
                "/query", content=many_keys(70_000), headers={"Content-Type": "application/json"}
            )
            for _ in range(6)
        ]
        answers = await asyncio.gather(*bad, http.get("/health"))
    assert [a.status_code for a in answers] == [413] * 6 + [200]


def test_body_shape() -> None:
    assert body_shape_problem(b'{"a": [1, 2, {"b": null}]}') is None
    assert body_shape_problem(b"not json") is None  # the handler says what is wrong
    assert "nested deeper" in str(body_shape_problem(b"[" * 40 + b"]" * 40))


async def test_a_malformed_origin_is_refused_not_a_crash() -> None:
    async with client() as http:
        for origin in ("http://[bad", "http://[::1", "https://[bad]x"):
            answer = await http.get("/health", headers={"Origin": origin})
            assert answer.status_code == 403, answer.text
            assert answer.json()["error"]["type"] == "OriginNotAllowed"


def test_a_token_a_client_cannot_send_is_refused_at_start() -> None:
    for token in ("pässwörd-0123456789", "two words 0123456789", "tab\tin-0123456789"):
        with pytest.raises(SettingsError, match="cannot send in an Authorization header"):
            HttpSecurity(token=token)
    HttpSecurity(token="s3cret-token_0123456789~+/==")


def test_an_unreachable_database_is_503_and_a_full_disk_507() -> None:
    assert status_of(CatalogUnreachableError("cannot reach the catalog at x")) == 503
    assert status_of(DiskFullError("the disk is full")) == 507
