"""Playing over HTTP: ``POST /api/games/{id}/actions``, ``GET /api/games/{id}`` and its events.

Most tests start from the same table: alice and bob at a two-seat game (four allied armies), past
the set-up, alice's first turn in its reinforcement phase. The server seed is pinned to one
under which alice opens (the first player is drawn from the seed), so the tests can name who
acts; everything else is as the lobby makes it.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import random
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games.models import ActionLog, Game
from games.play import lobby
from games.play import submit as submissions
from games.play.reads import fetch
from risk.rules import IllegalAction, apply, game_dice, new_game, sample_action, to_dict
from risk.rules.actions import Place
from tests.games.conftest import client_for
from tests.games.helpers import past_setup, play_out, start_game

pytestmark = pytest.mark.django_db


@functools.cache
def seed_where_alice_opens() -> str:
    """A server seed under which alice takes the first turn of an alice-and-bob game."""
    for n in itertools.count():
        seed = hashlib.sha256(f"alice-opens-{n}".encode()).hexdigest()
        if new_game(["alice", "bob"], seed=seed).first_seat == "alice":
            return seed
    raise AssertionError("unreachable")


@pytest.fixture
def setting_up(alice, bob, monkeypatch) -> Game:
    """alice and bob's game, just started: both are to arrange their armies."""
    monkeypatch.setattr(lobby, "new_seed", seed_where_alice_opens)
    return start_game(alice, 2, others=[bob])


@pytest.fixture
def game(setting_up, alice, bob) -> Game:
    """alice and bob's game past the set-up: alice's first turn, reinforcing."""
    game = play_out(setting_up, [alice, bob], until=past_setup)
    turn = fetch.game_state(game).turn
    assert turn is not None and (turn.controller, turn.phase) == ("alice", "reinforce")
    return game


def actions_url(game: Game) -> str:
    return f"/api/games/{game.pk}/actions"


def submit(user, game: Game, action: dict[str, Any], version: int | None = None, **extra: Any):
    body = {"action": action, "expected_version": game.version if version is None else version}
    return client_for(user).post(actions_url(game), {**body, **extra}, format="json")


