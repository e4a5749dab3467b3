"""The mail intake holds against hostile mail: each mail on its own (a failure parks that mail,
the rest go on), the size and shape limits before any parser (refused by name, in milliseconds),
a linear reply cutter. Through a real Maildir (``manage.py fetch_mail``) and anymail's webhook
(the Django test client), with the bad mails generated here (``mail_shapes``)."""

from __future__ import annotations

import base64
import json
import mailbox
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command

from games.mail.core import limits, reading
from games.mail.intake import receive_mail
from games.management.commands import fetch_mail
from games.models import InboundMail
from games.play import notify
from risk.rules.notation import parse_action
from tests.games.mail_helpers import DOMAIN, a_move, eml, player_actions, seat_of, state_of
from tests.games.mail_shapes import (
    cpu_seconds,
    deep_comment,
    many_fields,
    many_parts,
    many_recipients,
    nested,
    wrote_lines,
)
from tests.games.play import test_deadlines as shared
from tests.games.play.test_deadlines import started, waiting

_nobody_connected = shared._nobody_connected
commits = shared.commits

#: The most CPU one mail may cost (the promise), in seconds.
BUDGET = 0.2
SECRET = "postmark:s3cret-webhook-password"
NESTED = "the mail's MIME parts are nested more than 10 deep"
TOO_LARGE = "the mail is larger than 256 KB"
COMMENTS = "the mail's From header nests comments '(...)' more than 10 deep"


@pytest.fixture
def game(alice, commits, settings):
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    game = started(commits, alice, seats=2, time_control="untimed", minutes=None)
    assert waiting(game) == {"alice"}
    return game


# --- the limits, pure -----------------------------------------------------------------------------

TO = "moves+1.0.1.0123456789abcdef0123@warboard.example.org"


@pytest.mark.parametrize(
    ("shape", "reason"),
    [
        (lambda: nested(TO), NESTED),
        (lambda: nested(TO, depth=11), NESTED),
        (lambda: many_recipients(TO), TOO_LARGE),
        (
            lambda: many_fields(TO, count=10, size=8000),
            "the mail's header is larger than 64 KB",
        ),
        (
            lambda: many_recipients(TO, count=800),
            "the mail's To header is larger than 16 KB",
        ),
        (
            lambda: many_recipients(TO, count=400),
            "the mail's address headers (From, To, Cc, ...) are larger than 8 KB together "
            "(about 100 addresses)",
        ),
        (lambda: many_parts(TO), TOO_LARGE),
        (
            lambda: many_parts(TO, count=201),
            "the mail has 202 lines beginning '--' (MIME parts begin so); at most 200",
        ),
        (lambda: deep_comment(TO), COMMENTS),
        (lambda: deep_comment(TO, depth=11), COMMENTS),
    ],
)
def test_each_limit_is_refused_by_name_in_milliseconds(shape, reason):
    raw = shape()
    seconds, refused = cpu_seconds(lambda: limits.refusal(raw))
    assert refused == reason
    assert seconds < 0.05


def test_ordinary_replies_are_within_every_limit():
    for name in ("gmail_reply.eml", "outlook_reply.eml", "apple_mail_reply.eml"):
        assert limits.refusal(eml(name, reply_to=TO, move1="end", move2="end")) is None
    assert limits.refusal(nested(TO, depth=10)) is None  # ten deep is allowed
    assert limits.nesting(nested(TO, depth=7)) == 7
    assert limits.refusal(deep_comment(TO, depth=10)) is None  # ten deep is allowed


def test_comment_depth_reads_quotes_and_escapes_as_rfc_5322_does():
    assert limits.comment_depth(b"Bob (work (London)) <bob@example.org>") == 2
    assert limits.comment_depth(b'"((((((((((((" <bob@example.org>') == 0  # in a quoted string
    assert limits.comment_depth(b"a \\( (b)") == 1  # an escaped '(' opens nothing
    assert limits.comment_depth(b"a \\\\( (b)") == 2  # an escaped backslash, then a real '('
    assert limits.comment_depth(b"(a) (b) (c)") == 1


