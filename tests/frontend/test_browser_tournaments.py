"""The tournament pages in Chromium (``browser`` tests): a referee creates an event with the
/tournaments/new form, a player registers with the page's button (the real CSRF check, the
redirect and its message), and every control of the list, the page with its staff panel and
the new form has a name and is reached by Tab with a visible focus (``a11y.py``)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.frontend.a11y import audit, tab_walk
from tests.frontend.conftest import sign_in

pytestmark = pytest.mark.browser

REFEREE = "t-referee"
PLAYERS = ["t-ann", "t-ben", "t-cat"]
LOADED = 30_000

#: A running room round robin of the three players (its first round's tables waiting for
#: results, so the staff panel shows every form), printed as "RUNNING <id>".
RUNNING = """
from django.contrib.auth import get_user_model
from games.tournaments import setup
from games.tournaments.settings import TournamentSettings
referee = get_user_model().objects.get(username={referee!r})
t = setup.tournament_create(actor=referee, settings=TournamentSettings(name="Browser Robin",
    play="room", format="round_robin", room_system="axis_allies", room_rules="chess",
    room_edition="classic"))
for name in {players!r}:
    setup.register(tournament_id=t.pk, user=get_user_model().objects.get(username=name))
setup.tournament_start(actor=referee, tournament_id=t.pk)
print("RUNNING", t.pk)
"""


@pytest.fixture(scope="module")
def running(site) -> int:
    for name in [REFEREE, *PLAYERS]:
        site.create_user(name)
    site.shell(
        "from django.contrib.auth import get_user_model\n"
        f"get_user_model().objects.filter(username={REFEREE!r}).update(is_staff=True)"
    )
    out = site.shell(RUNNING.format(referee=REFEREE, players=PLAYERS))
    return int(re.search(r"RUNNING (\d+)", out).group(1))


def check_a11y(page, path: str) -> None:
    page.goto(path)
    page.wait_for_load_state("networkidle")
    found = audit(page)
    assert found["unnamed"] == [], path
    walk = tab_walk(page)
    assert walk["missed"] == [] and walk["no_indicator"] == [], path
    assert walk["order"] == sorted(walk["order"]), path


def test_a_referee_creates_and_a_player_registers(page, running):
    sign_in(page, REFEREE)
    page.goto("/tournaments/new")
    page.get_by_label("Name:", exact=True).fill("Browser Swiss")
    page.get_by_label("Format:", exact=True).select_option("swiss")
    page.get_by_label("Rounds (Swiss and tables").fill("3")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator("h1")).to_have_text("Browser Swiss", timeout=LOADED)
    expect(page.get_by_role("status")).to_contain_text("Browser Swiss is open for registration.")
    assert re.fullmatch(r".*/tournaments/\d+", page.url)
    created = page.url

    page.context.clear_cookies()
    sign_in(page, PLAYERS[0])
    page.goto(created)
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_role("status")).to_have_text("You are entered.", timeout=LOADED)
    expect(page.locator("#entrants")).to_contain_text(PLAYERS[0])
    expect(page.locator("#staff-panel")).to_have_count(0)


def test_the_pages_name_every_control_and_tab_reaches_them(page, running):
    check_a11y(page, "/tournaments")
    check_a11y(page, f"/tournaments/{running}")
    sign_in(page, REFEREE)
    for path in ("/tournaments", f"/tournaments/{running}", "/tournaments/new"):
        check_a11y(page, path)
    page.goto(f"/tournaments/{running}")
    # Pair, finish, cancel, remove, and board 1's result (the odd player's bye is scored at
    # once).
    expect(page.locator("#staff-panel form")).to_have_count(5)
