"""Email: "your turn" with the summary and link, opt-outs, no mail while connected (presence),
game over; and the presence store itself."""

from __future__ import annotations

import os
import subprocess
from datetime import timedelta

import pytest
from django.core import mail

from games.models import Game, GameSnapshot, Seat
from games.play import lobby, notify, operations, presence
from games.play.reads import shown
from tests.conftest import ROOT
from tests.games.play import test_deadlines as shared
from tests.games.play.test_deadlines import move, new_game, started, waiting

# The shared fixtures (a fixture is found by the name it has in the test module).
_nobody_connected = shared._nobody_connected
commits = shared.commits
frozen = shared.frozen


def mails_to(address: str) -> list:
    return [m for m in mail.outbox if m.to == [address]]


# --- "your turn" --------------------------------------------------------------------------------


def test_your_turn_at_the_start_goes_to_each_person_with_the_deadline_and_link(
    alice, bob, commits, frozen, settings
):
    settings.SITE_URL = "https://warboard.example.org/"
    alice.profile.display_name = "Alice the Bold"
    alice.profile.save()
    game = started(commits, alice, others=[bob])

    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "bob@example.org"]
    message = mails_to("alice@example.org")[0]
    assert message.subject == f"[Warboard] Your turn in Game {game.pk} (due 2030-03-01 12:05 UTC)"
    assert message.from_email == settings.DEFAULT_FROM_EMAIL
    body = message.body
    assert body.startswith("Hello Alice the Bold,\n")
    assert f"It is your turn in Game {game.pk}: set up your armies." in body
    assert "You have until 2030-03-01 12:05 UTC (about 5 minutes from now)." in body
    assert "Nothing has happened since your last turn." in body
    # Her legal moves in the mail notation, and a reply address for this turn.
    assert "What you may do now, in the move notation (fill in the <...>):\n  - arrange " in body
    assert message.reply_to == [notify.reply_to(Seat.objects.get(game=game, player="alice"))]
    assert f"Play: https://warboard.example.org/games/{game.pk}\n" in body
    assert "&" not in body and "&#" not in body  # plain text, never HTML-escaped
    # The mail links to the settings page (it sent people to the raw API).
    assert "\nTurn them off in your settings: https://warboard.example.org/settings\n" in body


def test_your_turn_summarises_what_happened_since_the_last_mail(alice, commits):
    game = started(commits, alice, time_control="untimed", minutes=None)
    seat = Seat.objects.get(game=game, player="alice")
    assert len(mail.outbox) == 1
    mark = seat.last_seen_sequence  # where the first mail's summary ended (the start: 0)
    assert mark == 0

    for step in range(300):  # alice plays until the game comes back to her after the bots
        if len(mail.outbox) == 2:
            break
        move(commits, game, alice, salt=step)
    assert len(mail.outbox) == 2

    body = mail.outbox[1].body
    game.refresh_from_db()
    seat.refresh_from_db()
    assert seat.last_seen_sequence == game.version  # the next summary starts after this one
    log = shown.log_for(game, alice, after=mark)
    expected = notify.summary_lines(log["entries"], notify.display_names(game))
    assert expected  # the bots set up and played at least one turn
    assert "What happened since your last turn:" in body
    for line in expected[-notify.SUMMARY_LINES :]:
        assert f"  - {line}\n" in body
    assert "  - bot:2 set up their armies\n" in body
    assert "  - alice set up their armies\n" in body
    assert "Nothing has happened" not in body
    assert "You have until" not in body  # untimed


def test_summary_lines_tell_a_battle_in_one_line_and_fall_back_for_the_unknown():
    names = {"bob": "Bob", "alice": "Alice"}
    entries = [
        {"actor": "bob", "source": "player", "action": {"type": "place"},
         "events": [{"type": "placed", "seat": "bob", "territory": "Kamchatka", "armies": 3}]},
        {"actor": "bob", "source": "player", "action": {"type": "attack"},
         "events": [{"type": "attack", "attacker": "bob", "defender": "alice",
                     "target": "Alaska", "mode": "normal", "flanks": [["Kamchatka", 3]]},
                    {"type": "cut", "seat": "alice", "card": "Peru", "armies": None}]},
        {"actor": "bob", "source": "player", "action": {"type": "roll"},
         "events": [{"type": "roll", "attacker_losses": 2, "defender_losses": 0}]},
        {"actor": "bob", "source": "player", "action": {"type": "roll"},
         "events": [{"type": "roll", "attacker_losses": 0, "defender_losses": 1},
                    {"type": "battle_won", "target": "Alaska"}]},
        {"actor": "bob", "source": "player", "action": {"type": "move_in"},
         "events": [{"type": "conquered", "territory": "Alaska", "by": "bob", "from": "alice",
                     "armies": 2}, {"type": "battle_over", "success": True}]},
        {"actor": "alice", "source": "timeout", "action": {"type": "end_turn"},
         "events": [{"type": "turn_ended", "seat": "alice"},
                    {"type": "turn_started", "seat": "bob", "round": 2}]},
        {"actor": "alice", "source": "timeout", "action": {"type": "discard"}, "events": []},
        {"actor": "bob", "source": "player", "action": {"type": "teleport"}, "events": []},
        {"actor": "bob", "source": "server", "action": {"type": "leave"},
         "events": [{"type": "left", "player": "bob", "seat": "bob"},
                    {"type": "eliminated", "seat": "alice", "by": "bob"}]},
    ]  # fmt: skip
    assert notify.summary_lines(entries, names) == [
        "Bob placed 3 on Kamchatka",
        "Bob attacked Alaska (Alice) from Kamchatka: lost 2, defender lost 1; took it, moving in 2",
        "Alice ran out of time: the bot played for them",
        "round 2: Bob's turn began",
        "Bob: teleport",
        "Bob left the game: their army is an allied army now",
        "Alice was eliminated by Bob",
    ]


