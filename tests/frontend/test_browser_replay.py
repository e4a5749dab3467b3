"""/games/<id>/replay in a real browser: a finished game stepped through on the board.

The army counts the board shows at a step are checked against the spectator's view at that
step, computed in the server's own process by replaying the game's rows with the engine (not
through the endpoint the page reads); a step with a battle roll shows that roll's dice from the
log, and the territory the step changed is outlined.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# Replays the game's rows with the engine in the site's process: the spectator's territories
# (owner, armies) after every entry.
VIEWS_AFTER_EACH_ENTRY = """
import json
from games.models import Game
from games.play.seeds import engine_seed
from games.play.verify import game_replay_data
from risk.rules import Options, action_from_dict, apply, game_dice, new_game, view_for
data = game_replay_data(Game.objects.get(pk={game_id}), with_final_state=False)
state = new_game(data.players, seed=engine_seed(data.server_seed, data.client_seeds),
                 options=Options.from_dict(data.options))
out = []
for entry in data.entries:
    state, _ = apply(state, action_from_dict(entry.action), game_dice(state))
    board = view_for(state, None)["territories"]
    out.append({{n: [t["owner"], t["armies"]] for n, t in board.items()}})
print("VIEWS " + json.dumps(out))
"""


@pytest.fixture(scope="module")
def finished(site) -> int:
    return site.finished_game("replay-rhea", client_seed="rhea's replay dice")


def replay(site, game_id: int) -> dict:
    with urllib.request.urlopen(f"{site.url}/api/games/{game_id}/replay", timeout=10) as response:
        return json.loads(response.read())


def views(site, game_id: int) -> list[dict[str, list]]:
    out = site.shell(VIEWS_AFTER_EACH_ENTRY.format(game_id=game_id))
    line = next(x for x in out.splitlines() if x.startswith("VIEWS "))
    return json.loads(line[len("VIEWS ") :])


def armies_label(name: str, owner: str, armies: int) -> re.Pattern[str]:
    """The start of board.js's aria-label of a territory: "Peru, bob, 3 armies"."""
    word = "army" if armies == 1 else "armies"
    return re.compile(rf"^{re.escape(f'{name}, {owner}, {armies} {word}')}(,|$)")


def go_to(page, index: int, count: int) -> None:
    """Entry ``index`` (0-based) with the slider, as a person dragging it would end up."""
    page.locator("#replay-slider").fill(str(index + 1))
    expect(page.locator("#entry-title")).to_have_text(f"Entry {index + 1} of {count}")


def test_the_board_shows_each_steps_armies_as_the_server_sees_them(page, site, finished):
    entries = replay(site, finished)["entries"]
    after = views(site, finished)
    assert len(after) == len(entries)
    # a step that changes a territory's armies, late enough to need many patches applied
    k = max(
        i for i in range(1, len(after))
        if any(after[i][n][1] != after[i - 1][n][1] for n in after[i])
    )  # fmt: skip
    name = next(n for n in sorted(after[k]) if after[k][n][1] != after[k - 1][n][1])

    page.goto(f"/games/{finished}/replay")
    expect(page.locator("#board polygon[data-name]")).to_have_count(42)
    land = page.locator(f'#board polygon[data-name="{name}"]')

    go_to(page, k, len(entries))
    expect(page.locator("#board-section")).to_have_attribute("data-step", str(k + 1))
    owner, armies = after[k][name]
    expect(land).to_have_attribute("aria-label", armies_label(name, owner, armies))
    expect(land).to_have_class(re.compile(r"\bpicked\b"))  # the step changed it
    expect(page.locator("#entry-touched")).to_contain_text(name)

    page.keyboard.press("ArrowLeft")  # one step back: the patches re-applied from the start
    expect(page.locator("#board-section")).to_have_attribute("data-step", str(k))
    owner, armies = after[k - 1][name]
    expect(land).to_have_attribute("aria-label", armies_label(name, owner, armies))

    page.keyboard.press("Home")
    other = sorted(after[0])[0]
    owner, armies = after[0][other]
    expect(page.locator(f'#board polygon[data-name="{other}"]')).to_have_attribute(
        "aria-label", armies_label(other, owner, armies)
    )
    assert page.js_errors == []


def test_a_roll_step_shows_the_dice_and_losses_from_the_log(page, site, finished):
    entries = replay(site, finished)["entries"]
    index = next(i for i, e in enumerate(entries) if any(v["type"] == "roll" for v in e["events"]))
    rolls = [v for v in entries[index]["events"] if v["type"] == "roll"]

    page.goto(f"/games/{finished}/replay")
    expect(page.locator("#entry-title")).to_have_text(f"Entry 1 of {len(entries)}")
    go_to(page, index, len(entries))
    shown = page.locator("#entry-battle .roll")
    expect(shown).to_have_count(len(rolls))
    first = rolls[0]
    expect(shown.first.locator(".attacker-dice .die")).to_have_text(
        [str(v) for v in first["attacker"]]
    )
    expect(shown.first.locator(".defender-dice .die")).to_have_text(
        [str(v) for v in first["defender"]]
    )
    expect(shown.first.locator(".roll-losses")).to_contain_text(
        f"Attacker loses {first['attacker_losses']}, defender loses {first['defender_losses']}"
    )
    expect(page.locator("#entry-events")).to_contain_text(
        f"attacker {', '.join(map(str, first['attacker']))} against defender"
    )

    page.keyboard.press("Home")  # the first entry (an arrangement) rolls no battle dice
    expect(page.locator("#entry-battle")).to_be_hidden()
    assert page.js_errors == []


def test_play_steps_on_its_own_and_pause_stops_it(page, site, finished):
    count = len(replay(site, finished)["entries"])
    page.goto(f"/games/{finished}/replay")
    title = page.locator("#entry-title")
    expect(title).to_have_text(f"Entry 1 of {count}")
    page.locator("#replay-speed").select_option("500")
    play = page.get_by_role("button", name="Play", exact=True)  # not "Alaska, replay-rhea, ..."
    play.click()
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    expect(title).to_have_text(f"Entry 3 of {count}", timeout=5_000)  # 0.5 s an entry
    page.get_by_role("button", name="Pause", exact=True).click()
    expect(page.locator("#replay-play")).to_have_text("Play")
    stopped = title.text_content()
    page.wait_for_timeout(1_200)  # two entries' time: nothing moves while paused
    assert title.text_content() == stopped
    page.keyboard.press("End")  # Play at the last entry starts over from the first
    page.locator("#replay-play").click()
    expect(title).to_have_text(re.compile(rf"^Entry [1-3] of {count}$"))
    page.keyboard.press("ArrowRight")  # a step by hand pauses it
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    assert page.js_errors == []
