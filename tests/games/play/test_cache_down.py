"""With the cache's Redis unreachable (a real refused connection, not a stand-in), a person's
action still commits: the throttle lets it through and logs that it could not count it."""

from __future__ import annotations

import logging
import random

import pytest

from games.models import ActionLog
from games.play import submit
from games.play.reads import fetch
from risk.rules.bots import RandomBot, decide
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db

#: Nothing listens on port 1: every cache call fails at once with a refused connection.
DEAD_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
    }
}


def test_an_action_commits_when_the_throttles_redis_is_unreachable(alice, settings, caplog):
    game = start_game(alice, 3)
    state = fetch.game_state(game)
    action = decide(RandomBot(random.Random(3)), state, "alice").to_dict()
    action.pop("player")
    settings.CACHES = DEAD_REDIS
    with caplog.at_level(logging.WARNING, logger="games.play.submit"):
        submit.check_action_rate(alice.pk)
        answer = submit.action_submit(
            game_id=game.pk, user=alice, action=action, expected_version=game.version
        )
    assert answer["version"] == 1
    assert ActionLog.objects.filter(game=game).count() == 1
    warnings = [r.getMessage() for r in caplog.records if r.name == "games.play.submit"]
    assert warnings == [f"action throttle unavailable (cache down); user {alice.pk} not counted"]


def test_a_token_is_issued_when_the_login_throttles_redis_is_unreachable(alice, settings, caplog):
    """The login rate limit read Redis, so with Redis down every sign-in was a 500.
    Now the request goes through, uncounted and logged; a wrong password is still refused."""
    from rest_framework.test import APIClient

    from tests.games.conftest import PASSWORD

    settings.CACHES = DEAD_REDIS
    api = APIClient()
    with caplog.at_level(logging.WARNING, logger="games.web.throttles"):
        issued = api.post(
            "/api/auth/token", {"username": "alice", "password": PASSWORD}, format="json"
        )
        refused = api.post(
            "/api/auth/token", {"username": "alice", "password": "wrong" * 4}, format="json"
        )
    assert issued.status_code == 200 and len(issued.json()["token"]) == 40
    assert refused.status_code == 400
    warnings = [r.getMessage() for r in caplog.records if r.name == "games.web.throttles"]
    assert warnings == ["login throttle unavailable (cache down); request not counted"] * 2
