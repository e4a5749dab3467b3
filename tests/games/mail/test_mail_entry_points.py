"""The ways a reply reaches the inbound service, and the way a "your turn" mail leaves:

- django-anymail's inbound webhook (Postmark's JSON with the raw MIME in ``RawEmail``);
- ``manage.py fetch_mail --maildir`` on a temporary Maildir;
- a local SMTP server (aiosmtpd on a free port) receiving the "your turn" mail with its
  Reply-To, through Django's SMTP backend configured from an ``EMAIL_URL``.
"""

from __future__ import annotations

import base64
import email
import email.policy
import json
import mailbox
import socket
from io import StringIO

import environ
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Message as MessageHandler
from django.core import mail
from django.core.management import call_command

from games.mail.intake import NEW_TURN
from games.management.commands import fetch_mail
from games.models import InboundMail
from games.play import notify
from risk.rules.notation import parse_action
from tests.games.mail_helpers import (
    DOMAIN,
    a_move,
    eml,
    last_mail_to,
    player_actions,
    seat_of,
    state_of,
)
from tests.games.play import test_deadlines as shared
from tests.games.play.test_deadlines import new_game, started, waiting

_nobody_connected = shared._nobody_connected
commits = shared.commits

SECRET = "postmark:s3cret-webhook-password"


@pytest.fixture
def game(alice, commits, settings):
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    game = started(commits, alice, seats=2, time_control="untimed", minutes=None)
    assert waiting(game) == {"alice"}
    return game


# --- the anymail webhook ------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_postmark_inbound_post_with_the_raw_mime_plays_the_move(game, client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    seat, state, version = seat_of(game, "alice"), state_of(game), game.version
    move = a_move(state, "alice")
    raw = eml("gmail_reply.eml", reply_to=notify.reply_to(seat), move1=move, move2="end turn")
    payload = {  # Postmark's inbound JSON, "Include raw email content in JSON payload" on
        "FromFull": {"Email": "alice@example.org", "Name": "Alice Example"},
        "ToFull": [{"Email": notify.reply_to(seat), "Name": "Warboard"}],
        "Subject": "Re: [Warboard] Your turn in Game 1",
        "MessageID": "0f4f4b4c-1111-2222-3333-444455556666",
        "TextBody": move,
        "Headers": [{"Name": "Return-Path", "Value": "<alice@example.org>"}],
        "RawEmail": raw.decode("utf-8"),
    }
    auth = "Basic " + base64.b64encode(SECRET.encode()).decode()
    mail.outbox.clear()

    response = client.post(
        "/anymail/postmark/inbound/", data=json.dumps(payload),
        content_type="application/json", HTTP_AUTHORIZATION=auth,
    )  # fmt: skip

    assert response.status_code == 200
    assert player_actions(game, version) == [parse_action(state, "alice", move).to_dict()]
    assert InboundMail.objects.get().message_id == "<CAGmail-reply-0001@mail.gmail.com>"
    assert f"Applied, in order:\n  - {move}\n" in last_mail_to("alice@example.org").body


