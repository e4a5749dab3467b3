"""Replies to "your turn" mails (games.mail.intake): real MIME messages from common
mail clients, applied as the player's actions; forged, replayed, late and stranger's mails
refused with an answer saying why.

The tests run with real commits (``transaction=True``): each line is its own transaction and
the bot answers after it commits, as in production, so the answer mail describes the game as
the player will find it.
"""

from __future__ import annotations

import pytest
from django.core import mail

from games.mail import intake as inbound_mail
from games.mail.intake import receive_mail
from games.models import InboundMail
from games.play import notify
from games.web.exceptions import ConflictError
from risk.rules.engine import legal_actions
from risk.rules.notation import parse_action
from tests.games.mail_helpers import (
    DOMAIN,
    a_move,
    eml,
    last_mail_to,
    player_actions,
    reply_to_mail,
    seat_of,
    state_of,
)
from tests.games.play import test_deadlines as shared
from tests.games.play.test_deadlines import move, started, waiting

# The shared fixtures (a fixture is found by the name it has in the test module).
_nobody_connected = shared._nobody_connected
commits = shared.commits

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game(alice, commits, settings):
    """A 2-seat untimed game, alice and a bot, waiting for alice to set up her armies. The bot
    is easy: a hard bot that moves first (the seed is drawn per game) may beat alice, who plays
    at random here, before her first reinforcements, which the tests need."""
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    settings.SITE_URL = "https://warboard.example.org"
    game = started(commits, alice, seats=2, time_control="untimed", minutes=None, ai_level="easy")
    assert waiting(game) == {"alice"}
    return game


def test_the_your_turn_mail_has_the_signed_reply_to_and_the_moves_in_notation(game):
    seat = seat_of(game, "alice")
    assert seat.turns == 1  # the game started waiting for her once
    message = last_mail_to("alice@example.org")
    assert message.reply_to == [notify.reply_to(seat)]
    assert message.reply_to[0].startswith(f"moves+{game.pk}.0.1.")
    assert message.reply_to[0].endswith(f"@{DOMAIN}")
    from risk.rules.notation import legal_moves_text

    moves = legal_moves_text(state_of(game), "alice")
    assert moves and moves[0].startswith("arrange <territory> <armies>")
    assert "What you may do now, in the move notation (fill in the <...>):\n" in message.body
    for line in moves:
        assert f"\n  - {line}\n" in message.body
    assert "Reply to this mail with one move per line" in message.body
    assert "https://warboard.example.org/rules" in message.body


def test_a_gmail_reply_plays_the_move_on_top_and_not_the_quoted_one(game):
    seat, state, version = seat_of(game, "alice"), state_of(game), game.version
    move = a_move(state, "alice")
    mail.outbox.clear()

    result = receive_mail(
        eml("gmail_reply.eml", reply_to=notify.reply_to(seat), move1=move, move2="end turn")
    )

    assert (result.outcome, result.applied, result.refusal) == ("applied", (move,), None)
    assert player_actions(game, version) == [parse_action(state, "alice", move).to_dict()]
    answer = last_mail_to("alice@example.org")
    assert answer.subject == "Re: [Warboard] Your turn in Game 1"
    assert answer.extra_headers["In-Reply-To"] == "<CAGmail-reply-0001@mail.gmail.com>"
    assert answer.body.startswith(
        f"Hello alice,\n\nYour mail to Game {game.pk} was read.\n\nApplied, in order:\n  - {move}\n"
    )
    assert "Refused" not in answer.body
    row = InboundMail.objects.get()
    assert (row.message_id, row.sender, row.outcome, row.applied) == (
        "<CAGmail-reply-0001@mail.gmail.com>",
        "alice@example.org",
        "applied",
        1,
    )


def test_an_outlook_reply_plays_up_to_the_first_refused_line_and_says_why(game, commits):
    territory = placing(game, commits)  # in the middle of her turn: the mail can go on
    seat, version = seat_of(game, "alice"), game.version
    move = f"place 1 {territory}"

    result = receive_mail(
        eml("outlook_reply.eml", reply_to=notify.reply_to(seat), move1=move,
            move2="dance Alaska")
    )  # fmt: skip

    assert result.outcome == "partly"
    assert result.applied == (move,)
    assert result.refused_line == "dance Alaska"
    assert result.refusal is not None
    assert result.refusal.startswith("word 1 'dance': expected an action, one of: arrange, ")
    placed = {"type": "place", "player": "alice", "territory": territory, "armies": 1}
    assert player_actions(game, version) == [placed]
    answer = last_mail_to("alice@example.org").body
    assert f"Applied, in order:\n  - {move}\n" in answer
    assert f"\nRefused: dance Alaska\n  {result.refusal}\n" in answer


