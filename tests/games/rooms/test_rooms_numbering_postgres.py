"""A room's numbering under PostgreSQL: posts arriving at the same moment, from the site's
services and by mail, each thread on its own connection, get journal numbers 1..N and roll
numbers 1..R with no gap and no duplicate (the room's row lock, ``rooms.writing``).

Twelve threads, released together by a barrier: four post a note, four ask for a battle (World
in Flames ``18 vs 6``: exactly two d10, so two roll numbers each), and four send a reply by mail
with a note and the same battle (three entries each). alice (the Axis) and bob (the Allies)
take turns. Marked ``services``: run in the second pass with DATABASE_URL set.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from email.message import EmailMessage
from typing import Any

import pytest
from django.db import connection

from games.mail.intake import receive_mail
from games.models import Room, RoomEntry, RoomSide
from games.rooms import journal
from games.rooms import mail as room_mail
from tests.games.mail_helpers import DOMAIN
from tests.games.rooms.test_rooms import seated

THREADS = 12


def by_mail(room: Room, side: RoomSide, index: int) -> None:
    message = EmailMessage()
    message["From"] = side.user.email if side.user else ""
    message["To"] = room_mail.reply_to(side)
    message["Subject"] = "Re: [Fall Gelb]"
    message["Message-ID"] = f"<race-{index}@example.org>"
    message.set_content(f"mail note {index}\nbattle 18 vs 6\n")
    result = receive_mail(message.as_bytes())
    assert result.outcome == "applied", result


def post(room: Room, side: RoomSide, index: int) -> None:
    """Thread ``index``'s post: a note, a battle, or a mail with both."""
    if index % 3 == 0:
        journal.post_note(room_id=room.pk, user=side.user, text=f"note {index}")
    elif index % 3 == 1:
        journal.request_battle(room_id=room.pk, user=side.user, notation="18 vs 6")
    else:
        by_mail(room, side, index)


def together(work: Callable[[int], None], count: int) -> None:
    """``work(i)`` for each ``i`` in its own thread, all released at once; the first error
    of any thread raised here."""
    barrier = threading.Barrier(count)
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            work(index)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a post never returned"
    if errors:
        raise errors[0]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)  # threads see only committed rows
def test_simultaneous_posts_and_mails_number_the_journal_and_the_rolls_without_gaps(
    alice, bob, carol, settings
):
    assert connection.vendor == "postgresql"
    settings.MAIL_REPLY_DOMAIN = DOMAIN
    room = seated(carol, alice, bob, name="Fall Gelb", system="wif", sides=["Axis", "Allies"])
    sides = list(RoomSide.objects.filter(room=room).select_related("user").order_by("position"))
    before = room.entry_count

    together(lambda i: post(room, sides[i % 2], i), THREADS)

    entries = list(RoomEntry.objects.filter(room=room).order_by("number"))
    # 4 notes (1 entry), 4 battles (2 entries), 4 mails (note + battle: 3 entries).
    total = before + 4 * 1 + 4 * 2 + 4 * 3
    assert [e.number for e in entries] == list(range(1, total + 1))
    results = [e for e in entries if e.kind == RoomEntry.Kind.BATTLE_RESULT]
    assert len(results) == 8
    rolls: list[Any] = [r["number"] for e in results for r in e.data["rolls"]]
    assert rolls == list(range(1, 17))  # in journal order, two each, none twice
    for result in results:  # each result right after its request, its rolls its own
        assert result.refers_to is not None and result.refers_to.number == result.number - 1
        assert result.data["last_roll"] == result.data["first_roll"] + 1
    room.refresh_from_db()
    assert (room.entry_count, room.roll_count) == (total, 16)
