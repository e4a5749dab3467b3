"""``GET /api/games/{id}/replay`` of a finished game: computed once, sent gzipped, and anonymous
readers rate-limited per address (games.play.replay.game_log_replay,
games.play.api.compressed, games.common.throttles.ReplayThrottle).

A 4,430-entry game's replay was 2.1 MB and 0.4 s of CPU for every anonymous request. Each test
here failed before: the log was read and rendered again for the second request, no answer was
gzipped, and no reader was ever refused.
"""

from __future__ import annotations

import gzip
import json
import logging
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import ActionLog, Game
from games.play import lobby
from games.play.reads import shown
from tests.games.conftest import client_for, make_user
from tests.games.helpers import play_out

OPTIONS = {"win": "round-limit", "round_limit": 1}


@pytest.fixture(scope="module")
def finished(django_db_setup, django_db_blocker) -> Any:
    with django_db_blocker.unblock(), transaction.atomic():
        alice, bob = make_user("rc-alice"), make_user("rc-bob")
        game = lobby.game_create(creator=alice, seats=3, options=OPTIONS)
        lobby.game_join(game_id=game.pk, user=bob)
        lobby.game_fill_with_bots(game_id=game.pk, user=alice)
        game = lobby.game_start(game_id=game.pk, user=alice)
        game = play_out(game, [alice, bob])
        assert game.status == Game.Status.FINISHED
        yield game
        transaction.set_rollback(True)


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def url(game: Game) -> str:
    return f"/api/games/{game.pk}/replay"


def test_a_second_request_is_served_from_the_cache(finished, db, monkeypatch):
    """The log is read and rendered once: the second request reads no log row and builds
    nothing, and gets the same answer."""
    built: list[int] = []
    real = shown.replay

    def counted(game: Game) -> dict[str, Any]:
        built.append(game.pk)
        return real(game)

    monkeypatch.setattr(shown, "replay", counted)
    first = APIClient().get(url(finished))
    with CaptureQueriesContext(connection) as queries:
        second = APIClient().get(url(finished))
    assert first.status_code == second.status_code == 200
    assert built == [finished.pk]
    assert not [q for q in queries.captured_queries if "games_actionlog" in q["sql"]]
    assert json.loads(second.content) == json.loads(first.content)
    assert json.loads(first.content)["entries"][0]["sequence"] == 1


def test_the_answer_is_gzipped_for_a_client_that_accepts_it(finished, db):
    plain = APIClient().get(url(finished))
    zipped = APIClient().get(url(finished), HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert plain.status_code == zipped.status_code == 200
    assert "Content-Encoding" not in plain
    assert zipped["Content-Encoding"] == "gzip"
    assert zipped["Content-Type"] == "application/json"
    assert "Accept-Encoding" in zipped["Vary"] and "Accept-Encoding" in plain["Vary"]
    unzipped = gzip.decompress(zipped.content)
    assert unzipped == plain.content
    assert len(zipped.content) * 4 < len(plain.content)
    answer = json.loads(unzipped)
    assert answer["server_seed"]
    assert len(answer["entries"]) == ActionLog.objects.filter(game=finished).count()


def test_anonymous_readers_are_rate_limited_per_address(finished, db, settings):
    rest = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **rest, "DEFAULT_THROTTLE_RATES": {**rest["DEFAULT_THROTTLE_RATES"], "replays": "2/min"}
    }  # fmt: skip
    answers = [APIClient().get(url(finished)) for _ in range(3)]
    board = APIClient().get(f"{url(finished)}/board")
    other = APIClient(REMOTE_ADDR="192.0.2.7").get(url(finished))
    player = client_for(finished.seats.get(position=0).user).get(url(finished))
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[2].json()["error"] == "throttled"
    assert 1 <= int(answers[2]["Retry-After"]) <= 60
    assert board.status_code == 429  # the board replay counts in the same scope
    assert other.status_code == 200  # another address has its own count
    assert player.status_code == 200  # signed-in players are not counted


def test_with_the_caches_redis_unreachable_the_replay_is_still_served(finished, db, caplog):
    """A Redis outage costs the cache, not the answer: each request computes the replay
    (logged), and the throttle lets it through uncounted."""
    plain = APIClient().get(url(finished)).content
    dead = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        }
    }
    with override_settings(CACHES=dead), caplog.at_level(logging.WARNING):
        answers = [APIClient().get(url(finished)) for _ in range(2)]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[1].content == plain
    key = f"replay-log:1:{finished.pk}:{finished.version}"
    assert f"replay cache unavailable (cache down); {key} computed afresh" in caplog.messages
