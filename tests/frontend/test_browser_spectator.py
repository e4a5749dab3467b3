"""A spectator never sees a hidden card: checked in the DOM after every update of a whole game.

An anonymous browser watches a public game that bots play to the end on the live server. The
page records its whole HTML (``document.documentElement.outerHTML``, so text and every
attribute value) after every change, with the version it shows. When the game is over its
replay is played again with the engine (``hidden_cards``), which gives the cards hidden at each
of those versions, and no recorded page may show one. The check is shown to bite: the seated
player's own page shows their hand, and the same check finds it there.
"""

from __future__ import annotations

import json
import os
import time

import pytest
from playwright.sync_api import expect

from tests.frontend.browser import GAME_MODULE, game_state
from tests.frontend.hidden_cards import Hidden, hidden_at, leaks, states_by_version

pytestmark = pytest.mark.browser

#: How long an expectation waits (ms): the browser tests share the machine with the suite.
LOADED = 30_000

#: Recorded in the page: [version, outerHTML, newest event] after each batch of DOM changes (a
#: task after the last one, so a render is seen whole) whose version or HTML changed. The
#: events list is also filled from the events API, which may already hold later events than the
#: view: what was public by the newest event shown counts as shown.
RECORDER = (
    "async () => {\n  const { game } = await "
    + GAME_MODULE
    + """;
  window.__pages = [];
  let queued = false;
  const take = () => {
    queued = false;
    const state = game.state();
    if (!state || state.version < 0) return;
    const html = document.documentElement.outerHTML;
    const last = window.__pages[window.__pages.length - 1];
    const same = last && last[0] === state.version && last[1] === html;
    const seqs = [...document.querySelectorAll('#events-list li')].map((li) => li.value || 0);
    if (!same) window.__pages.push([state.version, html, Math.max(state.version, ...seqs)]);
  };
  const all = { subtree: true, childList: true, characterData: true, attributes: true };
  new MutationObserver(() => { if (!queued) { queued = true; setTimeout(take, 0); } })
    .observe(document.documentElement, all);
  take();
}"""
)


def test_the_check_finds_a_hand_written_as_a_list():
    hidden = Hidden(poker={"Qs", "2c"}, risk_hands={"a": ["Peru", "Siam"]},
                    risk_deck_top=["Egypt", "Japan"])  # fmt: skip
    assert leaks("<p>Peru</p><p>Siam</p><td>2cm</td>", hidden) == []  # names alone: the board
    assert leaks("<dd>Siam, Peru</dd>", hidden) == ["a's Risk cards Siam, Peru"]
    assert leaks('<input value="Qs">', hidden) == ["poker card Qs"]
    assert leaks('<span aria-label="queen of spades">Q\u2660</span>', hidden) == ["poker card Qs"]
    assert leaks("<b>2\u2663</b>", hidden) == ["poker card 2c"]
    assert leaks("<li>Egypt / Japan</li>", hidden) == ["Risk deck order Egypt, Japan"]
    card = '<div class="card-row"><span class="card risk-card"><span>Peru</span></span></div>'
    assert leaks(card + "<p>Siam</p>", hidden) == ["a's Risk card Peru"]
    assert leaks('<span data-card="Siam"></span>', hidden) == ["a's Risk card Siam"]
    # whole names only: the board's lane "Indian:Siam|Indian:Indonesia" lists no "Siam, India"
    deck = Hidden(risk_deck_top=["Siam", "India"])
    assert leaks('<line data-lane="Indian:Siam|Indian:Indonesia"/>', deck) == []
    assert leaks("<li>Siam | India</li>", deck) == ["Risk deck order Siam, India"]
    # a list the spectator was shown (an event naming two territories) is no leak, even when the
    # deck's next cards or a hand happen to be those two
    hidden.public_text = (
        '[{"type": "eliminated", "territories": ["Egypt", "Japan", "Siam", "Peru"]}]'
    )
    assert leaks("<li>Egypt, Japan</li><li>Siam, Peru</li>", hidden) == []
    # (in that order only: "Siam, Peru" was shown, "Peru, Siam" was not)
    assert leaks("<li>Egypt, Japan</li><li>Peru, Siam</li>", hidden) == [
        "a's Risk cards Peru, Siam"
    ]


