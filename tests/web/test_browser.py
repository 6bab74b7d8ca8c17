"""The web page in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``, driven
with selenium): browse by facet without typing; type a query, see results as you type, filter
by a facet, open an artifact and see its graph laid out with no box or label overlapping another
and no edge crossing a box; open an MCP server's page and page through all of its tools; open a
type's page; and the API documentation page renders from this server alone.

Skipped only when Chromium or its driver is not installed, unless ``LGENT_REQUIRE_BROWSER`` is set
(CI sets it, and installs both): then their absence fails the test. ``LGENT_SCREENSHOTS=DIR``
saves the screenshots there (docs/ keeps the ones shown in docs/web.md).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx
import pytest

from tests.serving_cases import http_server

pytestmark = pytest.mark.real_model

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,1000",
)
QUERY = "summarise PDF reports"
WAIT = 30


def _browser_or_skip() -> tuple[str, str]:
    if CHROMIUM and DRIVER:
        return CHROMIUM, DRIVER
    missing = " and ".join(
        name for name, path in (("chromium", CHROMIUM), ("chromedriver", DRIVER)) if not path
    )
    reason = f"{missing} not installed (apt-get install chromium chromium-driver)"
    if os.environ.get("LGENT_REQUIRE_BROWSER"):
        pytest.fail(f"LGENT_REQUIRE_BROWSER is set but {reason}")
    print(f"skipping the browser test: {reason}")
    pytest.skip(reason)


SERVER_TOOLS = Path(__file__).resolve().parents[3] / "shared" / "ecosystem" / "mcp-tools-list"
if not SERVER_TOOLS.is_dir():  # a worktree beside main: /work/wt/<name> -> /work/shared
    SERVER_TOOLS = Path(__file__).resolve().parents[4] / "shared" / "ecosystem" / "mcp-tools-list"
SERVER = "playwright"
"""An MCP server of the shared ecosystem with more tools than one page of its page lists."""


@pytest.fixture(scope="module")
def web_home(
    example_home: Path, real_embedder: Any, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The example home with a real MCP server's tools list loaded too (read in place)."""
    from lgent import LGent

    source = SERVER_TOOLS / f"{SERVER}.json"
    if not source.is_file():
        pytest.skip(f"shared ecosystem data not found at {source}")
    home = tmp_path_factory.mktemp("web") / "home"
    shutil.copytree(example_home, home)

    async def load() -> None:
        async with LGent.open(home, embedder=real_embedder) as lg:
            await lg.load(source)
            await lg.catch_up()

    asyncio.run(load())
    return home


