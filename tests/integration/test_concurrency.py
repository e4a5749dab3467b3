"""Twenty submissions of one action at the same moment: exactly one applies.

alice's set-up is pending at version 0. Twenty threads, released together by a barrier, send the
same arrangement with ``expected_version=0``: ten with one shared idempotency key (a client
retrying) and ten with keys of their own (ten clients, or ten tabs). The game row lock
serialises them. Whoever gets the lock first applies the action; everyone after them either
holds the winner's key, and gets the winner's answer back unchanged, or meets version 1 and
gets 409 ``stale_version``. Either way the log has one entry and the version moved once.

Two databases:

- PostgreSQL (``SELECT ... FOR UPDATE``, a connection per thread from the pool): marked
  ``services``, the second pass of ``make test``.
- The embedded default's SQLite, where ``BEGIN IMMEDIATE`` serialises the writers instead. Not
  on the test database: pytest-django's SQLite test database is an in-memory, shared-cache one,
  where a second writer fails at once with "database table is locked" (SQLITE_LOCKED is not
  retried by the busy timeout), which says nothing about the server. So the twin runs in a child
  process on the embedded default itself: a fresh SQLite file in WAL mode, migrated, exactly as
  ``make run`` configures it.
"""

from __future__ import annotations

import json
import random
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from games.models import ActionLog, Game
from games.play import lobby
from games.play import submit as submissions
from games.play.reads import fetch
from games.web.exceptions import ApplicationError
from risk.rules import sample_action
from tests.conftest import ROOT, clear_cache
from tests.frontend.browser import migrated_copy, shared_dir
from tests.games.conftest import client_for, make_user

THREADS = 20
SHARED_KEY = "alice-retry"

#: What one submission came back with: the HTTP status and the body.
Outcome = tuple[int, dict[str, Any]]
Submit = Callable[[Any, Game, dict[str, Any], str], Outcome]


def through_the_service(user: Any, game: Game, action: dict[str, Any], key: str) -> Outcome:
    try:
        body = submissions.action_submit(
            game_id=game.pk, user=user, action=action, expected_version=0, idempotency_key=key
        )
    except ApplicationError as exc:
        return exc.status, exc.body()
    return 200, body


def through_http(user: Any, game: Game, action: dict[str, Any], key: str) -> Outcome:
    response = client_for(user).post(
        f"/api/games/{game.pk}/actions",
        {"action": action, "expected_version": 0, "idempotency_key": key},
        format="json",
    )
    return response.status_code, response.json()


SUBMITTERS: dict[str, Submit] = {"service": through_the_service, "http": through_http}


def new_game(alice: Any, bob: Any) -> Game:
    """alice and bob's game, just started: both are to arrange, version 0."""
    game = lobby.game_create(creator=alice, seats=2)
    lobby.game_join(game_id=game.pk, user=bob)
    return lobby.game_start(game_id=game.pk, user=alice)


def keys_for_twenty() -> list[str]:
    """Ten threads share one key, ten have their own; interleaved so neither half starts first."""
    return [SHARED_KEY if i % 2 else f"alice-tab-{i}" for i in range(THREADS)]


def submit_together(submit: Submit, user: Any, game: Game, keys: list[str]) -> list[Outcome]:
    """``submit`` once per key, each in its own thread, all released at the same moment."""
    state = fetch.game_state(game)
    action = sample_action(state, user.get_username(), random.Random(7)).to_dict()
    barrier = threading.Barrier(len(keys))
    outcomes: list[Outcome | BaseException | None] = [None] * len(keys)

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            outcomes[index] = submit(user, game, action, keys[index])
        except BaseException as exc:  # reported by the main thread
            outcomes[index] = exc
        finally:
            connection.close()  # this thread's own connection (back to the pool on PostgreSQL)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(keys))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a submission never returned"
    errors = [o for o in outcomes if isinstance(o, BaseException)]
    if errors:
        raise errors[0]
    return outcomes  # type: ignore[return-value]