def test_the_head_of_an_unread_mail_is_found_without_a_parser():
    head = limits.head_of(nested(TO))
    assert (head.message_id, head.sender, head.subject) == (
        "<nested-400@mail.example.org>", "alice@example.org", "Re: your turn"
    )  # fmt: skip
    assert limits.head_of(deep_comment(TO)).sender == ""  # no address: nobody to answer


def test_quoted_reply_stripping_is_linear():
    """20 lines of ``On On On ...`` took 0.5 s (2.4 s on the attacker's machine) in
    mail-parser-reply; the cut is now one pass over the lines."""
    seconds, text = cpu_seconds(lambda: reading.reply_text(wrote_lines(20)))
    kept = wrote_lines(20)[: reading.MAX_TEXT_CHARS].split("\n")
    assert text == "\n".join(line.strip() for line in kept)  # no header in it: all kept
    assert seconds < 0.02
    long_seconds, _ = cpu_seconds(lambda: reading.reply_text(wrote_lines(200)))
    assert long_seconds < 0.02  # cut at MAX_TEXT_CHARS first: no more than 20 lines' work


def test_the_reply_cutter_keeps_what_the_player_wrote():
    text = (
        "place 3 Alaska\n> inline quote stays\nend\n\nOn Tue, Nov 24, 2026 at 12:00 PM Warboard <\n"
        "warboard@example.org> wrote:\n> - roll\n"
    )
    assert reading.reply_text(text) == "place 3 Alaska\n> inline quote stays\nend"
    assert reading.reply_text("end\nFrom: Warboard\nSent: Tuesday\n\nroll") == "end"
    assert reading.reply_text("Thanks, all moves\nend") == "Thanks, all moves\nend"
    assert reading.reply_text("end\n" + "_" * 32 + "\nroll") == "end"


# --- the service: parked, not raised ------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_each_bad_mail_is_parked_with_its_reason_in_a_fraction_of_a_second(game):
    to = notify.reply_to(seat_of(game, "alice"))
    version = game.version
    for raw, reason in [
        (nested(to), NESTED),
        (many_recipients(to), TOO_LARGE),
        (many_parts(to), TOO_LARGE),
        (many_parts(to, count=150), None),  # within the limits: read ("end" is refused)
    ]:
        seconds, result = cpu_seconds(lambda raw=raw: receive_mail(raw))
        assert seconds < BUDGET, (reason, seconds)
        if reason is not None:
            assert (result.outcome, result.refusal) == ("parked", reason)
    rows = dict(InboundMail.objects.values_list("message_id", "outcome"))
    assert rows == {
        "<nested-400@mail.example.org>": "parked",
        "<recipients-60000@mail.example.org>": "parked",
        "<parts-8000@mail.example.org>": "parked",
        "<parts-150@mail.example.org>": "refused",  # read: its first part's "end" refused
    }
    assert player_actions(game, version) == []


@pytest.mark.django_db(transaction=True)
def test_a_mail_whose_processing_fails_is_parked_and_logged(game, caplog, monkeypatch):
    """A bug of ours (here: the reader raising) parks the mail; the others go on."""
    raw = eml("gmail_reply.eml", reply_to=notify.reply_to(seat_of(game, "alice")),
              move1="end", move2="end")  # fmt: skip
    assert limits.refusal(raw) is None

    def broken(_raw: bytes) -> None:
        raise KeyError("a bug of ours")

    monkeypatch.setattr(reading, "read_mail", broken)
    result = receive_mail(raw)

    assert result.outcome == "parked"
    assert result.refusal == "processing failed (KeyError: 'a bug of ours')"
    row = InboundMail.objects.get()
    assert (row.outcome, row.reason) == ("parked", result.refusal)
    assert row.message_id == limits.head_of(raw).message_id
    assert any(r.levelname == "ERROR" and r.exc_info for r in caplog.records)


