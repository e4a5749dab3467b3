"""The browser tests' server: a real daphne on a free port, on the embedded default.

``Site`` gives daphne a fresh ``WARBOARD_VAR_DIR`` (SQLite, in-memory channel layer, in-process
tasks) holding a migrated database, with the static files collected as ``make run`` does; test
data is made in that database by ``manage.py shell -c`` in the same environment (so nothing here
shares the pytest-django test database). Playwright drives Debian's Chromium
(``/usr/bin/chromium``); Playwright's own browsers are never downloaded.

What every site starts from is made once per test run (``shared_dir``): the migrated database,
copied into each site's folder, and the collected static files, which every site serves. Each
made anew took 10-30 s of a loaded CI core per site. The ``manage.py`` commands go to one
forking server per site (``shell_server``) instead of a new interpreter each.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
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


def shared_dir(tmp_path_factory: Any) -> Path:
    """The folder the run's sites share (the migrated database and the static files): beside
    the pytest-xdist workers' own temporary folders, so all workers of one run find it."""
    base = Path(tmp_path_factory.getbasetemp())
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    path = root / "browser-shared"
    path.mkdir(exist_ok=True)
    return path


@contextlib.contextmanager
def _made_once(shared: Path, what: str) -> Iterator[bool]:
    """Under the run's lock: True when ``what`` is still to be made (the block makes it, and it
    is marked made if the block ends without an exception), False when it was made before."""
    with (shared / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        marker = shared / f"{what}.done"
        made = marker.exists()
        yield not made
        if not made:
            marker.touch()


def migrated_copy(shared: Path, var_dir: Path) -> None:
    """The embedded default's database, migrated, in ``var_dir``: a copy of the one migrated
    once per run in ``shared`` (``manage.py migrate`` cost each site 5-9 s of a loaded core)."""
    template = shared / "var"
    with _made_once(shared, "migrated") as making:
        if making:
            maker = Site(template)
            try:
                maker.manage("migrate", "--noinput")
            finally:
                maker.stop()
    var_dir.mkdir(parents=True, exist_ok=True)
    for db in template.glob("warboard.sqlite3*"):  # with WAL files, if any were left
        shutil.copy(db, var_dir / db.name)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Site:
    """daphne serving ``config.asgi`` from its own var folder; ``url`` is its address."""

    def __init__(self, var_dir: Path, shared: Path | None = None) -> None:
        self.var_dir = var_dir
        #: Where the run's migrated database and static files are (``shared_dir``); None: made
        #: in ``var_dir`` for this site alone.
        self.shared = shared
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
        # The calculators' 60 a minute neither: one A&A calculation with its questions is up
        # to six requests, and the calculator tests run a few dozen from the same address.
        # No start-up compile of the combat kernels: the first request that needs one loads it
        # from the run's numba cache (NUMBA_CACHE_DIR, kept from this environment); compiling
        # them all in each site's background took 27 s of a core when that cache was new.
        self.env = {**env, "WARBOARD_VAR_DIR": str(var_dir), "AI_DELAY_MS": "0", "DEBUG": "false",
                    "EMAIL_URL": "memorymail://", "THROTTLE_LOGIN": "1000/min",
                    "THROTTLE_CALCULATOR": "1000/min", "COMBAT_WARM_UP": "false"}  # fmt: skip
        if shared is not None:
            self.env["STATIC_ROOT"] = str(shared / "static")
        self.process: subprocess.Popen[bytes] | None = None
        self.commands: subprocess.Popen[str] | None = None

    def manage(self, *args: str, timeout: float = 180) -> str:
        """``manage.py <args>`` in the site's environment (through its ``shell_server``): the
        command's stdout; a failure is an ``AssertionError`` with its stdout and stderr."""
        if self.commands is None or self.commands.poll() is not None:
            self.commands = subprocess.Popen(
                [sys.executable, "-m", "tests.frontend.shell_server"], cwd=ROOT, env=self.env,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True,
            )  # fmt: skip
        assert self.commands.stdin is not None and self.commands.stdout is not None
        self.commands.stdin.write(json.dumps({"argv": list(args), "timeout": timeout}) + "\n")
        self.commands.stdin.flush()
        line = self.commands.stdout.readline()
        if not line:
            raise AssertionError(f"manage.py {args[0]}: the shell server died")
        reply = json.loads(line)
        if reply["rc"] != 0:
            raise AssertionError(
                f"manage.py {args[0]} failed ({reply['rc']}):\n{reply['out']}\n{reply['err']}"
            )
        return str(reply["out"])

    def shell(self, code: str, timeout: float = 180) -> str:
        return self.manage("shell", "-c", code, timeout=timeout)

    def _prepare(self) -> None:
        """A migrated database in ``var_dir`` and the static files: copied from (and made once
        in) ``shared``, or made here."""
        if self.shared is None:
            self.manage("migrate", "--noinput")
            self.manage("collectstatic", "--noinput", "--verbosity", "0")
            return
        migrated_copy(self.shared, self.var_dir)
        with _made_once(self.shared, "collected") as making:
            if making:
                maker = Site(self.shared / "var")
                maker.env["STATIC_ROOT"] = self.env["STATIC_ROOT"]
                try:
                    maker.manage("collectstatic", "--noinput", "--verbosity", "0")
                finally:
                    maker.stop()

    def start(self) -> None:
        self._prepare()
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
        """Stop daphne and the shell server (each with whatever it started)."""
        for process in (self.process, self.commands):
            if process is None or process.poll() is not None:
                continue
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)

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

    def game_to_place(self, username: str, name: str = "Keyboard game", rounds: int = 1) -> int:
        """A running, unrated 3-seat game (``rounds`` rounds, two bots) where ``username`` (a
        user already made) is asked to place armies: its id. Dealt and played up to that point
        in one shell, with the AI's hint as the person's answer to each decision before it (the
        set-up, a challenge). Not every deal gives a place decision (a poker pot may be counted
        instead of the bonus, rule R7, and the turn starts with the attacks): then another is
        dealt. Driving this through the page's hints took 50-100 s of each browser module's
        set-up."""
        code = GAME_TO_PLACE.format(username=username, name=name, rounds=rounds)
        out = self.shell(code, timeout=300)
        line = [x for x in out.splitlines() if x.startswith("PLACE ")]
        assert line, f"no game came to a place decision:\n{out}"
        return int(line[-1].split()[1])


