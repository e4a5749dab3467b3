"""People at their own browser pages: signing in, and watching a game page's events list.

``sign_in`` is ``conftest.sign_in`` and then waits for the lobby to list the games for the
signed-in person, so its script has run and its forms work before the test uses them.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.frontend.conftest import sign_in as conftest_sign_in

#: Marks a game page so a reload would show (it clears window state), and records every
#: sequence number ever shown in its events list, so a line pushed and then scrolled out of
#: the list's last 60 still counts as seen live.
WATCH_EVENTS = """() => {
  window.__noReload = true;
  window.__seen = new Set();
  const list = document.getElementById('events-list');
  const note = () => { for (const li of list.children) if (li.value) window.__seen.add(li.value); };
  note();
  new MutationObserver(note).observe(list, { childList: true });
}"""


def sign_in(page: Any, username: str) -> None:
    conftest_sign_in(page, username)
    lobby_loaded(page)


def lobby_loaded(page: Any) -> None:
    """The lobby has listed the games for a signed-in person."""
    expect(page.locator("#lobby-status")).to_have_text(re.compile(r"^\d+ open games?\.$"))


def watch(page: Any) -> None:
    """Start recording what the page's events list shows (see ``WATCH_EVENTS``)."""
    page.evaluate(WATCH_EVENTS)


def sees(page: Any, version: int) -> None:
    """Wait until the page, never reloaded, has shown the events of log entry ``version``."""
    page.wait_for_function("v => window.__noReload && window.__seen.has(v)", arg=version)
