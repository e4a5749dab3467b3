"""The README's screenshots: the board mid-game, a calculator with its chart, a poker hand.

    .venv/bin/python scripts/screenshots.py            # starts the embedded server itself
    .venv/bin/python scripts/screenshots.py --url http://127.0.0.1:8000   # a running server

Playwright drives Debian's Chromium (/usr/bin/chromium) at 1280x800 and writes
docs/screenshots/board.png, calculator.png and poker.png. The script signs up a fresh user,
creates a public game against two bots and plays its own seat with the server's hints (the hard
AI's choice for the caller, ``GET /api/games/{id}/hint``) until the game is past its first
round (board.png), then on until that seat is asked for a poker decision (poker.png), starting
another game when one ends first: the seat of a person in a poker hand is found by playing, not
by a fixed seed, since the server's seed is secret and new for every game.

The embedded server (``tests/frontend/browser.Site``: a fresh var folder, daphne, AI delay 0)
gets a hint rate limit high enough for this; against a running server the server's own limit
(THROTTLE_HINT, 30/min by default) slows the script down but it waits and carries on.
"""

from __future__ import annotations

import argparse
import secrets
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
SIZE = {"width": 1280, "height": 800}
#: Human decisions to play per game before giving up on it (a game runs a few rounds).
MAX_MOVES = 400

#: The page's modules: the API helper by its plain name (stateless), the game page's module by
#: the URL the page loaded it from (the same instance; collectstatic's hashed name).
COMMON = 'import("/static/frontend/common.js")'
GAME = "import(document.querySelector('script[src*=\"/frontend/game.\"]').src)"

#: One move of our seat: the server's hint, sent as our action. Returns what happened.
PLAY_HINT = """async (gameId) => {
  const { api, randomKey } = await COMMON;
  const hint = await api("GET", `/api/games/${gameId}/hint`);
  if (!hint.ok) return hint.data && hint.data.error ? hint.data.error : `HTTP ${hint.status}`;
  const sent = await api("POST", `/api/games/${gameId}/actions`, {
    action: hint.data.action, expected_version: hint.data.version,
    idempotency_key: randomKey()});
  return sent.ok ? "played" : (sent.data && sent.data.error) || `HTTP ${sent.status}`;
}""".replace("COMMON", COMMON)

#: Our legal action types and the round, from the page's own view.
MINE = """async () => {
  const { game } = await GAME;
  window.shotsGame = game; // for wait_for_function, which polls a synchronous function
  const s = game.state();
  const v = s.view || {};
  const poker = (v.legal_actions || []).find((a) => a.type === "poker");
  return {types: (v.legal_actions || []).map((a) => a.type), round: v.round || 0,
          over: Boolean(v.over), version: s.version,
          poker_moves: poker ? poker.options.moves : []};
}""".replace("GAME", GAME)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server (default: start the embedded one)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    site = None
    # Stopped from outside, still stop the server we started (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.url is None:
        from tests.frontend.browser import Site

        site = Site(Path(tempfile.mkdtemp(prefix="warboard-shots-")) / "var")
        site.var_dir.mkdir(parents=True)
        site.env["THROTTLE_HINT"] = "100000/min"
        site.start()
    url = args.url or site.url  # type: ignore[union-attr]
    try:
        shoot(url.rstrip("/"), args.out)
    finally:
        if site is not None:
            site.stop()
    return 0


def shoot(url: str, out: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        context = browser.new_context(base_url=url, viewport=SIZE)
        context.set_default_timeout(30_000)
        page = context.new_page()
        calculator(page, out / "calculator.png")
        register(page)
        board_done = poker_done = False
        for attempt in range(1, 6):
            game_id = new_game(page)
            print(f"game {game_id} (attempt {attempt})", flush=True)
            page.goto(f"/games/{game_id}")
            page.locator("#board polygon").first.wait_for()
            for _ in range(MAX_MOVES):
                mine = wait_for_us(page)
                if mine is None:
                    break  # the game is over
                if not board_done and mine["round"] >= 2 and "place" in mine["types"]:
                    scroll_to(page, "board-title")
                    page.wait_for_timeout(400)
                    page.screenshot(path=str(out / "board.png"))
                    board_done = True
                    print("board.png", flush=True)
                # the hand dealt (betting or drawing), not the choosing of stash cards
                if (
                    not poker_done
                    and "poker" in mine["types"]
                    and "choose" not in mine["poker_moves"]
                ):
                    page.wait_for_timeout(600)  # the poker form drawn
                    scroll_to(page, "actions-title")
                    page.wait_for_timeout(300)
                    page.screenshot(path=str(out / "poker.png"))
                    poker_done = True
                    print("poker.png", flush=True)
                if board_done and poker_done:
                    browser.close()
                    return
                result = page.evaluate(PLAY_HINT, game_id)
                if result == "throttled":
                    time.sleep(5)
                elif result == "played":  # until the page has the move (its version moves on)
                    page.wait_for_function(
                        "(v) => window.shotsGame.state().version > v", arg=mine["version"]
                    )
        browser.close()
        raise SystemExit("five games ended before our seat was asked for a poker decision")


def scroll_to(page: Any, element_id: str) -> None:
    """The window scrolled so the element is at the top."""
    page.evaluate(
        "(id) => window.scrollTo(0, document.getElementById(id).offsetTop - 8)", element_id
    )


def calculator(page: Any, path: Path) -> None:
    """The A&A calculator with its charts (3 infantry and a tank against 3 infantry)."""
    page.goto("/calculators/aa")
    page.get_by_role("button", name="Calculate").click()
    page.locator("#calc-result svg.chart").first.wait_for()
    page.evaluate("() => window.scrollTo(0, document.getElementById('result-title').offsetTop - 8)")
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    print("calculator.png", flush=True)


def register(page: Any) -> str:
    name = f"captain-{secrets.token_hex(3)}"
    page.goto("/login")
    made = page.evaluate(
        """async ([name, password]) => {
          const { api, csrfToken } = await import("/static/frontend/common.js");
          await csrfToken(true);
          return api("POST", "/api/auth/register",
            {username: name, password, email: `${name}@example.org`});
        }""",
        [name, secrets.token_urlsafe(18)],
    )
    if not made["ok"]:
        raise SystemExit(f"could not register {name}: {made['data']}")
    return name


def new_game(page: Any) -> int:
    page.goto("/games")
    made = page.evaluate("""async () => {
      const { api } = await import("/static/frontend/common.js");
      const made = await api("POST", "/api/games", {seats: 3, name: "Screenshots",
        options: {win: "round-limit", round_limit: 6}});
      if (!made.ok) return made;
      await api("POST", `/api/games/${made.data.id}/bots`);
      await api("POST", `/api/games/${made.data.id}/start`);
      return made;
    }""")
    if not made["ok"]:
        raise SystemExit(f"could not make a game: {made['data']}")
    return int(made["data"]["id"])


def wait_for_us(page: Any, seconds: float = 120) -> dict[str, Any] | None:
    """Our legal actions once the game asks us something (leave and the like are always
    offered, so 'asked' means anything else); None when the game is over."""
    always = {"leave", "concede", "vote_draw", "prefer"}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        mine = page.evaluate(MINE)
        if mine["over"]:
            return None
        if set(mine["types"]) - always:
            return mine
        time.sleep(0.2)
    raise SystemExit("the game stopped asking our seat anything")


if __name__ == "__main__":
    raise SystemExit(main())
