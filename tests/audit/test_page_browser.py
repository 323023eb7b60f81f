"""The picture of a game in a real browser: Debian's Chromium, headless, driven by
Playwright (never `playwright install`: the browser is the system's, /usr/bin/chromium).

The page of the sample campaign is loaded from a file; every minor of the game must have
its band, choosing a minor must hide the others' bands and events, choosing a season the
other seasons' events; any console error, page error or network request fails the test. A
screenshot goes to build/screenshots/. Under CI=true the test is never skipped (.ci/run
installs chromium); elsewhere, without a browser or Playwright, it says so and skips.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import minors
from minors.cli import main
from minors.scenario import SAMPLE
from tests.paths import ROOT

SCREENSHOTS = ROOT / "build" / "screenshots"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""Chromium's flags: as root it needs --no-sandbox; the others keep it from calling home,
which this machine's closed network would refuse (and the test would count)."""


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def _unavailable(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why}: under CI=true the browser test must run (.ci/run installs it)")
    pytest.skip(f"{why}: the page is not checked in a browser here")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A fresh headless Chromium (a new, empty user-data-dir) under Playwright."""
    executable = _chromium()
    if executable is None:
        _unavailable("no browser: Debian's chromium is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("no Playwright: pip install -e '.[test]'")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=executable,
            headless=True,
            args=FLAGS,
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[minors.Game, Path]:
    """The sample campaign logged, and `minors report LOG --html OUT` of it."""
    folder = tmp_path_factory.mktemp("browser")
    game = minors.run_scenario(SAMPLE, log=folder / "campaign.jsonl")
    out = folder / "report.html"
    result = CliRunner().invoke(
        main, ["report", str(folder / "campaign.jsonl"), "--html", str(out)]
    )
    assert result.exit_code == 0, result.output
    return game, out


def _shown(page: Any, selector: str, attribute: str) -> list[str]:
    """The attribute of each element matching `selector` that the browser shows."""
    found: list[str] = page.eval_on_selector_all(
        selector,
        f"""els => els.filter(e => {{
            const box = e.getBoundingClientRect();
            const style = getComputedStyle(e);
            return box.width > 0 && box.height > 0 && style.display !== "none"
                && style.visibility !== "hidden";
        }}).map(e => e.getAttribute("{attribute}"))""",
    )
    return found


def test_the_page_in_a_browser(browser: Any, report: tuple[minors.Game, Path]) -> None:
    """In Chromium the page shows a band for every minor of the game; choosing a minor
    hides the other bands and leaves only its events; choosing a season leaves only that
    season's events; "Show all" brings everything back; clicking a minor's name or a
    season's heading filters as the menus do; no console error, page error or
    network request happens, and screenshots are saved under build/screenshots/."""
    game, path = report
    page = browser.new_page()
    errors: list[str] = []
    requests: list[str] = []

    def console(message: Any) -> None:
        if message.type == "error":
            errors.append(f"console error: {message.text}")

    page.on("console", console)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    url = path.as_uri()
    page.goto(url)
    page.wait_for_load_state("load")

    minors_in_game = sorted(game.to_json()["minors"])
    assert sorted(_shown(page, "#timeline g.band", "data-minor")) == minors_in_game
    events = page.locator("#events tr.event")
    total = events.count()
    assert total > 100
    assert page.locator("#filter-count").inner_text() == (
        f"{total} of {total} events, {len(minors_in_game)} of {len(minors_in_game)} minors"
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "report.png"), full_page=True)
    section = page.locator("#timeline-section").bounding_box()
    assert section is not None
    page.screenshot(path=str(SCREENSHOTS / "report-timeline.png"), full_page=True, clip=section)

    page.select_option("#filter-minor", "Finland")
    assert _shown(page, "#timeline g.band", "data-minor") == ["Finland"]
    rows = _shown(page, "#events tr.event", "data-minors")
    assert rows
    assert all("Finland" in r.split("|") for r in rows)
    assert len(rows) < total
    box = page.locator('#timeline g.band[data-minor="Finland"]').bounding_box()
    assert box is not None
    assert box["y"] < page.locator("#timeline").bounding_box()["y"] + 80  # closed up to the top
    page.screenshot(path=str(SCREENSHOTS / "report-finland.png"))

    page.select_option("#filter-season", "1939-winter")
    seasons = _shown(page, "#events tr.event", "data-turn")
    assert seasons
    assert set(seasons) == {"1939-winter"}
    assert all("Finland" in r.split("|") for r in _shown(page, "#events tr.event", "data-minors"))
    assert _shown(page, "#timeline .column-mark", "data-turn") == ["1939-winter"]

    page.click("#filter-clear")
    assert sorted(_shown(page, "#timeline g.band", "data-minor")) == minors_in_game
    assert len(_shown(page, "#events tr.event", "data-turn")) == total

    page.click('#timeline g.band[data-minor="Belgium"] .minor-name')
    assert _shown(page, "#timeline g.band", "data-minor") == ["Belgium"]
    page.click('#timeline .season-head[data-turn="1940-summer"]')
    assert set(_shown(page, "#events tr.event", "data-turn")) == {"1940-summer"}
    belgian = _shown(page, "#events tr.event", "data-minors")
    assert belgian
    assert all("Belgium" in r.split("|") for r in belgian)
    page.close()

    assert errors == []
    assert requests == [url], "the page made network requests"