@pytest.fixture(scope="module")
def base_url(web_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("web") / "server.log"
    with http_server(web_home, log) as url:
        yield url


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    chromium, driver = _browser_or_skip()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    service = Service(executable_path=driver, log_output=str(tmp_path / "chromedriver.log"))
    session = webdriver.Chrome(options=options, service=service)
    session.set_page_load_timeout(WAIT)
    try:
        yield session
    finally:
        session.quit()


def _screenshot(browser: Any, name: str, tmp_path: Path) -> None:
    browser.save_screenshot(str(tmp_path / name))
    folder = os.environ.get("LGENT_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp_path / name, Path(folder) / name)


def _searches(browser: Any) -> list[str]:
    """The /search requests the page has made (the browser's own record of them)."""
    entries = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
    )
    return [e for e in entries if urlsplit(e).path == "/search"]


def test_search_as_you_type_then_open_an_artifact_and_its_graph(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, WAIT)
    with httpx.Client(base_url=base_url, timeout=60) as api:
        _search_and_open(browser, base_url, tmp_path, wait, api)


def _search_and_open(
    browser: Any, base_url: str, tmp_path: Path, wait: Any, api: httpx.Client
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    browser.get(base_url + "/")
    box = wait.until(ec.element_to_be_clickable((By.ID, "q")))
    box.send_keys(QUERY)
    wait.until(lambda b: "matches" in b.find_element(By.ID, "reading").text)

    shown = [
        li.get_attribute("data-id") for li in browser.find_elements(By.CSS_SELECTOR, "#results li")
    ]
    expected = api.get("/search", params={"q": QUERY, "limit": 10}).json()
    assert shown == [r["id"] for r in expected["results"]]
    reading = browser.find_element(By.ID, "reading").text
    assert reading.startswith(f"{expected['total']} matches, read as a description in plain words")
    assert browser.find_elements(By.CSS_SELECTOR, "#results mark"), "no highlights"
    flagged = [r for r in expected["results"] if r["flags"]]
    assert flagged, "the query should show a result with a health flag"
    flags = browser.find_element(
        By.CSS_SELECTOR, f'#results li[data-id="{flagged[0]["id"]}"] .flag'
    )
    assert flags.text == flagged[0]["flags"][0]
    typed = len(QUERY)
    assert 1 <= len(_searches(browser)) <= 3 < typed, _searches(browser)  # debounced
    assert "q=summarise+PDF+reports" in browser.current_url  # the search can be linked to
    _screenshot(browser, "web-search.png", tmp_path)

    more = browser.find_element(By.ID, "more")
    assert more.is_displayed()
    more.click()
    wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#results li")) > 10)
    both = [
        li.get_attribute("data-id") for li in browser.find_elements(By.CSS_SELECTOR, "#results li")
    ]
    twenty = api.get("/search", params={"q": QUERY, "limit": 20}).json()
    assert both == [r["id"] for r in twenty["results"]]

    browser.find_element(
        By.CSS_SELECTOR, '#facets button.facet-value[data-facet="kind"][data-value="agent"]'
    ).click()
    wait.until(lambda b: "entity type agent" in b.find_element(By.ID, "reading").text)
    agents = api.get("/search", params={"q": QUERY, "kind": "agent"}).json()
    wait.until(
        lambda b: (
            [li.get_attribute("data-id") for li in b.find_elements(By.CSS_SELECTOR, "#results li")]
            == [r["id"] for r in agents["results"]]
        )
    )
    assert {r["kind"] for r in agents["results"]} == {"agent"}

    first = browser.find_element(By.CSS_SELECTOR, "#results li .title")
    chosen = agents["results"][0]
    first.click()
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "#graph svg")))
    assert unquote(urlsplit(browser.current_url).path) == f"/artifact/{chosen['id']}"
    assert browser.find_element(By.ID, "signature").text == chosen["signature"]
    focus = browser.find_element(By.CSS_SELECTOR, "#graph svg g.node.focus")
    assert focus.get_attribute("data-id") == chosen["id"]
    neighbours = browser.find_elements(By.CSS_SELECTOR, "#graph svg a.node")
    assert neighbours, "the graph shows no neighbours"
    lineage = api.get(f"/artifacts/{chosen['id']}/lineage").json()["groups"]
    related = {h["id"] for hits in lineage.values() for h in hits}
    compatible = {
        c["id"]
        for direction in ("upstream", "downstream")
        for c in api.get(
            f"/artifacts/{chosen['id']}/compatible", params={"direction": direction}
        ).json()["artifacts"]
    }
    drawn = {n.get_attribute("data-id") for n in neighbours}
    assert drawn <= related | compatible and drawn
    assert_drawn_apart(browser)

    neighbour = neighbours[0].get_attribute("data-id")
    browser.get(base_url + f"/artifact/{neighbour}")
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "#graph svg g.node.focus")))
    assert (
        browser.find_element(By.CSS_SELECTOR, "#graph svg g.node.focus").get_attribute("data-id")
        == neighbour
    )