@pytest.mark.parametrize(
    "fixture", ["apple_mail_reply.eml", "html_only_reply.eml"], ids=["apple-mail", "html-only"]
)
def test_apple_mail_and_html_only_replies_are_played_without_quote_or_signature(game, fixture):
    seat, state, version = seat_of(game, "alice"), state_of(game), game.version
    move = a_move(state, "alice", salt=fixture)
    result = receive_mail(eml(fixture, reply_to=notify.reply_to(seat), move1=move, move2="end"))
    assert (result.outcome, result.applied) == ("applied", (move,))
    assert player_actions(game, version) == [parse_action(state, "alice", move).to_dict()]


def test_a_forged_address_is_refused_and_nothing_is_applied(game):
    version = game.version
    mail.outbox.clear()
    result = receive_mail(
        eml("forged_address.eml", game=str(game.pk), domain=DOMAIN,
            move1=a_move(state_of(game), "alice"))
    )  # fmt: skip
    assert result.outcome == "refused" and result.applied == ()
    forged = f"moves+{game.pk}.0.1.0123456789abcdef0123@{DOMAIN}"
    assert result.refusal == (
        f"the reply address {forged!r} has a wrong signature: "
        "it is not an address this server gave out"
    )
    assert player_actions(game, version) == []
    assert InboundMail.objects.count() == 0  # a forgery is not a processed reply
    answer = last_mail_to("alice@example.org")  # a registered user: told why
    assert answer.body == (
        "Hello alice,\n\nNothing was applied.\n\n"
        f"Refused\n  {result.refusal}\n\n"
        "--\nWarboard. This answers the mail you sent to a game's reply address.\n"
    )


def test_a_forgery_from_a_stranger_gets_no_answer(game):
    raw = eml("forged_address.eml", game=str(game.pk), domain=DOMAIN, move1="end")
    raw = raw.replace(b"alice@example.org", b"mallory@elsewhere.example")
    mail.outbox.clear()
    assert receive_mail(raw).outcome == "refused"
    assert mail.outbox == []  # no backscatter to an address nobody registered


def test_a_replayed_mail_is_refused_and_applies_nothing_twice(game):
    seat, state, version = seat_of(game, "alice"), state_of(game), game.version
    move = a_move(state, "alice")
    raw = eml("gmail_reply.eml", reply_to=notify.reply_to(seat), move1=move, move2="end")
    assert receive_mail(raw).outcome == "applied"
    after_first = player_actions(game, version)
    mail.outbox.clear()

    again = receive_mail(raw)

    assert again.outcome == "refused" and again.applied == ()
    assert again.refusal == (
        "this mail (<CAGmail-reply-0001@mail.gmail.com>) was already processed: "
        "nothing is applied twice"
    )
    assert player_actions(game, version) == after_first
    assert "Nothing was applied." in last_mail_to("alice@example.org").body
    assert InboundMail.objects.count() == 1


def test_a_mail_delivered_again_after_a_crash_applies_its_lines_once(game, commits):
    """The record of a processed mail is written after its lines: if the process died in
    between, the provider delivers it again and the lines' idempotency keys (from the
    Message-ID and line number) make the repeat harmless."""
    territory = placing(game, commits)  # alice has at least 2 armies to place
    seat, version = seat_of(game, "alice"), game.version
    line = f"place 1 {territory}"
    raw = eml("late_reply.eml", reply_to=notify.reply_to(seat), move1=line)
    assert receive_mail(raw).applied == (line,)
    assert waiting(game) == {"alice"}  # still placing: the same turn
    answer = last_mail_to("alice@example.org")
    assert answer.reply_to == [notify.reply_to(seat)]  # the same turn, the same address
    assert "\nIt is your turn: place your reinforcements.\n" in answer.body
    assert "\n  - place <1-" in answer.body  # the moves open now
    InboundMail.objects.all().delete()  # as if the record had never been written

    again = receive_mail(raw)

    assert again.applied == (line,)  # answered with the first application's result
    placed = {"type": "place", "player": "alice", "territory": territory, "armies": 1}
    assert player_actions(game, version) == [placed]


