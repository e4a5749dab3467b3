"""Room journals by mail (games.rooms.by_mail through inbound_mail.receive_mail), with
real MIME messages: the reply address every room mail carries, a note + a battle + end turn
posted in one reply, a forged address, a replay, a stranger's mail, a bad battle line; then the
same loop once through the anymail webhook and once through ``fetch_mail --maildir``.

The battles are World in Flames land attacks (``18 vs 6``), which roll exactly two d10: the
room's rolls 1 and 2 for the first battle of a room.
"""

from __future__ import annotations

import base64
import json
import mailbox
from email.message import EmailMessage
from email.utils import make_msgid
from io import StringIO

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.core.management import call_command

from games.mail.core import address
from games.mail.intake import receive_mail
from games.models import InboundMail, Room, RoomEntry, RoomSide
from games.rooms import journal
from games.rooms import mail as room_mail
from tests.games.mail_helpers import DOMAIN, eml, last_mail_to
from tests.games.rooms.test_rooms import seated

NOTE = "Panzers through the Ardennes.\nParatroops drop on Rotterdam."
BODY = "Panzers through the Ardennes.\nbattle 18 vs 6\nParatroops drop on Rotterdam.\nend turn"


@pytest.fixture
def wif(alice, bob, carol, settings) -> Room:
    """carol referees; alice plays the Axis (to move), bob the Allies."""
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    return seated(carol, alice, bob, name="Fall Gelb", system="wif", sides=["Axis", "Allies"])


def side(room: Room, position: int) -> RoomSide:
    return RoomSide.objects.get(room=room, position=position)


def new_entries(room: Room, after: int) -> list[tuple[int, str, str, str]]:
    rows = RoomEntry.objects.filter(room=room, number__gt=after).order_by("number")
    return [(e.number, e.side, e.kind, e.text) for e in rows]


def reply(room: Room, body: str = BODY, position: int = 0) -> bytes:
    """The Thunderbird reply with ``body`` on top, from the player of side ``position``."""
    player = side(room, position).user
    raw = eml("room_thunderbird_reply.eml", reply_to=room_mail.reply_to(side(room, position)),
              body=body)  # fmt: skip
    return raw.replace(b"<alice@example.org>", f"<{player.email}>".encode())


def test_every_room_mail_to_a_side_carries_its_signed_reply_address(wif, alice, bob):
    axis, allies = side(wif, 0), side(wif, 1)
    assert room_mail.reply_to(axis) == address.build_room(
        address.derive_key(django_settings.SECRET_KEY),
        DOMAIN,
        address.RoomAddress(wif.pk, 0),
    )
    assert room_mail.reply_to(axis).startswith(f"room+{wif.pk}.0.")
    mail.outbox.clear()

    assert room_mail.turn_reminder(wif.pk, axis.pk) == 1
    assert mail.outbox[-1].reply_to == [room_mail.reply_to(axis)]
    assert mail.outbox[-1].body.endswith(
        "\nReply to post to the journal as Axis: lines starting 'battle ' ask for a battle,\n"
        "'challenge <entry> <text>' disputes an entry, 'end turn' ends your turn, and the other\n"
        "lines make one move note, posted first.\n"
    )

    challenge = journal.challenge(room_id=wif.pk, user=alice, entry=1, text="not so")
    mail.outbox.clear()
    assert room_mail.entry_notice(challenge.pk) == 2  # bob and carol; alice wrote it
    by_address = {m.to[0]: m.reply_to for m in mail.outbox}
    assert by_address == {
        "bob@example.org": [room_mail.reply_to(allies)],
        "carol@example.org": [],  # the referee is no side: a ruling needs the page
    }
    assert (
        "Reply to post"
        not in mail.outbox[[m.to for m in mail.outbox].index(["carol@example.org"])].body
    )


