"""Two deliveries of one move mail at once (two web processes, here two threads with their own
PostgreSQL connections): the mail is claimed before its lines are applied, so only the delivery
that applied them answers, and the answer and the record say what happened. Marked
``services``: run in the second pass, under PostgreSQL."""

from __future__ import annotations

import base64
import json
import mailbox
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO

import psycopg
import pytest
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from games.mail import intake as inbound_mail
from games.mail.intake import BEING_READ, receive_mail
from games.models import InboundMail
from games.play import notify
from tests.games.mail_helpers import DOMAIN, a_move, eml, player_actions, seat_of, state_of
from tests.games.play import test_deadlines as shared
from tests.games.play.test_deadlines import started, waiting
from tests.games.rooms.test_rooms_numbering_postgres import together

_nobody_connected = shared._nobody_connected
commits = shared.commits

TRIALS = 5


def a_game(alice, commits):
    game = started(commits, alice, seats=2, time_control="untimed", minutes=None)
    assert waiting(game) == {"alice"}
    return game


def answers_to_alice() -> list[str]:
    return [m.body for m in mail.outbox if m.to == ["alice@example.org"] and m.subject[:3] == "Re:"]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_second_delivery_while_the_first_applies_reads_nothing_and_stays_silent(
    alice, commits, settings, monkeypatch
):
    """The interleaving of the trial that went wrong, made certain: the second delivery comes
    after the first applied its lines and before it wrote its record. Before the claim, the
    second found no record, saw the turn passed, recorded "refused, 0 applied" and answered
    "Nothing was applied"; the first then lost the record's unique key and sent nothing."""
    assert connection.vendor == "postgresql"
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    game = a_game(alice, commits)
    seat, state, version = seat_of(game, "alice"), state_of(game), game.version
    move = a_move(state, "alice")
    raw = eml("gmail_reply.eml", reply_to=notify.reply_to(seat), move1=move, move2="end")
    applied, second_done = threading.Event(), threading.Event()
    original = inbound_mail._apply_lines

    def apply_then_wait(*args, **kwargs):
        result = original(*args, **kwargs)
        if threading.current_thread().name == "first":
            applied.set()
            second_done.wait(timeout=30)
        return result

    monkeypatch.setattr(inbound_mail, "_apply_lines", apply_then_wait)
    results: dict[str, inbound_mail.InboundResult] = {}

    def deliver(name: str) -> None:
        try:
            if name == "second":
                assert applied.wait(timeout=30)
            results[name] = receive_mail(raw)
        finally:
            if name == "second":
                second_done.set()
            connection.close()

    mail.outbox.clear()
    threads = [threading.Thread(target=deliver, args=(n,), name=n) for n in ("first", "second")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert (results["first"].outcome, results["first"].applied) == ("applied", (move,))
    assert results["first"].answered
    assert (results["second"].outcome, results["second"].refusal) == ("refused", BEING_READ)
    assert not results["second"].answered
    (answer,) = answers_to_alice()
    assert f"Applied, in order:\n  - {move}\n" in answer
    row = InboundMail.objects.get()
    assert (row.outcome, row.applied, row.reason) == ("applied", 1, "")
    assert len(player_actions(game, version)) == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_deliveries_released_together_give_one_answer_that_matches_the_record(
    alice, commits, settings
):
    assert connection.vendor == "postgresql"
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    for trial in range(TRIALS):
        game = a_game(alice, commits)
        seat, state, version = seat_of(game, "alice"), state_of(game), game.version
        move = a_move(state, "alice", salt=trial)
        raw = eml("gmail_reply.eml", reply_to=notify.reply_to(seat), move1=move, move2="end")
        raw = raw.replace(b"CAGmail-reply-0001", f"CAGmail-reply-race-{trial}".encode())
        results: list[inbound_mail.InboundResult] = []
        mail.outbox.clear()

        together(lambda _, raw=raw, results=results: results.append(receive_mail(raw)), 2)

        assert sorted(r.outcome for r in results) == ["applied", "refused"], trial
        (second,) = (r for r in results if r.outcome == "refused")
        answers = answers_to_alice()
        (answer,) = (a for a in answers if "Applied, in order" in a)
        assert f"Applied, in order:\n  - {move}\n" in answer, trial
        assert "Nothing was applied" not in answer
        if second.refusal == BEING_READ:  # at once: the second one stays silent
            assert len(answers) == 1 and not second.answered
        else:  # the first had finished: a replay, and said so
            assert "was already processed" in second.refusal and len(answers) == 2
        row = InboundMail.objects.get(message_id=f"<CAGmail-reply-race-{trial}@mail.gmail.com>")
        assert (row.outcome, row.applied) == ("applied", 1), trial
        assert len(player_actions(game, version)) == 1


# --- the database cannot record the mail: nothing is lost, the mail waits -----------------------


@contextmanager
def inbound_mail_locked(seconds: str = "500ms") -> Iterator[None]:
    """The ``InboundMail`` table locked by another PostgreSQL session (as a long migration
    would), and this session giving up on a lock after ``seconds``: every read or write of a
    mail's record fails with a real ``LockNotAvailable``, so not even a parked row can be
    written."""
    params = connection.get_connection_params()
    holder = psycopg.connect(**{k: v for k, v in params.items() if k != "cursor_factory"})
    try:
        holder.execute(f"LOCK TABLE {InboundMail._meta.db_table} IN ACCESS EXCLUSIVE MODE")
        with connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = '{seconds}'")
        yield
    finally:
        holder.rollback()
        holder.close()
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_when_no_record_can_be_written_the_webhook_answers_503_and_the_maildir_keeps_the_mail(
    alice, commits, settings, client, tmp_path
):
    assert connection.vendor == "postgresql"
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    settings.ANYMAIL = {"WEBHOOK_SECRET": "postmark:s3cret"}
    game = a_game(alice, commits)
    seat, state, version = seat_of(game, "alice"), state_of(game), game.version
    move = a_move(state, "alice")
    raw = eml("gmail_reply.eml", reply_to=notify.reply_to(seat), move1=move, move2="end")
    path = tmp_path / "Maildir"
    mailbox.Maildir(path, create=True)
    (path / "new" / "1.M1P1Q1.host").write_bytes(raw)
    (path / "new" / "2.M1P1Q1.host").write_bytes(raw.replace(b"CAGmail-reply-0001", b"other"))
    auth = "Basic " + base64.b64encode(b"postmark:s3cret").decode()
    payload = json.dumps({"FromFull": {"Email": "alice@example.org"}, "RawEmail": raw.decode()})

    with inbound_mail_locked():
        response = client.post(
            "/anymail/postmark/inbound/", data=payload, content_type="application/json",
            HTTP_AUTHORIZATION=auth,
        )  # fmt: skip
        with pytest.raises(CommandError, match=r"^1\.M1P1Q1\.host: the mail could not be"):
            call_command("fetch_mail", "--maildir", str(path), stdout=StringIO())

    assert response.status_code == 503 and response["Retry-After"] == "60"
    assert response.json()["error"] == "service_unavailable"
    assert sorted(p.name for p in (path / "new").iterdir()) == ["1.M1P1Q1.host", "2.M1P1Q1.host"]
    assert InboundMail.objects.count() == 0 and player_actions(game, version) == []

    out = StringIO()  # the database back: the next run reads both, the move once
    call_command("fetch_mail", "--maildir", str(path), stdout=out)
    assert out.getvalue().splitlines()[-1] == "2 mail(s) processed"
    assert len(player_actions(game, version)) == 1
