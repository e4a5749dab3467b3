"""``manage.py verify_game`` and the replay: every roll re-derived, the game replayed to its end.

One game is played to the end once for the module (about ten seconds of play) inside an outer
transaction that is rolled back when the module is done; each test runs in a savepoint of it, so
a test that tampers with a row leaves the next one the untouched game.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import dataclass
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from games.models import ActionLog, Game, GameSnapshot, Seat
from games.play import lobby
from games.play.seeds import engine_seed
from games.play.verify import game_verify
from games.web.exceptions import ConflictError
from tests.conftest import ROOT
from tests.games.conftest import client_for, make_user
from tests.games.helpers import play_out

BOB_SEED = "bob's lucky socks"
OPTIONS = {"win": "round-limit", "round_limit": 2}


@dataclass(frozen=True)
class Finished:
    game_id: int
    commitment: str  # as the POST /api/games response published it
    alice: Any
    bob: Any


@pytest.fixture(scope="module")
def finished(django_db_setup, django_db_blocker) -> Finished:
    """alice (created over HTTP), bob (with a client seed) and a bot, played to the end."""
    with django_db_blocker.unblock(), transaction.atomic():
        alice, bob = make_user("v-alice"), make_user("v-bob")
        created = client_for(alice).post(
            "/api/games", {"seats": 3, "options": OPTIONS}, format="json"
        )
        assert created.status_code == 201, created.json()
        game_id = created.json()["id"]
        lobby.game_join(game_id=game_id, user=bob, client_seed=BOB_SEED)
        lobby.game_fill_with_bots(game_id=game_id, user=alice)
        game = lobby.game_start(game_id=game_id, user=alice)
        game = play_out(game, [alice, bob])
        assert game.status == Game.Status.FINISHED
        yield Finished(game_id, created.json()["seed_commitment"], alice, bob)
        transaction.set_rollback(True)


def verify(*args: Any, **options: Any) -> str:
    out = StringIO()
    call_command("verify_game", *args, stdout=out, **options)
    return out.getvalue()


def entry_with_rolls(game_id: int) -> ActionLog:
    return ActionLog.objects.filter(game_id=game_id).exclude(rolls=[]).order_by("sequence").first()


@pytest.mark.django_db
def test_a_finished_game_verifies(finished):
    game = Game.objects.get(pk=finished.game_id)
    out = verify(game.pk)

    rolls = sum(len(e.rolls) for e in ActionLog.objects.filter(game=game))
    assert game.version > 0 and rolls > 0
    assert f"game {game.pk}: {game.version} entries replayed, {rolls} rolls checked" in out
    assert "final state equal to the stored board" in out
    assert out.strip().endswith("OK")


@pytest.mark.django_db
def test_the_engine_seed_mixes_in_the_client_seeds(finished):
    game = Game.objects.get(pk=finished.game_id)
    report = game_verify(game)

    mixed = engine_seed(game.server_seed, ["", BOB_SEED, ""])
    assert report.ok and report.engine_seed == mixed != game.server_seed
    assert GameSnapshot.objects.get(pk=game.pk).state["seed"] == mixed  # it really ran on it


@pytest.mark.django_db
def test_a_changed_client_seed_breaks_the_replay(finished):
    Seat.objects.filter(game_id=finished.game_id, player="v-bob").update(client_seed="other")

    with pytest.raises(CommandError, match=r"mismatch at entry \d+"):
        verify(finished.game_id)


@pytest.mark.django_db
def test_a_tampered_roll_fails_naming_its_entry(finished):
    entry = entry_with_rolls(finished.game_id)
    rolls = [dict(r) for r in entry.rolls]
    rolls[0]["value"] = rolls[0]["value"] % rolls[0]["sides"] + 1  # another face of that die
    ActionLog.objects.filter(pk=entry.pk).update(rolls=rolls)

    with pytest.raises(CommandError) as failed:
        verify(finished.game_id)
    message = str(failed.value)
    assert f"mismatch at entry {entry.sequence}:" in message
    assert f"roll 0 (d{rolls[0]['sides']})" in message
    assert f"logged {rolls[0]['value']}" in message


@pytest.mark.django_db
def test_a_dropped_roll_fails(finished):
    entry = entry_with_rolls(finished.game_id)
    ActionLog.objects.filter(pk=entry.pk).update(rolls=entry.rolls[:-1])

    with pytest.raises(CommandError, match=f"mismatch at entry {entry.sequence}: rolls"):
        verify(finished.game_id)


@pytest.mark.django_db
def test_tampered_events_fail(finished):
    entry = ActionLog.objects.filter(game_id=finished.game_id).order_by("sequence").last()
    ActionLog.objects.filter(pk=entry.pk).update(events=[*entry.events, {"type": "forged"}])

    with pytest.raises(CommandError, match=f"mismatch at entry {entry.sequence}: events"):
        verify(finished.game_id)


@pytest.mark.django_db
def test_a_forged_action_fails(finished):
    entry = ActionLog.objects.get(game_id=finished.game_id, sequence=1)
    assert entry.action["type"] == "arrange"
    others = [t for t, _ in entry.action["arrangement"] if t != entry.action["factory"]]
    ActionLog.objects.filter(pk=entry.pk).update(action={**entry.action, "factory": others[0]})

    with pytest.raises(CommandError, match="mismatch at entry 1: events differ at "
                                           r"events\[0\]\.factory"):  # fmt: skip
        verify(finished.game_id)


@pytest.mark.django_db
def test_a_deleted_entry_fails(finished):
    ActionLog.objects.filter(game_id=finished.game_id, sequence=5).delete()

    with pytest.raises(CommandError, match="mismatch at entry 6: expected log entry 5 here"):
        verify(finished.game_id)


@pytest.mark.django_db
def test_a_tampered_seed_commitment_fails(finished):
    Game.objects.filter(pk=finished.game_id).update(seed_commitment="0" * 64)

    with pytest.raises(CommandError, match="mismatch at the seeds: SHA-256 of the server seed"):
        verify(finished.game_id)


@pytest.mark.django_db
def test_a_board_that_differs_from_the_replay_fails(finished):
    game = Game.objects.get(pk=finished.game_id)
    snapshot = GameSnapshot.objects.get(pk=game.pk)
    first = sorted(snapshot.state["territories"])[0]
    snapshot.state["territories"][first]["armies"] += 1
    snapshot.save(update_fields=["state"])

    with pytest.raises(CommandError, match="the final state differs from the stored board at "
                                           r"state\.territories\..*\.armies"):  # fmt: skip
        verify(game.pk)


@pytest.mark.django_db
def test_a_running_game_is_refused(alice):
    game = lobby.game_create(creator=alice, seats=2, options=OPTIONS)
    lobby.game_fill_with_bots(game_id=game.pk, user=alice)
    game = lobby.game_start(game_id=game.pk, user=alice)

    with pytest.raises(CommandError, match="seed stays secret until the game is over"):
        verify(game.pk)
    with pytest.raises(ConflictError):
        game_verify(game)
    answer = client_for(alice).get(f"/api/games/{game.pk}/replay")
    assert answer.status_code == 409 and answer.json()["error"] == "not_over"


@pytest.mark.django_db
def test_the_command_needs_one_game(finished, tmp_path):
    with pytest.raises(CommandError, match="no game 999999"):
        verify(999999)
    with pytest.raises(CommandError, match="one of them"):
        verify()
    with pytest.raises(CommandError, match="stored commitment"):
        verify(finished.game_id, commitment="ab" * 32)


@pytest.mark.django_db
def test_the_replay_reveals_the_committed_seed_and_the_whole_log(finished, client):
    body = client.get(f"/api/games/{finished.game_id}/replay").json()  # anyone, after the end
    game = Game.objects.get(pk=finished.game_id)

    assert hashlib.sha256(body["server_seed"].encode()).hexdigest() == finished.commitment
    assert body["seed_commitment"] == finished.commitment
    assert body["client_seeds"] == ["", BOB_SEED, ""]
    assert body["players"] == ["v-alice", "v-bob", "bot:3"]
    assert body["options"]["round_limit"] == 2
    assert [e["sequence"] for e in body["entries"]] == list(range(1, game.version + 1))
    logged = {e.sequence: e for e in ActionLog.objects.filter(game=game)}
    for entry in body["entries"]:
        row = logged[entry["sequence"]]
        assert entry["context"] == row.context == f"action:{entry['sequence'] - 1}"
        assert entry["rolls"] == row.rolls and entry["events"] == row.events
    assert sum(len(e["rolls"]) for e in body["entries"]) > 0
    # Detail reveals the seeds too, now.
    detail = client.get(f"/api/games/{finished.game_id}").json()
    assert detail["server_seed"] == body["server_seed"]


def saved_replay(game_id: int, client, tmp_path, change=None):
    body = client.get(f"/api/games/{game_id}/replay").json()
    if change is not None:
        change(body)
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    return path, body


@pytest.mark.django_db
def test_a_saved_replay_verifies_without_the_rows(finished, client, tmp_path):
    path, body = saved_replay(finished.game_id, client, tmp_path)
    Game.objects.filter(pk=finished.game_id).delete()  # the file is all there is

    out = verify(file=path, commitment=finished.commitment)
    entries = len(body["entries"])
    rolls = sum(len(e["rolls"]) for e in body["entries"])
    assert f"game {finished.game_id}: {entries} entries replayed, {rolls} rolls checked" in out
    assert "the final state was not compared" in out
    assert out.strip().endswith("OK")


@pytest.mark.django_db
def test_a_saved_replay_is_checked_against_the_noted_commitment(finished, client, tmp_path):
    path, _ = saved_replay(finished.game_id, client, tmp_path)

    with pytest.raises(CommandError, match="published commitment is " + "cd" * 32):
        verify(file=path, commitment="cd" * 32)


@pytest.mark.django_db
def test_a_tampered_saved_replay_fails(finished, client, tmp_path):
    def swap_result(body):
        body["result"]["winner"] = "v-bob" if body["result"]["winner"] != "v-bob" else "v-alice"

    path, _ = saved_replay(finished.game_id, client, tmp_path, swap_result)
    with pytest.raises(CommandError, match="result: the game says"):
        verify(file=path)

    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"entries": []}), encoding="utf-8")
    with pytest.raises(CommandError, match="not a replay body"):
        verify(file=broken)


@pytest.mark.django_db
def test_manage_py_exit_codes(finished, client, tmp_path, python, bare_env):
    """The command as a player runs it: exit 0 when the game checks out, 1 at a mismatch."""
    good, _ = saved_replay(finished.game_id, client, tmp_path)

    def forge(body):
        entry = next(e for e in body["entries"] if e["rolls"])
        entry["rolls"][0]["value"] = entry["rolls"][0]["value"] % entry["rolls"][0]["sides"] + 1
        body["forged"] = entry["sequence"]

    bad_dir = tmp_path / "bad"
    bad_dir.mkdir()
    bad, forged = saved_replay(finished.game_id, client, bad_dir, forge)

    def run(path):
        return subprocess.run(
            [python, "manage.py", "verify_game", "--file", str(path)], cwd=ROOT, env=bare_env,
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    passed = run(good)
    assert passed.returncode == 0, passed.stderr
    assert "entries replayed" in passed.stdout and "OK" in passed.stdout
    failed = run(bad)
    assert failed.returncode == 1
    assert f"mismatch at entry {forged['forged']}:" in failed.stderr