def test_a_reply_to_an_ended_room_posts_nothing_and_says_why(wif, carol):
    journal.decide_result(room_id=wif.pk, user=carol, winners=["Allies"])
    before = Room.objects.get(pk=wif.pk).entry_count
    mail.outbox.clear()

    result = receive_mail(reply(wif, "Holding the line."))

    assert (result.outcome, result.refusal) == ("refused", "the room has ended")
    assert new_entries(wif, before) == []
    answer = last_mail_to("alice@example.org")
    assert (
        "Nothing was written.\n\nRefused: Holding the line.\n  the room has ended\n" in answer.body
    )
    assert answer.reply_to == []  # no address to post to an ended room


def test_a_reply_posts_its_note_then_its_battle_then_ends_the_turn(wif):
    before = wif.entry_count
    mail.outbox.clear()

    result = receive_mail(reply(wif))

    assert (result.outcome, result.room_id, result.refusal) == ("applied", wif.pk, None)
    n = before
    entries = new_entries(wif, before)
    summary = entries[2][3]
    assert entries == [
        (n + 1, "Axis", "note", NOTE),
        (n + 2, "Axis", "battle_request", "18 vs 6"),
        (n + 3, "server", "battle_result", summary),
        (n + 4, "Axis", "system", "Axis ends its turn; turn 1: Allies to move"),
    ]
    battle = RoomEntry.objects.get(room=wif, number=n + 3)
    assert (battle.data["first_roll"], battle.data["last_roll"]) == (1, 2)
    assert summary and summary == battle.data["summary"]
    wif.refresh_from_db()
    assert (wif.turn_position, wif.roll_count) == (1, 2)
    answer = last_mail_to("alice@example.org")
    assert answer.subject == "Re: [Fall Gelb] Axis: your turn is due 2026-11-27 10:00 UTC"
    assert answer.reply_to == [room_mail.reply_to(side(wif, 0))]
    assert (
        "Written to the journal, in order:\n"
        f"  #{n + 1} note: Panzers through the Ardennes.\n"
        f"  #{n + 2} battle: 18 vs 6\n"
        f"  #{n + 3} result: {summary} (rolls 1-2)\n"
        f"  #{n + 4} system: Axis ends its turn; turn 1: Allies to move\n"
    ) in answer.body
    assert "Refused" not in answer.body
    record = InboundMail.objects.get()
    assert (record.room_id, record.outcome, record.applied) == (wif.pk, "applied", 4)


def test_a_forged_room_address_is_refused_and_nothing_is_posted(wif):
    good = room_mail.reply_to(side(wif, 0))
    local, domain = good.split("@")
    forged = f"{local[:-20]}{'0' * 20}@{domain}"
    raw = eml("room_thunderbird_reply.eml", reply_to=forged, body=BODY)
    before = wif.entry_count
    mail.outbox.clear()

    result = receive_mail(raw)

    assert result.outcome == "refused" and "wrong signature" in (result.refusal or "")
    assert new_entries(wif, before) == []
    assert "Nothing was applied" in last_mail_to("alice@example.org").body


def test_a_replayed_mail_is_refused_and_posts_nothing_twice(wif):
    raw = reply(wif, "Holding the line.")
    before = wif.entry_count
    assert receive_mail(raw).outcome == "applied"
    mail.outbox.clear()

    again = receive_mail(raw)

    assert again.outcome == "refused" and "already processed" in (again.refusal or "")
    assert new_entries(wif, before) == [(before + 1, "Axis", "note", "Holding the line.")]
    assert InboundMail.objects.count() == 1


def test_a_strangers_mail_to_a_sides_address_posts_nothing_and_the_player_is_told(wif):
    raw = reply(wif).replace(b"From: Alice Example <alice@example.org>", b"From: bob@example.org")
    before = wif.entry_count
    mail.outbox.clear()

    result = receive_mail(raw)

    assert result.outcome == "refused" and result.applied == ()
    assert new_entries(wif, before) == []
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    assert (
        "a mail from bob@example.org to your reply address was refused: only mail from your "
        "account's address is posted"
    ) in mail.outbox[0].body
    assert InboundMail.objects.get().outcome == "refused"


