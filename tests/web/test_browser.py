"""The web page in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``, driven
with selenium): type a query, see results as you type, filter, open an artifact, see its graph;
and the API documentation page renders from this server alone.

Skipped only when Chromium or its driver is not installed, unless ``LGENT_REQUIRE_BROWSER`` is set
(CI sets it, and installs both): then their absence fails the test. ``LGENT_SCREENSHOTS=DIR``
saves the screenshots there (docs/ keeps the ones shown in docs/web.md).
"""

from __future__ import annotations

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


@pytest.fixture(scope="module")
def base_url(example_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("web") / "server.log"
    with http_server(example_home, log) as url:
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
    from selenium.webdriver.support.ui import Select

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

    Select(browser.find_element(By.ID, "kind")).select_by_value("agent")
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
    browser.set_window_size(1280, 1500)
    _screenshot(browser, "web-artifact.png", tmp_path)

    neighbour = neighbours[0].get_attribute("data-id")
    browser.get(base_url + f"/artifact/{neighbour}")
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "#graph svg g.node.focus")))
    assert (
        browser.find_element(By.CSS_SELECTOR, "#graph svg g.node.focus").get_attribute("data-id")
        == neighbour
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