@pytest.mark.django_db(transaction=True)
def test_the_webhook_refuses_a_post_without_the_secret(game, client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    version = game.version
    response = client.post(
        "/anymail/postmark/inbound/", data=json.dumps({"RawEmail": "From: x@y.org\n\nend\n"}),
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 400  # anymail's answer to a failed basic auth
    assert player_actions(game, version) == []


# --- fetch_mail --maildir -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_fetch_mail_reads_a_maildir_and_moves_what_it_read_to_cur(game, tmp_path):
    seat, state, version = seat_of(game, "alice"), state_of(game), game.version
    move = a_move(state, "alice")
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(eml("apple_mail_reply.eml", reply_to=notify.reply_to(seat), move1=move, move2="end"))
    box.add(b"From: someone@example.net\nTo: info@example.org\nSubject: hi\n\nhello\n")
    out = StringIO()

    call_command("fetch_mail", "--maildir", str(tmp_path / "Maildir"), stdout=out)

    assert player_actions(game, version) == [parse_action(state, "alice", move).to_dict()]
    lines = out.getvalue().splitlines()
    assert sorted(line.split(": ", 1)[1] for line in lines[:2]) == [
        "applied, applied 1",
        "ignored (not addressed to a reply address)",
    ]
    assert lines[2] == "2 mail(s) processed"
    assert list((tmp_path / "Maildir" / "new").iterdir()) == []
    assert len(list((tmp_path / "Maildir" / "cur").iterdir())) == 2
    assert all(name.name.endswith(":2,S") for name in (tmp_path / "Maildir" / "cur").iterdir())

    again = StringIO()
    call_command("fetch_mail", "--maildir", str(tmp_path / "Maildir"), stdout=again)
    assert again.getvalue() == "0 mail(s) processed\n"  # nothing new: nothing read twice


class FakeImap:
    """Stands in for the IMAP server (there is none in the test environment): a folder of
    messages by UID with their flags, answering the commands ``fetch_mail`` sends."""

    instances: list[FakeImap] = []
    mailbox: dict[bytes, bytes] = {}

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.address = (host, port)
        self.capabilities = ("IMAP4REV1",)
        self.seen: set[bytes] = set()
        self.log: list[tuple] = []
        FakeImap.instances.append(self)

    def login(self, user: str, password: str) -> tuple:
        self.log.append(("login", user, password))
        return "OK", [b"logged in"]

    def select(self, folder: str) -> tuple:
        self.log.append(("select", folder))
        return "OK", [str(len(self.mailbox)).encode()]

    def uid(self, command: str, *args: str) -> tuple:
        """Answers with bytes and takes text, as ``imaplib`` (its arguments are typed ``str``)."""
        self.log.append(("uid", command, *args))
        if command == "SEARCH":
            return "OK", [b" ".join(u for u in self.mailbox if u not in self.seen)]
        if command == "FETCH":
            uid = args[0].encode()
            return "OK", [(uid + b" (UID " + uid + b" BODY[] {n}", self.mailbox[uid]), b")"]
        if command == "STORE":
            self.seen.add(args[0].encode())
            return "OK", []
        raise AssertionError(command)

    def logout(self) -> tuple:
        self.log.append(("logout",))
        return "BYE", []


@pytest.mark.django_db(transaction=True)
def test_fetch_mail_reads_the_unseen_imap_mail_and_flags_it_seen(game, monkeypatch, settings):
    seat, state, version = seat_of(game, "alice"), state_of(game), game.version
    move = a_move(state, "alice")
    FakeImap.instances = []
    FakeImap.mailbox = {
        b"7": eml("outlook_reply.eml", reply_to=notify.reply_to(seat), move1=move, move2="fly")
    }
    monkeypatch.setattr(fetch_mail.imaplib, "IMAP4_SSL", FakeImap)
    settings.MAIL_IMAP_URL = "imaps://moves%40warboard.example.org:p%40ss@imap.example.org/Moves"
    out = StringIO()

    call_command("fetch_mail", stdout=out)

    assert player_actions(game, version) == [parse_action(state, "alice", move).to_dict()]
    assert out.getvalue().splitlines()[0] == f"imap uid 7: partly, applied 1 ({NEW_TURN})"
    (server,) = FakeImap.instances
    assert server.address == ("imap.example.org", 993)
    assert server.log[:3] == [
        ("login", "moves@warboard.example.org", "p@ss"),
        ("select", "Moves"),
        ("uid", "SEARCH", "UNSEEN"),
    ]
    assert ("uid", "FETCH", "7", "(BODY.PEEK[])") in server.log  # PEEK: not seen until done
    assert server.log[-2:] == [("uid", "STORE", "7", "+FLAGS", "(\\Seen)"), ("logout",)]


def test_fetch_mail_needs_a_source(settings):
    from django.core.management.base import CommandError

    settings.MAIL_IMAP_URL = ""
    with pytest.raises(CommandError, match="give --maildir PATH, or --imap URL"):
        call_command("fetch_mail")


# --- outbound, through a real SMTP server ---------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Collect(MessageHandler):
    def __init__(self) -> None:
        super().__init__(email.message.EmailMessage)
        self.received: list[email.message.Message] = []

    def handle_message(self, message: email.message.Message) -> None:
        self.received.append(message)


@pytest.fixture
def smtp_server(settings):
    """A local SMTP server; Django's mail settings from ``EMAIL_URL=smtp://127.0.0.1:<port>``
    exactly as ``config.settings`` derives them."""
    handler = Collect()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    config = environ.Env.email_url_config(f"smtp://127.0.0.1:{port}")
    settings.EMAIL_BACKEND = config["EMAIL_BACKEND"]
    settings.EMAIL_HOST = config["EMAIL_HOST"]
    settings.EMAIL_PORT = config["EMAIL_PORT"]
    settings.EMAIL_USE_TLS = False
    try:
        yield handler
    finally:
        controller.stop()


def test_the_your_turn_mail_arrives_over_smtp_with_its_reply_to(alice, commits, smtp_server,
                                                                 settings):  # fmt: skip
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    settings.DEFAULT_FROM_EMAIL = "Warboard <warboard@warboard.example.org>"
    game = new_game(alice, seats=2, time_control="untimed", minutes=None)
    with commits():
        from games.play import lobby

        lobby.game_start(game_id=game.pk, user=alice)
    seat = seat_of(game, "alice")

    assert len(smtp_server.received) == 1
    received = email.message_from_bytes(
        smtp_server.received[0].as_bytes(), policy=email.policy.default
    )
    assert received["To"] == "alice@example.org"
    assert received["From"] == "Warboard <warboard@warboard.example.org>"
    assert received["Reply-To"] == notify.reply_to(seat)
    assert received["Subject"] == f"[Warboard] Your turn in Game {game.pk}"
    body = received.get_content()
    assert "What you may do now, in the move notation" in body
    assert mail.outbox == []  # it went over SMTP, not into the test outbox