# --- fetch_mail on a real Maildir -----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_fetch_mail_parks_the_bad_mails_and_reads_the_good_one_after_them(game, tmp_path):
    seat, state, version = seat_of(game, "alice"), state_of(game), game.version
    to = notify.reply_to(seat)
    move = a_move(state, "alice")
    path = tmp_path / "Maildir"
    mailbox.Maildir(path, create=True)
    bad = [nested(to), many_recipients(to), many_parts(to), deep_comment(to)]
    good = eml("apple_mail_reply.eml", reply_to=to, move1=move, move2="end")
    for number, raw in enumerate([*bad, good]):  # named so that they are read in this order
        (path / "new" / f"17000000{number:02d}.M1P1Q{number}.host").write_bytes(raw)
    out = StringIO()

    seconds, _ = cpu_seconds(lambda: call_command("fetch_mail", "--maildir", str(path), stdout=out))

    lines = out.getvalue().splitlines()
    assert [line.split(": ", 1)[1] for line in lines[:3]] == [
        f"parked ({NESTED})",
        f"parked ({TOO_LARGE})",
        f"parked ({TOO_LARGE})",
    ]
    assert lines[3].split(": ", 1)[1] == f"parked ({COMMENTS})"
    assert lines[4].endswith(": applied, applied 1") and lines[5] == "5 mail(s) processed"
    assert player_actions(game, version) == [parse_action(state, "alice", move).to_dict()]
    assert list((path / "new").iterdir()) == []
    assert [p.name for p in (path / "cur").iterdir()] == ["1700000004.M1P1Q4.host:2,S"]
    quarantined = sorted(p.name for p in (path / ".Quarantine" / "cur").iterdir())
    assert quarantined == [f"17000000{n:02d}.M1P1Q{n}.host:2,S" for n in range(4)]
    assert (path / ".Quarantine" / "cur" / quarantined[0]).read_bytes() == bad[0]  # unchanged
    assert mailbox.Maildir(path).list_folders() == ["Quarantine"]
    assert seconds < 5 * BUDGET  # five mails, one of them a whole move with its bot's answer

    again = StringIO()
    call_command("fetch_mail", "--maildir", str(path), stdout=again)
    assert again.getvalue() == "0 mail(s) processed\n"


@pytest.mark.django_db(transaction=True)
def test_fetch_mail_reads_new_mail_however_many_are_in_cur(game, tmp_path, monkeypatch):
    """The batch is of new/ only: with more read mails in cur/ than a batch, new ones were
    never reached (the first BATCH names of new/ and cur/ together were all in cur/)."""
    monkeypatch.setattr(fetch_mail, "BATCH", 2)
    path = tmp_path / "Maildir"
    mailbox.Maildir(path, create=True)
    for number in range(3):
        (path / "cur" / f"100{number}.M1P1Q1.host:2,S").write_bytes(b"From: a@b.org\n\nx\n")
    (path / "new" / "2000.M1P1Q1.host").write_bytes(b"From: a@b.org\nTo: c@d.org\n\nhello\n")
    out = StringIO()
    call_command("fetch_mail", "--maildir", str(path), stdout=out)
    assert out.getvalue().splitlines() == [
        "2000.M1P1Q1.host: ignored (not addressed to a reply address)",
        "1 mail(s) processed",
    ]


# --- the anymail webhook --------------------------------------------------------------------------