def test_a_claim_left_by_a_stopped_delivery_is_taken_over_after_the_timeout(game, commits):
    """A delivery that died between its claim and its outcome leaves the row ``reading``: a
    delivery within the timeout leaves it alone (it may still be at work), a later one takes it
    over and reads the mail, the lines already applied answered as applied, not played twice."""
    territory = placing(game, commits)
    seat, version = seat_of(game, "alice"), game.version
    line = f"place 1 {territory}"
    raw = eml("late_reply.eml", reply_to=notify.reply_to(seat), move1=line)
    assert receive_mail(raw).applied == (line,)
    row = InboundMail.objects.get()
    InboundMail.objects.filter(pk=row.pk).update(outcome="reading", applied=0)  # as if it died
    mail.outbox.clear()

    assert receive_mail(raw).refusal == inbound_mail.BEING_READ  # it may still be at work
    assert mail.outbox == []
    InboundMail.objects.filter(pk=row.pk).update(
        received_at=row.received_at - inbound_mail.CLAIM_TIMEOUT
    )

    again = receive_mail(raw)

    assert (again.outcome, again.applied, again.answered) == ("applied", (line,), True)
    placed = {"type": "place", "player": "alice", "territory": territory, "armies": 1}
    assert player_actions(game, version) == [placed]
    assert InboundMail.objects.values_list("outcome", "applied").get() == ("applied", 1)


def placing(game, commits) -> str:
    """Play alice (over the write path) until she places reinforcements with at least two
    armies left to place; a territory she may place on."""
    for step in range(300):
        state = state_of(game)
        for spec in legal_actions(state, "alice"):
            if spec.type == "place" and spec.options["max"] >= 2:
                return spec.options["territories"][0]
        move(commits, game, game.seats.get(player="alice").user, salt=step)
    raise AssertionError("alice never had two armies to place")


def test_a_reply_after_the_turn_passed_is_refused(game):
    seat, state = seat_of(game, "alice"), state_of(game)
    old_address = notify.reply_to(seat)
    move = a_move(state, "alice")
    assert receive_mail(reply_to_mail(last_mail_to("alice@example.org"), [move])).applied
    # She has set up; the game moved on (to her next turn, or the bot's).
    seat.refresh_from_db()
    version = state_of(game) and game.version
    mail.outbox.clear()

    result = receive_mail(eml("late_reply.eml", reply_to=old_address, move1=move))

    assert result.outcome == "refused"
    assert result.refusal == (
        "this mail answers a turn that has passed: nothing was applied "
        "(reply to the newest mail of the game)"
    )
    assert player_actions(game, version) == []
    assert f"Refused\n  {result.refusal}\n" in last_mail_to("alice@example.org").body


def test_mail_from_another_address_is_refused_and_the_player_is_told(game, bob):
    seat, version = seat_of(game, "alice"), game.version
    raw = eml("late_reply.eml", reply_to=notify.reply_to(seat), move1="end")
    raw = raw.replace(b"alice@example.org", b"bob@example.org")
    mail.outbox.clear()

    result = receive_mail(raw)

    assert result.outcome == "refused"
    assert result.refusal == (
        "a mail from bob@example.org to your reply address was refused: only mail from your "
        "account's address is played"
    )
    assert player_actions(game, version) == []
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]  # the player, not bob


def test_lines_after_a_refusal_are_not_read_and_comments_are_skipped(game, commits):
    territory = placing(game, commits)
    version = game.version
    move = f"place 1 {territory}"
    raw = reply_to_mail(last_mail_to("alice@example.org"), ["# reinforce first", move, "fly", move])
    result = receive_mail(raw)
    assert result.applied == (move,)
    assert result.refused_line == "fly"
    assert result.refusal is not None and result.refusal.startswith("word 1 'fly': expected ")
    placed = {"type": "place", "player": "alice", "territory": territory, "armies": 1}
    assert player_actions(game, version) == [placed]  # the second place was not read
    assert "(1 later line not read.)" in last_mail_to("alice@example.org").body