OVERLAPS = """
const rect = (el) => { const b = el.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
const svg = document.querySelector('#graph svg');
const boxes = [...svg.querySelectorAll('g.nodes > *')].map((n) => ({
  id: n.getAttribute('data-id'), r: rect(n.querySelector('rect')) }));
const labelled = [...svg.querySelectorAll('g.edge-label')].map((l) => ({
  edge: l.getAttribute('data-edge'), r: rect(l.querySelector('rect')) }));
const labels = labelled.map((l) => l.r);
const meet = (a, b) => a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5;
const problems = [];
const all = [...boxes.map((b) => b.r), ...labels];
for (let i = 0; i < all.length; i++)
  for (let j = i + 1; j < all.length; j++) if (meet(all[i], all[j])) problems.push(['overlap', i, j]);
for (const path of svg.querySelectorAll('path.edge')) {
  const ends = [path.getAttribute('data-source'), path.getAttribute('data-target')];
  const length = path.getTotalLength();
  for (let at = 0; at <= length; at += 2) {
    const p = path.getPointAtLength(at);
    for (const b of boxes) {
      if (ends.includes(b.id)) continue;
      const r = b.r;
      if (p.x > r[0] + 1 && p.x < r[2] - 1 && p.y > r[1] + 1 && p.y < r[3] - 1)
        problems.push(['edge through box', ends.join(' -> '), b.id]);
    }
    for (const l of labelled) {
      if (l.edge === path.getAttribute('data-edge')) continue;
      const r = l.r;
      if (p.x > r[0] + 1 && p.x < r[2] - 1 && p.y > r[1] + 1 && p.y < r[3] - 1)
        problems.push(['edge through label', ends.join(' -> '), l.edge]);
    }
  }
}
return {problems, boxes: boxes.length, labels: labels.length};
"""


def assert_drawn_apart(browser: Any) -> None:
    """No two boxes or labels of the graph overlap, and no edge passes through a box it does
    not join or another edge's label (what the hand-drawn layout got wrong on PDFParser_v2's
    page)."""
    found = browser.execute_script(OVERLAPS)
    assert found["boxes"] > 1 and found["labels"] >= found["boxes"] - 1
    assert found["problems"] == [], found["problems"][:5]


def test_a_crowded_graph_is_drawn_apart(browser: Any, base_url: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    browser.set_window_size(1280, 1500)
    browser.get(base_url + "/artifact/PDFParser_v2")
    WebDriverWait(browser, WAIT).until(
        ec.presence_of_element_located((By.CSS_SELECTOR, "#graph svg g.node.focus"))
    )
    assert_drawn_apart(browser)
    _screenshot(browser, "web-artifact.png", tmp_path)


def test_browse_by_facet_without_typing(browser: Any, base_url: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, WAIT)
    with httpx.Client(base_url=base_url, timeout=60) as api:
        browser.get(base_url + "/")
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#facets button.facet-value"))
        everything = api.get("/search", params={"facets": "kind,status,tag"}).json()
        reading = browser.find_element(By.ID, "reading").text
        assert reading.startswith(f"{everything['total']} artifacts, browsing the whole catalog")
        shown = [
            li.get_attribute("data-id")
            for li in browser.find_elements(By.CSS_SELECTOR, "#results li")
        ]
        assert shown == [r["id"] for r in everything["results"]]
        tag = everything["facets"]["tag"]["values"][0]
        kinds = {
            b.get_attribute("data-value"): int(b.find_element(By.CSS_SELECTOR, ".count").text)
            for b in browser.find_elements(By.CSS_SELECTOR, '#facets [data-facet="kind"] button')
        }
        assert kinds == {v["value"]: v["count"] for v in everything["facets"]["kind"]["values"]}
        _screenshot(browser, "web-browse.png", tmp_path)
        button = f'#facets button.facet-value[data-facet="tag"][data-value="{tag["value"]}"]'
        browser.find_element(By.CSS_SELECTOR, button).click()
        wait.until(
            lambda b: b.find_element(By.ID, "reading").text.startswith(f"{tag['count']} artifacts")
        )
        narrowed = api.get("/search", params={"tag": tag["value"]}).json()
        assert narrowed["total"] == tag["count"]
        shown = [
            li.get_attribute("data-id")
            for li in browser.find_elements(By.CSS_SELECTOR, "#results li")
        ]
        assert shown == [r["id"] for r in narrowed["results"]]
        assert f"tag={tag['value']}" in browser.current_url  # a browse can be linked to
        agent = browser.find_elements(
            By.CSS_SELECTOR, '#facets button.facet-value[data-facet="kind"]'
        )[0]
        value, count = (
            agent.get_attribute("data-value"),
            int(agent.find_element(By.CSS_SELECTOR, ".count").text),
        )
        agent.click()
        wait.until(lambda b: b.find_element(By.ID, "reading").text.startswith(f"{count} artifacts"))
        both = api.get("/search", params={"tag": tag["value"], "kind": value}).json()
        assert both["total"] == count


def test_an_mcp_server_page_lists_all_its_tools_page_by_page(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, WAIT)
    with httpx.Client(base_url=base_url, timeout=60) as api:
        parts = {h["id"] for h in api.get(f"/artifacts/{SERVER}/lineage").json()["groups"]["parts"]}
    assert len(parts) > 25
    browser.set_window_size(1280, 1500)
    browser.get(base_url + f"/artifact/{SERVER}")
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "#graph svg g.node.focus")))
    assert_drawn_apart(browser)
    _screenshot(browser, "web-api.png", tmp_path)
    seen: list[str] = []
    while True:
        items = browser.find_elements(By.CSS_SELECTOR, "#parts li.result")
        seen += [li.get_attribute("data-id") for li in items]
        count = browser.find_element(By.CSS_SELECTOR, "#parts .count").text
        assert count.endswith(f"of {len(parts)}") and count.startswith(
            f"{len(seen) - len(items) + 1}-"
        )
        following = browser.find_elements(By.CSS_SELECTOR, "#parts a.next")
        if not following:
            break
        following[0].click()
        wait.until(ec.staleness_of(items[0]))
    assert len(seen) == len(set(seen)) and set(seen) == parts
    first = browser.find_element(By.CSS_SELECTOR, "#parts li.result a.title")
    target = first.get_attribute("href")
    first.click()
    wait.until(lambda b: b.current_url == target)
    assert browser.find_element(By.CSS_SELECTOR, "#graph svg g.node.focus")