def test_your_turn_respects_opt_out_and_needs_an_address(alice, bob, carol, commits):
    bob.profile.email_your_turn = False
    bob.profile.save()
    carol.email = ""
    carol.save(update_fields=["email"])
    game = new_game(alice, others=[bob, carol])
    with commits():
        lobby.game_start(game_id=game.pk, user=alice)
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    # bob was not told, so his summary still starts at the beginning
    assert Seat.objects.get(game=game, player="bob").last_seen_sequence == 0


def test_no_your_turn_mail_while_the_player_is_connected_to_the_game(alice, bob, commits):
    game = new_game(alice, others=[bob])
    presence.presence_connected(game.pk, alice.pk, "daphne.1!abc")
    with commits():
        lobby.game_start(game_id=game.pk, user=alice)
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]

    presence.presence_disconnected(game.pk, alice.pk, "daphne.1!abc")
    seat = Seat.objects.get(game=game, player="alice")
    assert notify.your_turn(game.pk, [seat.pk]) == 1
    assert mail.outbox[-1].to == ["alice@example.org"]


def test_no_your_turn_mail_once_the_game_no_longer_waits_for_the_player(alice, commits):
    game = started(commits, alice, time_control="untimed", minutes=None)
    bot = Seat.objects.get(game=game, position=1)
    assert waiting(game) == {"alice"}
    assert notify.your_turn(game.pk, [bot.pk]) == 0  # a bot: never mailed
    operations.game_end(game, "test")
    alice_seat = Seat.objects.get(game=game, player="alice")
    assert notify.your_turn(game.pk, [alice_seat.pk]) == 0  # over: game-over mail instead


# --- game over ----------------------------------------------------------------------------------


def test_game_over_mail_after_an_admin_ends_the_game(alice, bob, commits):
    game = started(commits, alice, others=[bob])
    bob.profile.email_game_over = False
    bob.profile.save()
    mail.outbox.clear()

    with commits():
        operations.game_end(game, "abandoned by both players")

    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    message = mail.outbox[0]
    assert message.subject == f"[Warboard] Game {game.pk} is over: ended by an administrator"
    assert "An administrator ended it: abandoned by both players." in message.body
    assert f"http://127.0.0.1:8000/games/{game.pk}" in message.body


def test_game_over_mail_names_the_winner_and_the_ranking(alice, bob, commits):
    game = started(commits, alice, others=[bob])
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        result={"winner": "bob", "ranking": ["bob", "alice", "bot:3"]},
    )
    bob.profile.display_name = "Bob B."
    bob.profile.save()
    mail.outbox.clear()

    assert notify.game_over(game.pk) == 2

    to_alice, to_bob = mails_to("alice@example.org")[0], mails_to("bob@example.org")[0]
    assert to_alice.subject == f"[Warboard] Game {game.pk} is over: Bob B. won"
    assert "The winner is Bob B." in to_alice.body
    assert "  1. Bob B.\n  2. alice\n  3. bot:3\n" in to_alice.body
    assert to_bob.subject == f"[Warboard] Game {game.pk} is over: you won"
    assert "You won!" in to_bob.body


def test_game_over_is_not_mailed_for_a_running_game(alice, commits):
    game = started(commits, alice)
    assert notify.game_over(game.pk) == 0


# --- presence -----------------------------------------------------------------------------------


def test_presence_counts_each_socket():
    presence.presence_connected(7, 1, "chan-a")
    presence.presence_connected(7, 1, "chan-b")  # a second tab
    assert presence.presence_is_connected(7, 1) is True
    assert presence.presence_is_connected(7, 2) is False
    assert presence.presence_is_connected(8, 1) is False

    presence.presence_disconnected(7, 1, "chan-a")
    assert presence.presence_is_connected(7, 1) is True
    presence.presence_disconnected(7, 1, "chan-b")
    assert presence.presence_is_connected(7, 1) is False
    presence.presence_disconnected(7, 1, "chan-b")  # twice: harmless
    assert presence.presence_is_connected(7, 1) is False


