"""Shared by the moves-by-email tests: games waiting for alice, fixtures filled in, replies to
the mails in ``django.core.mail.outbox`` built as a mail client would."""

from __future__ import annotations

import random
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

from django.core import mail
from django.utils import timezone

from games.models import ActionLog, Game, Seat
from games.play.reads import fetch
from risk.rules.bots import RandomBot, decide
from risk.rules.notation import format_action
from risk.rules.state import GameState

MAIL = Path(__file__).parent / "data" / "mail"
DOMAIN = "warboard.example.org"


def seat_of(game: Game, player: str) -> Seat:
    return Seat.objects.get(game=game, player=player)


def state_of(game: Game) -> GameState:
    game.refresh_from_db()
    return fetch.game_state(Game.objects.get(pk=game.pk))


def a_move(state: GameState, player: str, salt: Any = 0) -> str:
    """One legal move of ``player`` in the notation, chosen by the random player."""
    return format_action(state, decide(RandomBot(random.Random(f"mail:{salt}")), state, player))


def eml(name: str, **fill: str) -> bytes:
    """The fixture ``name`` with its ``%KEY%`` placeholders filled (``reply_to="..."``)."""
    raw = (MAIL / name).read_bytes()
    for key, value in fill.items():
        raw = raw.replace(f"%{key.upper()}%".encode(), value.encode())
    assert b"%REPLY_TO%" not in raw and b"%MOVE1%" not in raw
    return raw


def player_actions(game: Game, after: int, player: str = "alice") -> list[dict[str, Any]]:
    """The actions ``player`` played themselves after log entry ``after``, in order."""
    rows = ActionLog.objects.filter(
        game=game, sequence__gt=after, actor=player, source=ActionLog.Source.PLAYER
    ).order_by("sequence")
    return [row.action for row in rows]


def last_mail_to(address: str) -> Any:
    sent = [m for m in mail.outbox if m.to == [address]]
    assert sent, f"no mail to {address}"
    return sent[-1]


def reply_to_mail(message: Any, lines: list[str], *, sender: str = "alice@example.org") -> bytes:
    """A Gmail-like reply to ``message`` (a sent ``EmailMessage``): ``lines`` on top, then
    "On ... wrote:" and the whole original quoted, sent to its Reply-To."""
    reply = EmailMessage()
    reply["From"] = f"Alice <{sender}>"
    reply["To"] = message.reply_to[0]
    reply["Subject"] = f"Re: {message.subject}"
    reply["Date"] = format_datetime(timezone.now())
    reply["Message-ID"] = make_msgid(domain="mail.example.org")
    original = message.message()
    reply["In-Reply-To"] = original["Message-ID"]
    quoted = "\n".join(f"> {line}" if line else ">" for line in message.body.splitlines())
    reply.set_content(
        "\n".join(lines)
        + f"\n\nOn Tue, Nov 24, 2026 at 12:00 PM Warboard <{message.from_email}> wrote:\n\n"
        + quoted + "\n"
    )  # fmt: skip
    return reply.as_bytes()