def race(submit: Submit, alice: Any, bob: Any) -> dict[str, Any]:
    """Twenty submissions at once on a new game; what they got and what the game holds after."""
    game = new_game(alice, bob)
    keys = keys_for_twenty()
    outcomes = submit_together(submit, alice, game, keys)
    game.refresh_from_db()
    log = ActionLog.objects.filter(game=game).order_by("sequence")
    return {
        "keys": keys,
        "outcomes": outcomes,
        "version": game.version,
        "log": [
            {"sequence": e.sequence, "actor": e.actor, "key": e.idempotency_key,
             "response": e.response}
            for e in log
        ],
    }  # fmt: skip


def assert_exactly_one_applied(result: dict[str, Any]) -> None:
    keys, outcomes = result["keys"], [tuple(o) for o in result["outcomes"]]
    assert result["version"] == 1
    [entry] = result["log"]  # exactly one entry
    assert (entry["sequence"], entry["actor"]) == (1, "alice")
    # Every 200 is the applied action's own answer, to the winner or to a thread holding its key.
    answered = [i for i, (status, _) in enumerate(outcomes) if status == 200]
    assert answered, "nobody's submission applied"
    assert all(outcomes[i][1] == entry["response"] for i in answered)
    assert {keys[i] for i in answered} == {entry["key"]}
    assert len(answered) == keys.count(entry["key"])
    # Everyone else was told the game had moved on, and to which version.
    for i, (status, body) in enumerate(outcomes):
        if i not in answered:
            assert (status, body["error"], body["version"]) == (409, "stale_version", 1), body


# --- PostgreSQL --------------------------------------------------------------------------------


@pytest.fixture
def fast_and_inline(settings):
    """After-commit work (pushes, notices) runs in the submitting thread, not on a broker
    queue nobody reads; and twenty actions in a second are not a rate-limit test."""
    settings.WARBOARD_TASKS_INLINE = True
    rest = settings.REST_FRAMEWORK
    rates = {**rest["DEFAULT_THROTTLE_RATES"], "actions": "1000/min"}
    settings.REST_FRAMEWORK = {**rest, "DEFAULT_THROTTLE_RATES": rates}
    clear_cache()  # this worker's keys only: not FLUSHDB
    yield
    clear_cache()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)  # threads see only committed rows
@pytest.mark.parametrize("way", sorted(SUBMITTERS))
def test_twenty_simultaneous_submissions_apply_exactly_once_on_postgresql(fast_and_inline, way):
    assert connection.vendor == "postgresql"
    alice, bob = make_user("alice"), make_user("bob")

    result = race(SUBMITTERS[way], alice, bob)

    assert_exactly_one_applied(result)


# --- The embedded default's SQLite file --------------------------------------------------------

#: The child process: the embedded default (no DATABASE_URL: SQLite in WARBOARD_VAR_DIR).
CHILD = """
import json
import django
from django.conf import settings
from django.test.utils import setup_test_environment

django.setup()
setup_test_environment()  # the test client's host name, and emails kept in memory
settings.WARBOARD_TASKS_INLINE = True  # after-commit work done before the child exits
from tests.integration.test_concurrency import SUBMITTERS, race
from tests.games.conftest import make_user

alice, bob = make_user("alice"), make_user("bob")
print(json.dumps({way: race(submit, alice, bob) for way, submit in sorted(SUBMITTERS.items())}))
"""


def test_twenty_simultaneous_submissions_apply_exactly_once_on_the_embedded_sqlite_file(
    python: str, bare_env: dict[str, str], tmp_path_factory
):
    env = {**bare_env, "DJANGO_SETTINGS_MODULE": "config.settings"}
    # the run's migrated embedded database (``manage.py migrate`` on this file, made once)
    migrated_copy(shared_dir(tmp_path_factory), Path(bare_env["WARBOARD_VAR_DIR"]))

    child = subprocess.run(
        [python, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )

    assert child.returncode == 0, child.stderr[-3000:]
    assert (Path(bare_env["WARBOARD_VAR_DIR"]) / "warboard.sqlite3").is_file()
    results = json.loads(child.stdout.strip().splitlines()[-1])
    assert sorted(results) == sorted(SUBMITTERS)
    for result in results.values():
        assert_exactly_one_applied(result)