#: ``Site.game_to_place``'s shell: deal, then let the bots move and answer ours with the hint
#: until ours is a placement on at least two territories of ours (PLACE <id>); our campaign,
#: the game's end, or one territory left to us by the bots' first turns: deal again (the
#: keyboard and board tests pick a territory other than the one the form shows).
GAME_TO_PLACE = """
import time, uuid
from django.contrib.auth import get_user_model
from games.models import Game, Seat
from games.play import driver, lobby, snapshots
from games.play.hints import game_hint
from games.play.submit import action_submit
from games.web.exceptions import ConflictError
from risk.ai import odds
from risk.rules.engine import legal_actions
odds.block(odds.CAP, odds.CAP, True)
odds.block(odds.CAP, odds.CAP, False)
user = get_user_model().objects.get(username={username!r})
campaign = {{"attack", "end_campaign", "cruise"}}
for _ in range(5):
    game = lobby.game_create(creator=user, seats=3, name={name!r}, rated=False,
                             options={{"win": "round-limit", "round_limit": {rounds}}})
    lobby.game_fill_with_bots(game_id=game.pk, user=user)
    lobby.game_start(game_id=game.pk, user=user)
    player = Seat.objects.get(game=game, user=user).player
    for _ in range(3000):
        game.refresh_from_db()
        state = snapshots.load_if_started(game)
        if game.status != Game.Status.RUNNING or state.over:
            break
        types = {{spec.type for spec in legal_actions(state, player)}}
        if "place" in types:
            if len(state.owned(player)) < 2:
                break  # the bots left one territory: nothing to pick on the board; deal again
            print("PLACE", game.pk)
            raise SystemExit(0)
        if types & campaign:
            break
        if types - {{"leave", "concede", "vote_draw", "prefer"}}:
            # The in-process tasks move the bots in threads beside this loop: a bot's move can
            # land between the hint and our answer (409: the game moved on). Read it again.
            hint = game_hint(game, user)
            try:
                action_submit(game_id=game.pk, user=user, action=hint["action"],
                              expected_version=hint["version"], idempotency_key=uuid.uuid4().hex)
            except ConflictError:
                continue
        elif not driver.advance(game.pk):
            time.sleep(0.05)
"""

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