#: The server seed, fixed and committed as the lobby would, before the start: the same deal and
#: game every run. A sweep over other deals: ``SPECTATOR_SEEDS=a,b2,c3d4`` (each repeated to 64
#: hex digits) runs the check once per seed (24 seeds passed when the spectator view was written).
SEED_SQL = """
from combat.dice import commitment_of
from games.models import Game
seed = {seed!r}
Game.objects.filter(pk={game_id}).update(server_seed=seed, seed_commitment=commitment_of(seed))
"""
SEEDS = [part * (64 // len(part)) for part in os.environ.get("SPECTATOR_SEEDS", "7").split(",")]


@pytest.mark.parametrize("seed", SEEDS, ids=lambda seed: seed[:4])
def test_a_spectator_sees_no_hidden_card_in_a_whole_game(chromium, site, signed_in, seed):
    owner_name = f"spy-{seed[:4]}"  # one user per seed: the site is shared
    site.create_user(owner_name)
    owner = chromium.new_context(base_url=site.url)
    watcher = chromium.new_context(base_url=site.url)  # anonymous: no cookies
    try:
        mine = owner.new_page()
        signed_in(mine, owner_name)
        expect(mine.locator("#whoami")).to_contain_text(
            f"Signed in as {owner_name}", timeout=LOADED
        )
        game_id = mine.evaluate("""async () => {
          const { api } = await import("/static/frontend/common.js");
          const made = await api("POST", "/api/games", {seats: 3, public: true,
            name: "Spectator check", options: {win: "round-limit", round_limit: 1}});
          return made.data.id;
        }""")
        site.shell(SEED_SQL.format(game_id=game_id, seed=seed))
        mine.evaluate(
            """async (id) => {
          const { api } = await import("/static/frontend/common.js");
          await api("POST", `/api/games/${id}/bots`);
          await api("POST", `/api/games/${id}/start`);
        }""",
            game_id,
        )
        mine.goto(f"/games/{game_id}")
        expect(mine.locator("#hands")).to_contain_text("Your hands", timeout=LOADED)
        own_view = game_state(mine)["view"]
        me = next(s for s in own_view["seats"] if s["id"] == own_view["you"])
        own_html = mine.evaluate("() => document.documentElement.outerHTML")

        spy = watcher.new_page()
        spy.goto(f"/games/{game_id}")
        expect(spy.locator("#status-line")).to_contain_text(f"Game {game_id}", timeout=LOADED)
        spy.evaluate(RECORDER)

        # The check bites: the owner's page lists their own hand, and `leaks` finds it there.
        theirs = Hidden(poker=set(me["poker_hand"]), risk_hands={me["id"]: me["risk_hand"]})
        assert len(me["risk_hand"]) == 2 and len(me["poker_hand"]) == 1  # the starting hands
        found = leaks(own_html, theirs)
        assert f"poker card {me['poker_hand'][0]}" in found, found
        for card in me["risk_hand"]:  # drawn as a card, or written in a list with the other
            assert any(card in leak for leak in found if "Risk card" in leak), (card, found)

        # The owner concedes: the bots play the rest (one round) while the spectator watches.
        mine.locator("#action-advanced summary").first.click()
        mine.locator("#action-json").fill('{"type": "concede"}')
        mine.locator("#action-send").click()
        deadline = time.monotonic() + 240
        while not (game_state(spy)["view"] or {}).get("over"):
            assert time.monotonic() < deadline, "the game did not end"
            time.sleep(0.5)
        spy.wait_for_timeout(500)
        pages = spy.evaluate("() => window.__pages")
        replay = mine.evaluate(
            f"async () => (await (await import('/static/frontend/common.js'))"
            f".api('GET', '/api/games/{game_id}/replay')).data"
        )
    finally:
        owner.close()
        watcher.close()

    states = states_by_version(replay)
    versions = sorted({v for v, _, _ in pages})
    assert len(versions) >= 5, versions  # the spectator followed the game, not just its end
    assert versions[-1] == max(states)  # and saw its last version
    checked = 0
    for version, html, newest in pages:
        state, _ = states[version]
        # the page shows version `version` (its view) and events up to `newest`: what either had
        # shown by then is public (the two can be a message apart while the page catches up)
        hidden = hidden_at(state, states[min(max(newest, version), max(states))][1])
        assert leaks(html, hidden) == [], f"version {version}"
        checked += bool(hidden.poker) + len(hidden.risk_hands)
    assert checked > 0  # there was something to hide while the spectator watched
    assert json.dumps(pages[-1][1]).count("Your hands") == 0