def postmark(client, raw: bytes):
    payload = {  # Postmark's inbound JSON with "Include raw email content" on
        "FromFull": {"Email": "alice@example.org", "Name": "Alice"},
        "ToFull": [{"Email": "x@example.org", "Name": ""}],
        "Subject": "Re: your turn",
        "MessageID": "0f4f4b4c-1111-2222-3333-444455556666",
        "TextBody": "end",
        "Headers": [],
        "RawEmail": raw.decode("utf-8"),
    }
    auth = "Basic " + base64.b64encode(SECRET.encode()).decode()
    return client.post(
        "/anymail/postmark/inbound/", data=json.dumps(payload), content_type="application/json",
        HTTP_AUTHORIZATION=auth,
    )  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_the_webhook_answers_200_with_the_parked_mail_never_a_500(game, client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    to = notify.reply_to(seat_of(game, "alice"))
    version = game.version
    warm = postmark(client, b"From: bob@example.org\r\nTo: x@example.org\r\n\r\nhello\r\n")
    assert warm.json() == {"mails": [{"outcome": "ignored", "reason": "not addressed to a "
                                      "reply address"}]}  # fmt: skip
    mail.outbox.clear()
    for raw, reason in [(nested(to), NESTED), (many_parts(to), TOO_LARGE)]:
        seconds, response = cpu_seconds(lambda raw=raw: postmark(client, raw))
        assert response.status_code == 200
        assert response.json() == {"mails": [{"outcome": "parked", "reason": reason}]}
        assert seconds < BUDGET, (reason, seconds)
    # 60,000 addresses: refused before anymail reads the post (its '@' signs are counted).
    seconds, response = cpu_seconds(lambda: postmark(client, many_recipients(to)))
    assert response.status_code == 413
    assert "'@' signs (addresses); at most 1000 are read" in response.json()["message"]
    assert seconds < BUDGET
    response = postmark(client, deep_comment(to))
    assert response.status_code == 200
    (parked,) = response.json()["mails"]
    assert parked == {"outcome": "parked", "reason": COMMENTS}
    assert InboundMail.objects.filter(outcome="parked").count() == 3
    assert player_actions(game, version) == []
    # alice is a registered user: she is told why each of her unread mails was not read.
    told = [m.body for m in mail.outbox if m.to == ["alice@example.org"]]
    assert [any(reason in body for body in told) for reason in (NESTED, TOO_LARGE)] == [True] * 2


@pytest.mark.django_db(transaction=True)
def test_the_webhook_still_plays_a_good_mail_and_says_so(game, client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    seat, state, version = seat_of(game, "alice"), state_of(game), game.version
    move = a_move(state, "alice")
    raw = eml("gmail_reply.eml", reply_to=notify.reply_to(seat), move1=move, move2="end turn")
    response = postmark(client, raw)
    assert response.status_code == 200
    assert response.json() == {"mails": [{"outcome": "applied", "reason": None}]}
    assert player_actions(game, version) == [parse_action(state, "alice", move).to_dict()]


@pytest.mark.django_db(transaction=True)
def test_the_webhook_refuses_a_post_anymail_cannot_read_with_a_clear_400(client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    auth = "Basic " + base64.b64encode(SECRET.encode()).decode()
    response = client.post(
        "/anymail/postmark/inbound/", data="{not json",
        content_type="application/json", HTTP_AUTHORIZATION=auth,
    )  # fmt: skip
    assert response.status_code == 400
    assert response.json()["field"] == "body"
    assert response.json()["message"].startswith("the inbound post could not be read (")
    assert client.post("/anymail/nosuchesp/inbound/").status_code == 404
    probe = client.head("/anymail/postmark/inbound/")  # some providers check the URL so
    assert (probe.status_code, probe.content) == (200, b"")


@pytest.mark.django_db(transaction=True)
def test_the_webhook_refuses_a_parsed_post_with_20000_addresses_before_anymail_reads_it(
    client, settings
):
    """A provider that posts parsed fields (no raw MIME): anymail would set the 20,000
    addresses on a header, and the email package's parser takes seconds over them (60,000:
    ~24 s)."""
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    payload = {
        "FromFull": {"Email": "alice@example.org", "Name": "Alice"},
        "ToFull": [{"Email": f"player{i}@example.net", "Name": ""} for i in range(20_000)],
        "Subject": "Re: your turn", "MessageID": "1", "TextBody": "end", "Headers": [],
    }  # fmt: skip
    auth = "Basic " + base64.b64encode(SECRET.encode()).decode()
    data = json.dumps(payload)

    def post():
        return client.post(
            "/anymail/postmark/inbound/", data=data, content_type="application/json",
            HTTP_AUTHORIZATION=auth,
        )  # fmt: skip

    seconds, response = cpu_seconds(post)
    assert response.status_code == 413
    assert response.json() == {
        "error": "too_large", "field": "body", "allowed": None,
        "message": "the post has 20001 '@' signs (addresses); at most 1000 are read "
        "(a mail is read with about 100 addresses)",
    }  # fmt: skip
    assert seconds < BUDGET
    assert InboundMail.objects.count() == 0