def test_a_bad_battle_line_stops_the_mail_and_the_refusal_names_the_word(alice, bob, carol):
    room = seated(carol, alice, bob, name="Barbarossa", system="axis_allies",
                  sides=["Germany", "Soviet Union"])  # fmt: skip
    before = room.entry_count
    body = "Moves 3 inf 1 art to Karelia\nbattle 3 inf 1 zzz vs 2 inf\nend turn"
    mail.outbox.clear()

    result = receive_mail(reply(room, body))

    assert result.outcome == "partly"
    assert result.refused_line == "battle 3 inf 1 zzz vs 2 inf"
    assert new_entries(room, before) == [
        (before + 1, "Germany", "note", "Moves 3 inf 1 art to Karelia")
    ]
    room.refresh_from_db()
    assert (room.turn_position, room.roll_count) == (0, 0)  # end turn was not read
    body_sent = last_mail_to("alice@example.org").body
    assert f"  #{before + 1} note: Moves 3 inf 1 art to Karelia\n" in body_sent
    assert (
        "Refused: battle 3 inf 1 zzz vs 2 inf\n"
        "  battle: 'zzz' (word 4): expected a unit after the count (allowed: aa, aaa, arm, art, "
        "bb, bmb, car, cru, des, ftr, inf, mar, mech, sub, tac, tra)\n"
    ) in body_sent


def test_a_challenge_line_challenges_the_entry_it_names(wif, alice):
    request, _ = journal.request_battle(room_id=wif.pk, user=alice, notation="18 vs 6")
    before = Room.objects.get(pk=wif.pk).entry_count

    result = receive_mail(reply(wif, f"challenge #{request.number} there were 7 factors", 1))

    assert result.outcome == "applied"
    assert new_entries(wif, before) == [
        (before + 1, "Allies", "challenge", f"#{request.number}: there were 7 factors")
    ]


# --- the entry points, once each -----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_room_reply_through_the_postmark_webhook_is_posted(wif, client, settings):
    secret = "postmark:s3cret-webhook-password"
    settings.ANYMAIL = {"WEBHOOK_SECRET": secret}
    raw = reply(wif, "Holding the line.")
    payload = {
        "FromFull": {"Email": "alice@example.org", "Name": "Alice Example"},
        "ToFull": [{"Email": room_mail.reply_to(side(wif, 0)), "Name": "Warboard"}],
        "Subject": "Re: [Fall Gelb]",
        "MessageID": "0f4f4b4c-1111-2222-3333-444455556677",
        "TextBody": "Holding the line.",
        "Headers": [],
        "RawEmail": raw.decode("utf-8"),
    }
    auth = "Basic " + base64.b64encode(secret.encode()).decode()
    before = wif.entry_count

    response = client.post(
        "/anymail/postmark/inbound/", data=json.dumps(payload),
        content_type="application/json", HTTP_AUTHORIZATION=auth,
    )  # fmt: skip

    assert response.status_code == 200
    assert new_entries(wif, before) == [(before + 1, "Axis", "note", "Holding the line.")]
    assert InboundMail.objects.get().room_id == wif.pk


@pytest.mark.django_db(transaction=True)
def test_a_room_reply_in_a_maildir_is_posted_by_fetch_mail(wif, tmp_path):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    message = EmailMessage()
    message["From"] = "Bob <bob@example.org>"
    message["To"] = room_mail.reply_to(side(wif, 1))
    message["Subject"] = "Re: [Fall Gelb]"
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content("battle 18 vs 6\n")
    box.add(message.as_bytes())
    before = wif.entry_count
    out = StringIO()

    call_command("fetch_mail", "--maildir", str(tmp_path / "Maildir"), stdout=out)

    assert [(n, s, k) for n, s, k, _ in new_entries(wif, before)] == [
        (before + 1, "Allies", "battle_request"),
        (before + 2, "server", "battle_result"),
    ]
    assert out.getvalue().splitlines()[0].endswith(": applied, applied 2")
    assert [box.get_message(k).get_subdir() for k in box.iterkeys()] == ["cur"]