def test_a_type_page_lists_its_producers_and_consumers(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, WAIT)
    browser.get(base_url + "/artifact/PDFParser_v2")
    link = browser.find_element(By.CSS_SELECTOR, "table.facts a.type")  # its input type
    name = link.text
    link.click()
    wait.until(ec.presence_of_element_located((By.ID, "type-name")))
    assert browser.find_element(By.ID, "type-name").text.startswith(name)
    consumers = {
        li.get_attribute("data-id")
        for li in browser.find_elements(By.CSS_SELECTOR, "#consumers li.result")
    }
    producers = {
        li.get_attribute("data-id")
        for li in browser.find_elements(By.CSS_SELECTOR, "#producers li.result")
    }
    assert "PDFParser_v2" in consumers
    with httpx.Client(base_url=base_url, timeout=60) as api:
        for artifact in consumers:
            signature = api.get(f"/artifacts/{artifact}").json()["entry"]
            assert signature["input_type"] is not None
        for artifact in producers:
            assert api.get(f"/artifacts/{artifact}").json()["entry"]["output_type"] is not None
    browser.set_window_size(1280, 1300)
    _screenshot(browser, "web-type.png", tmp_path)
    browser.get(base_url + "/type/NoSuchTypeAnywhere")
    assert browser.find_element(By.ID, "not-found").text == "Not found"
    browser.get(base_url + "/artifact/NoSuchArtifact")
    assert (
        "no artifact with id 'NoSuchArtifact'"
        in browser.find_element(By.ID, "not-found-reason").text
    )


def test_the_api_docs_render_from_this_server_alone(browser: Any, base_url: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(base_url + "/docs")
    WebDriverWait(browser, WAIT).until(
        lambda b: len(b.find_elements(By.CSS_SELECTOR, ".opblock")) > 10
    )
    loaded = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
    )
    origin = urlsplit(base_url).netloc
    assert loaded and {urlsplit(u).netloc for u in loaded} == {origin}