def test_a_mail_is_read_up_to_its_move_limit(game, monkeypatch):
    monkeypatch.setattr(inbound_mail.reading, "MAX_MOVES", 1)
    state = state_of(game)
    move = a_move(state, "alice")
    raw = reply_to_mail(last_mail_to("alice@example.org"), [move, "end", "end"])
    result = receive_mail(raw)
    assert result.applied == (move,)
    assert result.refused_line == "end"
    assert result.refusal == "a mail is read up to 1 moves; send the rest in another"
    assert "(1 later line not read.)" in last_mail_to("alice@example.org").body


def test_a_mail_too_large_is_refused_unread(game, monkeypatch):
    monkeypatch.setattr(inbound_mail.limits, "MAX_MAIL_BYTES", 2048)
    seat, version = seat_of(game, "alice"), game.version
    raw = eml("late_reply.eml", reply_to=notify.reply_to(seat), move1="end" + " " * 4000)
    result = receive_mail(raw)
    assert (result.outcome, result.refusal) == ("parked", "the mail is larger than 2 KB")
    assert player_actions(game, version) == []
    row = InboundMail.objects.get()  # parked: recorded with the rule it broke
    assert (row.message_id, row.outcome, row.reason) == (
        "<late-0001@example.org>",
        "parked",
        "the mail is larger than 2 KB",
    )
    assert "the mail is larger than 2 KB" in last_mail_to("alice@example.org").body


def test_mail_not_sent_to_a_reply_address_is_ignored(game):
    mail.outbox.clear()
    raw = b"From: alice@example.org\nTo: someone@example.org\nSubject: hi\n\nend\n"
    result = receive_mail(raw)
    assert (result.outcome, result.answered) == ("ignored", False)
    assert mail.outbox == []


def test_the_admin_lists_the_mails_received(game, admin_client):
    seat = seat_of(game, "alice")
    receive_mail(eml("late_reply.eml", reply_to=notify.reply_to(seat), move1="fly"))
    page = admin_client.get("/admin/games/inboundmail/").content.decode()
    assert "alice@example.org" in page and "refused" in page
    assert "word 1 &#x27;fly&#x27;" in page


def test_a_line_that_lost_a_race_is_read_again_against_the_new_state(game, monkeypatch):
    """Another action committing between a line's parse and its write (the player on the site
    at the same moment) makes the write stale; the line is parsed again and applied once."""
    seat, state, version = seat_of(game, "alice"), state_of(game), game.version
    move = a_move(state, "alice")
    real_submit = inbound_mail.submit.action_submit
    calls: list[int] = []

    def first_one_stale(**kwargs):
        calls.append(kwargs["expected_version"])
        if len(calls) == 1:
            raise ConflictError("the game is at version 9", code="stale_version")
        return real_submit(**kwargs)

    monkeypatch.setattr(inbound_mail.submit, "action_submit", first_one_stale)
    result = receive_mail(eml("late_reply.eml", reply_to=notify.reply_to(seat), move1=move))
    assert result.applied == (move,)
    assert calls == [version, version]
    assert player_actions(game, version) == [parse_action(state, "alice", move).to_dict()]


def test_the_lines_of_a_mail_stop_where_a_new_turn_begins(game):
    """Her set-up ends the set-up phase and the bot's first turn begins: the line after it was
    written before she saw that turn, so it is not applied, even though a draw vote is legal at
    any time."""
    state, version = state_of(game), game.version
    arrange = a_move(state, "alice")
    assert arrange.startswith("arrange ")
    raw = reply_to_mail(last_mail_to("alice@example.org"), [arrange, "vote draw no", "end"])

    result = receive_mail(raw)

    assert result.applied == (arrange,)
    assert result.refused_line == "vote draw no"
    assert result.refusal == inbound_mail.NEW_TURN
    assert player_actions(game, version) == [parse_action(state, "alice", arrange).to_dict()]
    assert "(1 later line not read.)" in last_mail_to("alice@example.org").body


def test_a_reply_without_moves_applies_nothing_and_says_so(game):
    seat, version = seat_of(game, "alice"), game.version
    mail.outbox.clear()
    raw = eml("late_reply.eml", reply_to=notify.reply_to(seat), move1="# thinking about it")
    result = receive_mail(raw)
    assert (result.outcome, result.applied, result.refusal) == ("applied", (), None)
    assert player_actions(game, version) == []
    answer = last_mail_to("alice@example.org")
    assert "\nYour mail had no moves in it: nothing was applied.\n" in answer.body
    assert "\nIt is your turn: set up your armies.\n" in answer.body
    assert answer.reply_to == [notify.reply_to(seat)]
