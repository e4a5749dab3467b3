"""A whole game played over websockets: every seat a real user on its own socket, driven by a
random bot client (``tests.sockets.SocketPlayer``), on the in-memory channel layer with the
allied armies' AI run inline."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from rest_framework.authtoken.models import Token

from combat.dice import commitment_of
from games.models import Game
from games.play import lobby
from games.play.reads import fetch
from tests.sockets import SocketPlayer, api_view, hidden_keys

pytestmark = pytest.mark.django_db(transaction=True)


#: The game ends on its own after this many rounds (ranked by territories, then armies): a random
#: four-player game to domination takes thousands of actions, this a few hundred.
OPTIONS = {"win": "round-limit", "round_limit": 3}
SEED = "5eed" * 16


@pytest.fixture(autouse=True)
def _unthrottled(settings):
    """Bots act faster than the per-user action rate a person gets."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "actions": "100000/min",
        },
    }  # fmt: skip
    cache.clear()
    yield
    cache.clear()  # the throttle's history of these users would outlive the test


def start_game(users, options, seed: str) -> tuple[int, list[str]]:
    game = lobby.game_create(creator=users[0], seats=len(users), options=options)
    # A fixed server seed: the same deal and dice every run, so the game (and the test's time)
    # does not vary from run to run.
    Game.objects.filter(pk=game.pk).update(server_seed=seed, seed_commitment=commitment_of(seed))
    for user in users[1:]:
        lobby.game_join(game_id=game.pk, user=user)
    lobby.game_start(game_id=game.pk, user=users[0])
    return game.pk, [Token.objects.get_or_create(user=user)[0].key for user in users]


async def test_four_bots_play_a_whole_game_over_their_sockets(alice, bob, carol, django_user_model):
    dave = await database_sync_to_async(django_user_model.objects.create_user)("dave")
    users = [alice, bob, carol, dave]
    game_id, tokens = await database_sync_to_async(start_game)(users, OPTIONS, SEED)
    players = [
        SocketPlayer(user, game_id, token=token, seed=f"game-{n}")
        for n, (user, token) in enumerate(zip(users, tokens, strict=True))
    ]
    for player in players:
        await player.connect()

    started = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), timeout=600)
    elapsed = time.monotonic() - started

    game = await database_sync_to_async(fetch.game_get)(game_id)
    assert game.status == "finished", f"not over after {elapsed:.0f}s"
    assert sorted(game.result["ranking"]) == ["alice", "bob", "carol", "dave"]
    assert game.result["winner"] == game.result["ranking"][0]
    for player, user in zip(players, users, strict=True):
        final = player.messages[-1]
        assert final["type"] == "update", (player.player, final)
        assert (final["status"], final["version"]) == ("finished", game.version)
        assert "view" not in final and final["base_version"] == game.version - 1
        # The view rebuilt from the first state and every patch since is the server's view.
        assert player.view == await database_sync_to_async(api_view)(user, game_id)
        assert player.view["over"] is True and player.view["you"] == player.player
        assert player.view["winner"] == game.result["winner"]
        assert player.sent > 0
        # Each socket heard every version once, in order (none lost, none twice).
        versions = [m["version"] for m in player.messages if m["type"] == "update"]
        assert versions == list(range(1, game.version + 1))
        assert sorted(player.views) == list(range(game.version + 1))
        # Its own hands only, all game long; the seed only in the last view.
        for version, view in player.views.items():
            for path in hidden_keys(view):
                index = int(path.split("seats[")[1].split("]")[0])
                seat, turn = view["seats"][index], view["turn"] or {}
                # Its own seat; or, only its Risk hand, an allied army whose turn it is playing
                # (RULES.md A7: the declarer may turn in the ally's sets).
                allied_turn = (
                    path.endswith("risk_hand")
                    and turn.get("seat") == seat["id"]
                    and turn.get("controller") == view["you"]
                    and turn.get("for_seat") == view["you"]
                )
                assert seat["id"] == view["you"] or allied_turn, (version, path)
            assert ("seed" in view) == (version == game.version), version
        updates = [json.dumps(m) for m in player.messages if m["type"] == "update"]
        assert not any('"seed"' in text for text in updates[:-1]) and '"/seed"' in updates[-1]
    for player in players:
        await player.socket.disconnect()