def test_presence_of_a_socket_that_is_never_refreshed_runs_out(frozen):
    presence.presence_connected(7, 1, "crashed")
    presence.presence_connected(7, 1, "alive")
    frozen.shift(timedelta(seconds=100))
    presence.presence_connected(7, 1, "alive")  # a message on this socket refreshes it
    frozen.shift(timedelta(seconds=presence.PRESENCE_TTL - 99))  # "crashed" is 181 s old
    assert presence.presence_is_connected(7, 1) is True
    presence.presence_disconnected(7, 1, "alive")
    assert presence.presence_is_connected(7, 1) is False  # "crashed" no longer counts

    presence.presence_connected(7, 2, "only")
    frozen.shift(timedelta(seconds=presence.PRESENCE_TTL + 1))
    assert presence.presence_is_connected(7, 2) is False


@pytest.mark.services
def test_presence_is_shared_between_processes(python):
    """Through Redis: a socket registered by another process (another daphne) counts here."""
    user_id = 900_000 + os.getpid() % 1000  # never a real user of another test
    code = (
        "import django; django.setup(); from games.play import presence; "
        f"presence.presence_connected(990, {user_id}, 'daphne.other!1')"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    subprocess.run([python, "-c", code], env=env, cwd=ROOT, check=True, timeout=60)
    try:
        assert presence.presence_is_connected(990, user_id) is True
    finally:
        presence.presence_disconnected(990, user_id, "daphne.other!1")
    assert presence.presence_is_connected(990, user_id) is False


def test_the_summary_prints_no_card_even_from_an_unfiltered_entry():
    """Email is one more channel for hidden information. The summary is built from
    ``reading.log_for`` (already filtered for the reader); as a second guard its formatter
    never writes a card, so even an unfiltered poker draw tells nothing."""
    entries = [
        {
            "actor": "alice",
            "source": "player",
            "action": {"type": "poker", "player": "alice", "move": "draw", "cards": ["Qh", "2c"],
                       "from_stash": ["Kd"]},
            "events": [{"type": "drew", "seat": "alice", "private_to": "alice",
                        "cards": ["As", "Jc"]}],
        },
        {
            "actor": "alice",
            "source": "player",
            "action": {"type": "discard", "player": "alice", "cards": ["9h"]},
            "events": [{"type": "discarded", "seat": "alice", "count": 1}],
        },
    ]  # fmt: skip
    text = "\n".join(notify.summary_lines(entries, {"alice": "Alice"}))
    # Poker moves and discards are quiet actions, and neither event has a line of its own.
    assert text == ""


def test_no_your_turn_task_is_queued_for_nothing(alice, bob, carol, commits, monkeypatch):
    """The mail task is queued only for seats it could mail: not for bob (mail off),
    nor carol (watching the game live), so a start that waits for all three queues alice only."""
    from games.play import tasks

    queued: list[tuple[int, list[int]]] = []
    monkeypatch.setattr(tasks.notify_your_turn, "delay", lambda *args: queued.append(args))
    bob.profile.email_your_turn = False
    bob.profile.save()
    game = new_game(alice, others=[bob, carol])
    presence.presence_connected(game.pk, carol.pk, "daphne.1!carol")
    with commits():
        lobby.game_start(game_id=game.pk, user=alice)
    alice_seat = Seat.objects.get(game=game, player="alice")
    assert queued == [(game.pk, [alice_seat.pk])]


def test_closing_the_last_socket_marks_everything_seen(alice, bob, commits):
    """A player who watched live is not mailed; when their last socket on the game closes,
    their next summary starts at the game's version then."""
    game = new_game(alice, others=[bob])
    with commits():
        lobby.game_start(game_id=game.pk, user=alice)
    GameSnapshot.objects.filter(pk=game.pk).update(version=7)
    seat = Seat.objects.get(game=game, player="alice")
    assert seat.last_seen_sequence < 7
    assert notify.seen_everything(game.pk, alice.pk) == 1
    seat.refresh_from_db()
    assert seat.last_seen_sequence == 7
    Seat.objects.filter(pk=seat.pk).update(last_seen_sequence=9)  # never moved back
    notify.seen_everything(game.pk, alice.pk)
    assert Seat.objects.get(pk=seat.pk).last_seen_sequence == 9


def test_leaving_a_game_not_yet_started_marks_nothing(alice, bob):
    """A game in the lobby has no state row yet, so no version to have seen: closing its page
    leaves the seats as they were (it once wrote NULL into the seat and raised IntegrityError)."""
    game = new_game(alice, others=[bob])
    assert not GameSnapshot.objects.filter(pk=game.pk).exists()
    assert notify.seen_everything(game.pk, alice.pk) == 0
    assert Seat.objects.get(game=game, player="alice").last_seen_sequence == 0