def refusal(response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.json()
    body = response.json()
    assert list(body)[:4] == ["error", "message", "field", "allowed"]
    return body


def territory_of(game: Game, owner: str) -> str:
    state = fetch.game_state(game)
    return next(name for name, t in sorted(state.territories.items()) if t.owner == owner)


def place(game: Game, owner: str, armies: int = 1) -> dict[str, Any]:
    return {"type": "place", "territory": territory_of(game, owner), "armies": armies}


def snapshot(game: Game) -> tuple[dict[str, Any], int, int]:
    """Everything an action could write: the board, the log's length, the game's version."""
    game.refresh_from_db()
    board = to_dict(fetch.game_state(game))
    return board, ActionLog.objects.filter(game=game).count(), game.version


# --- Applying an action ------------------------------------------------------------------------


def test_an_applied_action_answers_its_events_and_the_next_version(game, alice):
    version = game.version
    territory = territory_of(game, "alice")

    response = submit(alice, game, {"type": "place", "territory": territory, "armies": 2})

    assert response.status_code == 200
    body = response.json()
    assert (body["version"], body["sequence"]) == (version + 1, version + 1)
    assert body["events"] and all("type" in event for event in body["events"])
    game.refresh_from_db()
    assert game.version == version + 1
    entry = ActionLog.objects.get(game=game, sequence=version + 1)
    assert (entry.actor, entry.source, entry.user) == ("alice", "player", alice)
    assert entry.action == {"type": "place", "player": "alice", "territory": territory,
                            "armies": 2}  # fmt: skip


def test_the_game_shows_whose_turn_it_is_and_the_pending_decision(game, alice):
    body = client_for(alice).get(f"/api/games/{game.pk}").json()

    assert body["version"] == game.version
    assert body["turn"] == {"seat": "alice", "controller": "alice", "phase": "reinforce",
                            "round": 1}  # fmt: skip
    assert body["pending"] == [
        {"player": "alice", "seat": "alice", "kind": "reinforce", "deadline": None}
    ]


def test_a_spectator_sees_the_turn_and_the_public_view(game):
    body = APIClient().get(f"/api/games/{game.pk}").json()

    assert body["you"] is None
    assert body["turn"]["controller"] == "alice"
    assert "risk_hand" not in str(body["view"])


# --- Refusals ----------------------------------------------------------------------------------


def test_an_action_missing_a_field_is_refused_naming_it(game, alice):
    body = refusal(submit(alice, game, {"type": "place", "armies": 1}), 400)

    assert (body["error"], body["field"]) == ("invalid_action", "action.territory")


def test_an_unknown_action_type_is_refused_naming_the_type_field(game, alice):
    body = refusal(submit(alice, game, {"type": "teleport"}), 400)

    assert (body["error"], body["field"]) == ("invalid_action", "action.type")
    assert "teleport" in body["message"]


def test_an_action_that_is_not_an_object_is_refused(game, alice):
    body = refusal(submit(alice, game, "end_turn"), 400)  # type: ignore[arg-type]

    assert body["field"] == "action"


def test_an_illegal_action_is_refused_with_the_engines_reason_and_rule(game, alice):
    bobs = territory_of(game, "bob")
    state = fetch.game_state(game)
    with pytest.raises(IllegalAction) as refused:
        apply(state, Place("alice", bobs, 1), game_dice(state))
    engine = refused.value

    body = refusal(submit(alice, game, {"type": "place", "territory": bobs, "armies": 1}), 400)

    assert body["error"] == "illegal_action"
    assert (body["message"], body["rule"]) == (engine.reason, engine.code)
    assert body["field"] == (f"action.{engine.field}" if engine.field else "action")


def test_the_wrong_kind_of_action_for_your_own_decision_is_illegal(setting_up, alice):
    # alice is to arrange her armies; a reinforcement now is not allowed, but the decision
    # the game waits for is hers: 400, not 403 not_your_decision.
    body = refusal(submit(alice, setting_up, place(setting_up, "alice")), 400)

    assert (body["error"], body["field"], body["rule"]) == (
        "illegal_action", "action.type", "not-your-turn",
    )  # fmt: skip


def test_an_action_without_the_expected_version_is_refused_naming_it(game, alice):
    response = client_for(alice).post(
        actions_url(game), {"action": place(game, "alice")}, format="json"
    )

    assert refusal(response, 400)["field"] == "expected_version"


def test_bob_may_not_take_alices_decision(game, bob):
    body = refusal(submit(bob, game, place(game, "bob")), 403)

    assert body["error"] == "not_your_decision"
    assert "alice" in body["message"]


def test_bob_may_not_act_in_alices_name(game, bob):
    body = refusal(submit(bob, game, {**place(game, "alice"), "player": "alice"}), 403)

    assert (body["error"], body["field"]) == ("not_your_decision", "action.player")


def test_a_player_without_a_seat_may_not_act(game, carol):
    body = refusal(submit(carol, game, place(game, "alice")), 403)

    assert body["error"] == "not_seated"


def test_a_player_without_a_seat_is_told_so_even_when_naming_a_seated_player(game, carol):
    body = refusal(submit(carol, game, {**place(game, "alice"), "player": "alice"}), 403)

    assert body["error"] == "not_seated"


def test_a_stale_version_is_refused_with_the_current_one(game, alice):
    body = refusal(submit(alice, game, place(game, "alice"), version=game.version - 1), 409)

    assert (body["error"], body["field"]) == ("stale_version", "expected_version")
    assert body["version"] == game.version


def arrangement(game: Game, player: str) -> dict[str, Any]:
    """A legal set-up of ``player``'s armies, as a client sends it (no ``player``)."""
    state = fetch.game_state(game)
    action = sample_action(state, player, random.Random(f"arrange-{player}")).to_dict()
    assert action.pop("type") == "arrange" and action.pop("player") == player
    return {"type": "arrange", **action}


def arranged(game: Game) -> set[str]:
    return {s.id for s in fetch.game_state(game).seats if s.set_up}


def test_two_players_arranging_against_the_same_version_are_both_applied(setting_up, alice,
                                                                         bob):  # fmt: skip
    """Both arrange at once: each client read version v. bob's answer commits after alice's,
    against v, and is applied too (it crossed only her answer to the same decision)."""
    game = setting_up
    version = game.version
    alice_arranges, bob_arranges = arrangement(game, "alice"), arrangement(game, "bob")

    first = submit(alice, game, alice_arranges, version=version)
    second = submit(bob, game, bob_arranges, version=version)

    assert (first.status_code, second.status_code) == (200, 200), second.json()
    assert (first.json()["version"], second.json()["version"]) == (version + 1, version + 2)
    game.refresh_from_db()
    assert {"alice", "bob"} <= arranged(game)
    assert [e.actor for e in ActionLog.objects.filter(game=game, sequence__gt=version)][:2] == [
        "alice", "bob"]  # fmt: skip


def test_a_crossed_answer_the_current_state_refuses_is_a_conflict(setting_up, alice, bob):
    """Crossing is judged on the state now: an arrangement the engine refuses there is a 409
    naming the engine's reason (the client is to reload), not applied on the old reading."""
    game = setting_up
    version = game.version
    assert submit(alice, game, arrangement(game, "alice"), version=version).status_code == 200
    wrong = arrangement(game, "bob")
    wrong["arrangement"] = [[name, 1] for name, _ in wrong["arrangement"]]  # too few armies

    body = refusal(submit(bob, game, wrong, version=version), 409)

    assert (body["error"], body["field"], body["version"]) == (
        "stale_version", "expected_version", version + 1)  # fmt: skip
    assert "bob" not in arranged(game)


def test_answering_twice_against_the_same_version_is_a_conflict(setting_up, alice):
    """alice's own answer since her version: she is no longer asked, so it is a real conflict
    (409, not 'not your decision'), and nothing is applied twice."""
    game = setting_up
    version = game.version
    assert submit(alice, game, arrangement(game, "alice"), version=version).status_code == 200

    body = refusal(submit(alice, game, arrangement(game, "alice"), version=version), 409)

    assert body["error"] == "stale_version"
    assert ActionLog.objects.filter(game=game, actor="alice").count() == 1


def test_a_turns_action_against_an_older_version_is_a_conflict_though_still_legal(game, alice):
    """A turn is one player's: a placement against the version before alice's own placement is
    refused, though placing is still legal (it might have been sent twice)."""
    version = game.version
    assert submit(alice, game, place(game, "alice"), version=version).status_code == 200

    body = refusal(submit(alice, game, place(game, "alice"), version=version), 409)

    assert (body["error"], body["version"]) == ("stale_version", version + 1)


def test_an_action_before_the_start_is_refused(alice, bob):
    game = lobby.game_create(creator=alice, seats=2)
    lobby.game_join(game_id=game.pk, user=bob)

    body = refusal(submit(alice, game, {"type": "end_turn"}), 409)

    assert body["error"] == "not_running"


def test_an_unknown_game_is_not_found(alice):
    response = client_for(alice).post(
        "/api/games/999/actions", {"action": {"type": "end_turn"}, "expected_version": 0},
        format="json",
    )  # fmt: skip

    assert refusal(response, 404)["error"] == "not_found"


def test_a_visitor_may_not_act(game):
    response = APIClient().post(
        actions_url(game), {"action": place(game, "alice"), "expected_version": game.version},
        format="json",
    )  # fmt: skip

    assert response.status_code in (401, 403)
    assert response.json()["error"] == "not_authenticated"


def test_a_refused_action_writes_nothing(game, alice, bob, carol):
    before = snapshot(game)
    refused = [
        submit(alice, game, place(game, "bob")),
        submit(alice, game, place(game, "alice", armies=99)),
        submit(alice, game, {"type": "place", "armies": 1}),
        submit(alice, game, place(game, "alice"), version=game.version + 1),
        submit(bob, game, place(game, "bob")),
        submit(carol, game, place(game, "alice")),
    ]

    assert [r.status_code for r in refused] == [400, 400, 400, 409, 403, 403]
    assert snapshot(game) == before


# --- Idempotency -------------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["idempotency_key", "invite"])
def test_a_nul_character_in_a_key_is_refused_before_it_reaches_the_database(game, alice, field):
    """Schemathesis: PostgreSQL text cannot hold NUL, so a key with one was a 500
    there (the key is stored and looked up); every other request string refuses it too."""
    before = snapshot(game)
    body = refusal(submit(alice, game, place(game, "alice"), **{field: "key\x00"}), 400)

    assert (body["error"], body["field"]) == ("invalid", field)
    assert snapshot(game) == before


def test_a_repeated_idempotency_key_returns_the_first_answer_and_applies_nothing(game, alice):
    version = game.version
    action = place(game, "alice")

    first = submit(alice, game, action, idempotency_key="alice-1")
    again = submit(alice, game, action, version=version, idempotency_key="alice-1")

    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    game.refresh_from_db()
    assert game.version == version + 1
    assert ActionLog.objects.filter(game=game, idempotency_key="alice-1").count() == 1
    assert ActionLog.objects.filter(game=game).count() == version + 1


def test_a_repeated_key_wins_over_a_different_action_sent_with_it(game, alice):
    first = submit(alice, game, place(game, "alice"), idempotency_key="alice-1")
    retry = submit(alice, game, {"type": "teleport"}, idempotency_key="alice-1")

    assert retry.status_code == 200
    assert retry.json() == first.json()


def test_the_same_key_from_another_player_is_their_own(setting_up, alice, bob):
    game = setting_up
    alices = submissions.action_submit(
        game_id=game.pk, user=alice, action=_arrangement(game, "alice"), expected_version=0,
        idempotency_key="first-move",
    )  # fmt: skip

    response = submit(bob, game, _arrangement(game, "bob"), version=alices["version"],
                      idempotency_key="first-move")  # fmt: skip

    assert response.status_code == 200
    assert response.json()["sequence"] == alices["sequence"] + 1
    keyed = ActionLog.objects.filter(game=game, idempotency_key="first-move")
    assert sorted(keyed.values_list("actor", flat=True)) == ["alice", "bob"]


def _arrangement(game: Game, player: str) -> dict[str, Any]:
    """A legal set-up for ``player``, picked by the random player."""
    return sample_action(fetch.game_state(game), player, random.Random(0)).to_dict()


# --- The log -----------------------------------------------------------------------------------


def test_the_events_after_n_are_the_entries_after_n(game, alice, bob):
    submit(alice, game, place(game, "alice"))
    game.refresh_from_db()

    everything = client_for(bob).get(f"/api/games/{game.pk}/events").json()
    latest = client_for(bob).get(f"/api/games/{game.pk}/events", {"after": game.version - 1})

    assert [e["sequence"] for e in everything["entries"]] == list(range(1, game.version + 1))
    assert everything["version"] == game.version
    body = latest.json()
    assert [e["sequence"] for e in body["entries"]] == [game.version]
    assert (body["after"], body["last"]) == (game.version - 1, game.version)
    assert body["entries"][0]["actor"] == "alice"
    assert "rolls" not in body["entries"][0]  # revealed only once the game is over


@pytest.mark.parametrize(
    "after", ["-1", "x", "0.0", "1e3", " 1", "1000000000000000000", ["0", "1"]]
)
def test_a_bad_after_is_refused_naming_it(game, alice, after):
    """Schemathesis: "0.0" was read as 0 and a repeated after as its last value."""
    response = client_for(alice).get(f"/api/games/{game.pk}/events", {"after": after})

    assert refusal(response, 400)["field"] == "after"


def test_the_replay_waits_for_the_end_of_the_game(game, alice):
    response = client_for(alice).get(f"/api/games/{game.pk}/replay")

    assert refusal(response, 409)["error"] == "not_over"


# --- Rate limit --------------------------------------------------------------------------------


@pytest.fixture
def three_actions_a_minute(settings):
    rest = settings.REST_FRAMEWORK
    rates = {**rest["DEFAULT_THROTTLE_RATES"], "actions": "3/min"}
    settings.REST_FRAMEWORK = {**rest, "DEFAULT_THROTTLE_RATES": rates}
    cache.clear()  # the counts live in the cache, which outlives a test
    yield
    cache.clear()


def test_the_fourth_action_in_a_minute_is_throttled(game, alice, bob, three_actions_a_minute):
    stale = game.version + 5  # refused, but counted all the same

    answers = [submit(alice, game, place(game, "alice"), version=stale) for _ in range(4)]
    bobs = submit(bob, game, place(game, "bob"), version=stale)

    assert [r.status_code for r in answers] == [409, 409, 409, 429]
    assert refusal(answers[3], 429)["error"] == "throttled"
    assert "Retry-After" in answers[3].headers
    assert bobs.status_code == 409  # counted per user: bob still has his three


# --- A batch of placements -------------------------------------------------------------------


def test_a_batch_of_placements_is_one_action_and_a_bad_entry_refuses_all_of_it(game, alice):
    """The board's draft of a reinforcement is one ``deploy``: one version, one log entry, one
    ``placed`` event per entry; one entry the rules refuse refuses the batch, naming it, and
    nothing of it is written."""
    state = fetch.game_state(game)
    mine = sorted(state.owned("alice"))[:2]
    left = state.turn.to_place
    before = snapshot(game)
    bad = [[mine[0], 1], [territory_of(game, "bob"), 1]]

    body = refusal(submit(alice, game, {"type": "deploy", "placements": bad}), 400)

    assert (body["error"], body["field"], body["rule"]) == (
        "illegal_action", "action.placements[1]", "not-yours"
    )  # fmt: skip
    assert body["message"].startswith(f"placement 2 (1 on {bad[1][0]})")
    assert snapshot(game) == before
    good = [[mine[0], left - 1], [mine[1], 1]]
    response = submit(alice, game, {"type": "deploy", "placements": good})
    assert response.status_code == 200, response.json()
    placed = [(e["territory"], e["armies"]) for e in response.json()["events"]
              if e["type"] == "placed"]  # fmt: skip
    assert placed == [(mine[0], left - 1), (mine[1], 1)]
    after = fetch.game_state(game)
    assert after.turn.to_place == 0
    assert after.territories[mine[0]].armies == state.territories[mine[0]].armies + left - 1
    assert response.json()["version"] == before[2] + 1
