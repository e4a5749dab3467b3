"""The posts a room's journal takes, as one table: kind -> the service that writes it, the
fields it needs and whether it may come by mail.

The API (``POST /api/rooms/{id}/entries``) and a reply by mail (``rooms.by_mail``) both post
through ``run``, so a kind, its required fields and its refusal ("<kind> needs <field>",
code ``required``, naming the field) are written once. The API's ``POST_KINDS`` and the kinds
mail accepts are read from this table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.models import RoomEntry
from games.rooms import journal
from games.web.exceptions import ApplicationError

Fields = Mapping[str, Any]


@dataclass(frozen=True)
class Command:
    """One kind of post: ``write(room_id, user, fields)`` after ``needs`` are checked, in
    order (the first missing one is named)."""

    write: Callable[[int, Any, Fields], list[RoomEntry]]
    needs: tuple[str, ...] = ()
    by_mail: bool = False


def _note(room_id: int, user: Any, f: Fields) -> list[RoomEntry]:
    return [journal.post_note(room_id=room_id, user=user, text=f.get("text", ""))]


def _battle(room_id: int, user: Any, f: Fields) -> list[RoomEntry]:
    return list(journal.request_battle(room_id=room_id, user=user, notation=f.get("notation"),
                                       arguments=f.get("arguments")))  # fmt: skip


def _challenge(room_id: int, user: Any, f: Fields) -> list[RoomEntry]:
    return [journal.challenge(room_id=room_id, user=user, entry=f["entry"],
                              text=f.get("text", ""))]  # fmt: skip


def _ruling(room_id: int, user: Any, f: Fields) -> list[RoomEntry]:
    return journal.rule(room_id=room_id, user=user, entry=f["entry"], decision=f["decision"],
                        text=f.get("text", ""))  # fmt: skip


def _agree_result(room_id: int, user: Any, f: Fields) -> list[RoomEntry]:
    return journal.agree_result(room_id=room_id, user=user, winners=f["winners"],
                                text=f.get("text", ""))  # fmt: skip


def _decide_result(room_id: int, user: Any, f: Fields) -> list[RoomEntry]:
    return [journal.decide_result(room_id=room_id, user=user, winners=f["winners"],
                                  text=f.get("text", ""))]  # fmt: skip


def _end_turn(room_id: int, user: Any, f: Fields) -> list[RoomEntry]:
    return [journal.end_turn(room_id=room_id, user=user, text=f.get("text", ""))]


def _vacation(room_id: int, user: Any, f: Fields) -> list[RoomEntry]:
    return [journal.declare_vacation(room_id=room_id, user=user, days=f["days"])]


def _review(accept: bool) -> Callable[[int, Any, Fields], list[RoomEntry]]:
    def review(room_id: int, user: Any, f: Fields) -> list[RoomEntry]:
        return journal.review_ruling(room_id=room_id, user=user, entry=f["entry"], accept=accept,
                                     text=f.get("text", ""))  # fmt: skip

    return review


#: Every kind of post, in the order the API lists them.
COMMANDS: dict[str, Command] = {
    "note": Command(_note, by_mail=True),
    "battle": Command(_battle, by_mail=True),
    "challenge": Command(_challenge, needs=("entry",), by_mail=True),
    "ruling": Command(_ruling, needs=("decision", "entry")),
    "agree_result": Command(_agree_result, needs=("winners",)),
    "decide_result": Command(_decide_result, needs=("winners",)),
    "end_turn": Command(_end_turn, by_mail=True),
    "vacation": Command(_vacation, needs=("days",)),
    "accept_ruling": Command(_review(True), needs=("entry",)),
    "reject_ruling": Command(_review(False), needs=("entry",)),
}
#: What an entry post may be.
POST_KINDS = tuple(COMMANDS)
#: What a reply by mail may post (``games.rooms.core.mail_posts`` reads these from its lines).
MAIL_KINDS = tuple(kind for kind, command in COMMANDS.items() if command.by_mail)


def run(
    room_id: int, user: Any, kind: str, fields: Fields, *, by_mail: bool = False
) -> list[RoomEntry]:
    """Write one post of ``kind`` as ``user``: the entries written, in journal order."""
    allowed = MAIL_KINDS if by_mail else POST_KINDS
    if kind not in allowed:
        raise ApplicationError("not a kind of post", field="kind", allowed=allowed)
    command = COMMANDS[kind]
    for name in command.needs:
        if name not in fields:
            raise ApplicationError(f"{kind} needs {name}", field=name, code="required")
    return command.write(room_id, user, fields)
