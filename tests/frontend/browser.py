"""The browser tests' server: a real daphne on a free port, on the embedded default.

``Site`` migrates a fresh ``WARBOARD_VAR_DIR`` (SQLite, in-memory channel layer, in-process
tasks), collects the static files as ``make run`` does, and starts daphne; test data is made in
that database by ``manage.py shell -c`` in the same environment (so nothing here shares the
pytest-django test database). Playwright drives Debian's Chromium (``/usr/bin/chromium``);
Playwright's own browsers are never downloaded.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.conftest import ROOT

CHROMIUM = "/usr/bin/chromium"
#: The game page's module, imported by the tests' scripts in the page by the very URL the page
#: loaded it from (collectstatic's hashed name here), so the same module instance: the pages keep
#: no global of their own. The API helper (stateless) is imported by its plain name.
GAME_MODULE = "import(document.querySelector('script[src*=\"/frontend/game.\"]').src)"
COMMON_MODULE = "/static/frontend/common.js"
#: What the game page holds ({game, view, version, status, connection}), for page.evaluate.
GAME_STATE = f"async () => (await {GAME_MODULE}).game.state()"
PASSWORD = "browser-test-pass-1234"
#: Variables that would point the server at PostgreSQL/Redis: the site is the embedded default.
_SERVICES_VARS = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")


def chromium_path() -> str | None:
    """Debian's Chromium, when installed."""
    return CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Site:
    """daphne serving ``config.asgi`` from its own var folder; ``url`` is its address."""

    def __init__(self, var_dir: Path) -> None:
        self.var_dir = var_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = var_dir.parent / "daphne.log"
        env = {k: v for k, v in os.environ.items() if k not in _SERVICES_VARS}
        # Mail stays in memory (``memorymail://``): the console backend printed every "your turn"
        # mail to the shells' stdout from the task threads, in the middle of the lines the tests
        # read there ("READY" with a mail inside it failed test_browser_ships in a CI run).
        # Sign-ins are not throttled here: every browser context signs in from 127.0.0.1, and
        # the site's 10 a minute per address (tested in tests/games) refused the rooms test's
        # two sign-ins after the other modules' in a CI run (429). Nothing here tests it.
        self.env = {**env, "WARBOARD_VAR_DIR": str(var_dir), "AI_DELAY_MS": "0", "DEBUG": "false",
                    "EMAIL_URL": "memorymail://", "THROTTLE_LOGIN": "1000/min"}  # fmt: skip
        self.process: subprocess.Popen[bytes] | None = None

    def manage(self, *args: str, timeout: float = 180) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True,
            text=True, timeout=timeout,
        )  # fmt: skip
        if result.returncode != 0:
            raise AssertionError(f"manage.py {args[0]} failed:\n{result.stdout}\n{result.stderr}")
        return result.stdout

    def shell(self, code: str, timeout: float = 180) -> str:
        return self.manage("shell", "-c", code, timeout=timeout)

    def start(self) -> None:
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput", "--verbosity", "0")
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p",
                 str(self.port), "config.asgi:application"],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:
                    if json.loads(response.read()).get("status") == "ok":
                        return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise AssertionError(f"daphne never answered /healthz:\n{self.text()}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    # --- test data ----------------------------------------------------------------------------

    def create_user(self, username: str) -> None:
        self.shell(
            "from django.contrib.auth import get_user_model\n"
            f"get_user_model().objects.create_user({username!r}, password={PASSWORD!r}, "
            f"email={username + '@example.org'!r})"
        )

    def finished_game(self, username: str, client_seed: str = "") -> int:
        """A game ``username`` creates with two bots and leaves to them (with a client seed, so
        the engine seed is the mixed one): the AI plays it to the end (one round). Its id."""
        out = self.shell(
            FINISHED_GAME.format(username=username, seed=client_seed, password=PASSWORD),
            timeout=300,
        )
        line = [x for x in out.splitlines() if x.startswith("FINISHED ")]
        assert line, f"the game did not finish:\n{out}"
        return int(line[-1].split()[1])


FINISHED_GAME = """
import time
from django.contrib.auth import get_user_model
from games.models import Game, Seat
from games.play import driver, lobby, operations
from risk.ai import odds
# The AI's odds tables grow in place and the in-process tasks run in threads: solve them fully
# first so two tasks never grow them at once (seen: an IndexError in odds.block otherwise).
odds.block(odds.CAP, odds.CAP, True)
odds.block(odds.CAP, odds.CAP, False)
user = get_user_model().objects.create_user({username!r}, password={password!r})
game = lobby.game_create(creator=user, seats=3, client_seed={seed!r},
                         options={{"win": "round-limit", "round_limit": 1}})
lobby.game_fill_with_bots(game_id=game.pk, user=user)
lobby.game_start(game_id=game.pk, user=user)
operations.seat_replace_with_bot(game, Seat.objects.get(game=game, player={username!r}))
for _ in range(1200):
    game.refresh_from_db()
    if game.status == Game.Status.FINISHED:
        print("FINISHED", game.pk)
        break
    driver.advance(game.pk)
    time.sleep(0.05)
"""


def game_state(page: Any) -> dict[str, Any]:
    """What the game page holds now (game.js's ``game.state()``)."""
    return page.evaluate(GAME_STATE)  # type: ignore[no-any-return]


def wait_for_game(page: Any, predicate: str, arg: Any = None) -> None:
    """Wait until ``predicate(state, arg)`` (JS source) holds of the game page's state. The page's
    ``game`` handle is put on ``window.testGame`` first: Playwright's wait_for_function polls a
    synchronous function, and a module's exports are reached only by an (async) import."""
    page.evaluate(f"async () => {{ window.testGame = (await {GAME_MODULE}).game; }}")
    page.wait_for_function(f"(arg) => ({predicate})(window.testGame.state(), arg)", arg=arg)
