"""Fixtures of the browser tests (marked ``browser``): the served site and Chromium."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.frontend.browser import PASSWORD, Site, chromium_path, shared_dir


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups off the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each browser module's tests run on one pytest-xdist worker: what its module fixtures
    make (Chromium, users and finished games in the site's database: up to half a minute) is
    then made once, not once on each worker that drew one of its tests."""
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(f"browser-{item.module.__name__}"))


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """One daphne for the session's browser tests, on its own embedded database."""
    server = Site(tmp_path_factory.mktemp("browser-site") / "var", shared_dir(tmp_path_factory))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium under Playwright, for one module (so Playwright's driver and its event
    loop are gone before the rest of the suite runs); missing, the tests fail (never skip)."""
    executable = chromium_path()
    if executable is None:
        pytest.fail(
            "Chromium is needed by the browser tests: install Debian's chromium "
            "(apt-get install chromium; scripts/test.sh does when run as root)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(chromium, site):
    """A fresh browser context (no cookies) and page; the server log is printed on failure."""
    context = chromium.new_context(base_url=site.url)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors  # type: ignore[attr-defined]
    try:
        yield page
    finally:
        context.close()


def sign_in(page, username: str) -> None:
    """Sign in through the /login page, as a person would; it takes us to the lobby."""
    page.goto("/login?next=/games")
    page.get_by_label("Username").first.fill(username)
    page.get_by_label("Password").first.fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    # the lobby itself, not /login?next=/games (a glob "**/games" matches both)
    page.wait_for_url(lambda url: urlsplit(url).path == "/games")


@pytest.fixture
def signed_in():
    return sign_in
