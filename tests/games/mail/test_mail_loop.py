"""A whole Fast Risk game played by mail alone: alice against a bot, every one of her moves a
reply to the last mail she got ("your turn", or the answer to her previous reply), until the
game ends. In the embedded default (SQLite, in-process tasks) and under PostgreSQL."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import connection

from games.mail.intake import receive_mail
from games.models import ActionLog, Game, InboundMail
from games.play import lobby
from risk.rules.state import ROUND_LIMIT
from tests.games.mail_helpers import DOMAIN, a_move, last_mail_to, reply_to_mail, state_of
from tests.games.play import test_deadlines as shared

_nobody_connected = shared._nobody_connected

#: The game ends after this many rounds (win condition ``round-limit``).
ROUNDS = 2
#: Mails alice may need at most (a 2-round game takes a few dozen of her actions).
MAX_MAILS = 400


def play_a_game_by_mail(alice) -> Game:
    game = lobby.game_create(
        creator=alice, seats=2, options={"win": ROUND_LIMIT, "round_limit": ROUNDS},
        time_control="untimed",
    )  # fmt: skip
    lobby.game_fill_with_bots(game_id=game.pk, user=alice)
    lobby.game_start(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    first = last_mail_to("alice@example.org")
    assert first.subject.startswith(f"[Warboard] Your turn in Game {game.pk}")

    replies = 0
    for step in range(MAX_MAILS):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        message = last_mail_to("alice@example.org")
        assert message.reply_to, f"the last mail to alice has no reply address:\n{message.body}"
        line = a_move(state_of(game), "alice", salt=step)
        result = receive_mail(reply_to_mail(message, [line]))
        assert (result.applied, result.refusal) == ((line,), None)
        replies += 1
    else:
        raise AssertionError(f"the game did not end within {MAX_MAILS} mails")

    # Every move alice made came from a mail: one of her actions per reply, one record each.
    mine = ActionLog.objects.filter(game=game, actor="alice", source=ActionLog.Source.PLAYER)
    assert mine.count() == replies == InboundMail.objects.filter(outcome="applied").count()
    assert replies >= 2 * ROUNDS  # she set up, placed, attacked or ended in each round
    assert set(game.result["ranking"]) == set(game.seats.values_list("player", flat=True))
    over = [m for m in mail.outbox if m.subject.startswith(f"[Warboard] Game {game.pk} is over")]
    assert [m.to for m in over] == [["alice@example.org"]]
    last_answer = [m for m in mail.outbox if m.subject.startswith("Re: ")][-1]
    assert "The game is over." in last_answer.body and not last_answer.reply_to
    return game


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_is_played_by_mail_in_the_embedded_default(alice, settings):
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    play_a_game_by_mail(alice)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_whole_game_is_played_by_mail_under_postgresql(alice, settings):
    assert connection.vendor == "postgresql"
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    play_a_game_by_mail(alice)
