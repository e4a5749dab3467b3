"""The poker table in a real browser (``browser`` tests): a game of three people on the live
server is played through the service layer up to an allied-army declaration that is contested,
then the poker hand's steps are played through the table UI (forms_cards.js), and a spectator's
page is checked against the server's state: none of the cards hidden from it is on the page.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.frontend.browser import PASSWORD, game_state

pytestmark = pytest.mark.browser

PLAYERS = ("poker-ann", "poker-ben", "poker-cat")

#: Run in ``manage.py shell``: three people in a game, moved on by the random legal player
#: through the service layer (as their own actions), steered to a contested declaration: each
#: end phase that may declare an ally does, every challenge contests and the declarer plays.
#: Prints the game id once the poker hand is dealt out to its choosing step.
TO_POKER = """
import random
from django.contrib.auth import get_user_model
from django.db import transaction
from games.models import Game
from games.play import lobby, write
from games.play.reads import fetch
from risk.rules import legal_actions, pending_decisions
from risk.rules.bots import RandomBot, decide
users = {{name: get_user_model().objects.create_user(name, password={password!r})
         for name in {players!r}}}
game = lobby.game_create(creator=users[{players!r}[0]], seats=3, ai_delay_ms=0)
# a fixed server seed (committed as the lobby would), so every run takes the same path
from combat.dice import commitment_of
fixed = "5" * 64
Game.objects.filter(pk=game.pk).update(server_seed=fixed, seed_commitment=commitment_of(fixed))
for name in {players!r}[1:]:
    lobby.game_join(game_id=game.pk, user=users[name])
lobby.game_start(game_id=game.pk, user=users[{players!r}[0]])
rng = random.Random(5)
for _ in range(3000):
    game = fetch.game_get(game.pk)
    state = fetch.game_state(game)
    if state.contest is not None and state.contest.stage == "poker":
        print("POKER", game.pk)
        break
    player = pending_decisions(state)[0].player
    specs = {{s.type: s.options for s in legal_actions(state, player)}}
    if specs.get("end_turn", {{}}).get("allies"):
        raw = {{"type": "end_turn", "ally": specs["end_turn"]["allies"][0]}}
    elif "challenge" in specs:
        raw = {{"type": "challenge", "contest": True}}
    elif "answer" in specs:
        raw = {{"type": "answer", "demur": False}}
    else:
        raw = decide(RandomBot(rng), state, player).to_dict()
        raw.pop("player", None)
    with transaction.atomic():
        locked = write.game_lock(game.pk)
        write.person_action(locked, users[player], raw, locked.version, None)
"""

#: The contest's poker hand as the server holds it (every card, for the test only).
HAND = """
from games.models import Game
from games.play.reads import fetch
state = fetch.game_state(Game.objects.get(pk={game_id}))
hand = state.contest.hand if state.contest is not None else None
print("HAND", json.dumps(None if hand is None else {{
    "phase": hand.phase,
    "seats": [{{"player": s.player, "hand": list(s.hand), "stash": list(s.stash),
               "chosen": s.chosen}} for s in hand.seats],
    "actors": {{s.id: s.actor for s in state.seats}},
}}))
"""


def poker_hand(site, game_id: int) -> dict:
    out = site.shell("import json\n" + HAND.format(game_id=game_id))
    line = [x for x in out.splitlines() if x.startswith("HAND ")]
    assert line, out
    return json.loads(line[-1][5:])


def sign_in_context(chromium, site, username: str):
    context = chromium.new_context(base_url=site.url)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/login?next=/games")
    page.get_by_label("Username").first.fill(username)
    page.get_by_label("Password").first.fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    # (not wait_for_url("**/games"): the glob already matches /login?next=/games)
    expect(page.locator("#whoami")).to_contain_text(f"Signed in as {username}")
    return context, page, errors


SUITS = {"c": ("♣", "clubs"), "d": ("♦", "diamonds"), "h": ("♥", "hearts"), "s": ("♠", "spades")}
RANKS = {"T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def face(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]][0]


def name(card: str) -> str:
    words = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
             "8": "eight", "9": "nine", **RANKS}  # fmt: skip
    return f"{words[card[0]]} of {SUITS[card[1]][1]}"


def hidden_from_spectator(hand: dict) -> set[str]:
    """Every card of the hand nobody has shown: all of them before the showdown."""
    return {c for s in hand["seats"] for c in s["hand"] + s["stash"]}


def test_a_poker_hand_is_played_at_the_table_and_a_spectator_sees_no_hidden_card(
    chromium, site, page
):
    out = site.shell(TO_POKER.format(players=PLAYERS, password=PASSWORD), timeout=600)
    line = [x for x in out.splitlines() if x.startswith("POKER ")]
    assert line, f"the game never reached a poker hand:\n{out[-2000:]}"
    game_id = int(line[-1].split()[1])
    hand = poker_hand(site, game_id)
    assert hand["phase"] == "choose"
    seat_to_person = hand["actors"]
    picks: dict[str, list[str]] = {}

    # Each entrant chooses through the table: the stash drawn as cards, picked by clicking.
    for seat in hand["seats"]:
        person = seat_to_person[seat["player"]]
        context, player_page, errors = sign_in_context(chromium, site, person)
        try:
            player_page.goto(f"/games/{game_id}")
            expect(player_page.locator("#status-line")).to_contain_text("live")
            form = player_page.locator("#action-form")
            offered = {s["type"] for s in game_state(player_page)["view"]["legal_actions"]}
            if "poker" not in offered:
                # Every stash card must be chosen (min = max = the stash): nothing to decide,
                # so the server chose them (a forced step, RULES.md F1) and the log says so.
                expect(player_page.locator("#events-list")).to_contain_text(
                    f"{seat['player']} had only one move (poker)"
                )
                picks[seat["player"]] = seat["stash"]
                continue
            expect(form.locator("h3")).to_have_text("Poker")
            boxes = form.locator('input[type=checkbox][data-field="cards"]')
            expect(boxes).to_have_count(len(seat["stash"]))
            values = sorted(boxes.evaluate_all("(xs) => xs.map((x) => x.value)"))
            assert values == sorted(seat["stash"])  # the stash, and only the stash
            expect(form).to_contain_text("Red queens")
            # the other entrants' stashes are nowhere on this player's page
            others = {c for s in hand["seats"] if s is not seat for c in s["stash"] + s["hand"]}
            state_json = json.dumps(game_state(player_page)["view"])
            assert not [c for c in others if f'"{c}"' in state_json]
            least = next(
                s for s in game_state(player_page)["view"]["legal_actions"] if s["type"] == "poker"
            )["options"]["choose"]["min"]
            for card in seat["stash"][:least]:  # a click on the card picks it
                form.locator(f'label:has(input[data-field="cards"][value="{card}"])').click()
                expect(form.locator(f'input[data-field="cards"][value="{card}"]')).to_be_checked()
            picks[seat["player"]] = seat["stash"][:least]
            form.locator("button.primary").click()
            expect(player_page.locator("#action-result")).to_contain_text("Done")
            expect(player_page.locator("#contest-table")).to_contain_text("Poker table")
            assert errors == []
        finally:
            context.close()

    # All have chosen: the cards are dealt and the first betting round opens with the declarer;
    # each hand holds the stash cards its player clicked.
    hand = poker_hand(site, game_id)
    assert hand["phase"] == "bet1"
    for seat in hand["seats"]:
        assert seat["chosen"] is True and len(seat["hand"]) == 5
        assert set(picks[seat["player"]]) <= set(seat["hand"])
        assert not set(picks[seat["player"]]) & set(seat["stash"])
    declarer = hand["seats"][0]
    context, player_page, errors = sign_in_context(
        chromium, site, seat_to_person[declarer["player"]]
    )
    try:
        player_page.goto(f"/games/{game_id}")
        expect(player_page.locator("#status-line")).to_contain_text("live")
        form = player_page.locator("#action-form")
        hand_row = form.locator('[aria-label="Your hand"] .poker-card')
        expect(hand_row).to_have_count(5)
        shown = sorted(hand_row.evaluate_all("(xs) => xs.map((x) => x.dataset.card)"))
        assert shown == sorted(declarer["hand"])
        form.locator('input[data-field="move"][value="check"]').check()
        form.locator("button.primary").click()
        expect(player_page.locator("#action-result")).to_contain_text("Done")
        assert errors == []
    finally:
        context.close()
    # the move reached the server: the declarer has acted, the next entrant is to act
    page.goto(f"/games/{game_id}")  # a spectator (not signed in)
    expect(page.locator("#contest-table")).to_contain_text("Poker table")
    expect(page.locator("#contest-line")).to_contain_text("the first betting round")
    expect(page.locator("#contest-line")).to_contain_text(
        f"Waiting for {hand['seats'][1]['player']}"
    )

    hand = poker_hand(site, game_id)
    hidden = hidden_from_spectator(hand)
    assert len(hidden) >= 10  # two or more hands of five at the table
    html = page.content()
    # the page's text, less the red-queen rule (it names the queen of hearts as a rule)
    rule = page.locator("#contest-table > p").inner_text()
    assert "Red queens" in rule
    text = page.locator("body").inner_text().replace(rule, "")
    state_json = json.dumps(game_state(page)["view"])
    assert not [c for c in hidden if f'"{c}"' in state_json]
    assert not [c for c in hidden if f'data-card="{c}"' in html]
    assert page.locator(".poker-card").count() == 0 and page.locator(".risk-card").count() == 0
    # nor as the faces or names the table would draw them with (hand-written: Td is "10♦")
    for card in hidden:
        assert face(card) not in text and name(card) not in text, card
    assert page.js_errors == []
