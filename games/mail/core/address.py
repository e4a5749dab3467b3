"""The signed reply addresses: of a "your turn" mail (unique to game, seat and turn) and of a
room's mail (unique to room and side).

Shapes: ``moves+<game>.<seat>.<turn>.<signature>@<domain>`` and
``room+<room>.<side>.<signature>@<domain>``

- ``game``: the game's id; ``seat``: the seat's position (a seat is never renumbered);
- ``turn``: the seat's count of turns begun (``Seat.turns``: the times the game started waiting
  for that player). A reply to an older turn's address carries an older count, so a mail
  answered after the turn has passed is recognised even when the player is waited for again;
- ``signature``: the first 20 hex digits (80 bits) of an HMAC-SHA256 over
  ``moves+<game>.<seat>.<turn>`` with a key derived from the site's secret. Hex, because some
  mail systems lower-case local parts; 80 bits, because a forger gets one try per mail.

- a room address has no turn: a room's journal takes posts from a side at any time (notes,
  battles, challenges), so one address per side serves the whole room; its signature is over
  ``room+<room>.<side>`` with the same key. A replay is caught by the mail's Message-ID
  (``InboundMail``), not by the address.

The local part stays under 64 characters (RFC 5321) for any realistic id. Parsing is strict:
anything but this exact shape is "not a reply address" (``None``), and a well-formed address
with a wrong signature raises ``ForgedAddress``, so the caller can say which happened.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

PREFIX = "moves"
ROOM_PREFIX = "room"
SIGNATURE_LENGTH = 20
#: Keys are derived per purpose, so this HMAC never equals one Django computes elsewhere.
KEY_SALT = b"warboard.mail.reply-address"

_LOCAL = re.compile(
    rf"^{PREFIX}\+(\d{{1,12}})\.(\d{{1,4}})\.(\d{{1,9}})\.([0-9a-f]{{{SIGNATURE_LENGTH}}})$"
)

_ROOM_LOCAL = re.compile(
    rf"^{ROOM_PREFIX}\+(\d{{1,12}})\.(\d{{1,4}})\.([0-9a-f]{{{SIGNATURE_LENGTH}}})$"
)


class ForgedAddress(ValueError):
    """A reply address in our shape whose signature does not match: never acted on."""


@dataclass(frozen=True)
class ReplyAddress:
    game: int
    seat: int
    turn: int


@dataclass(frozen=True)
class RoomAddress:
    """A room's reply address: the room's id and the side's position (turn order, from 0)."""

    room: int
    side: int


def derive_key(secret: str) -> bytes:
    """The HMAC key for reply addresses, derived from the site's secret key."""
    return hashlib.sha256(KEY_SALT + b"\x00" + secret.encode("utf-8")).digest()


def _signed_part(game: int, seat: int, turn: int) -> str:
    return f"{PREFIX}+{game}.{seat}.{turn}"


def _signature(key: bytes, signed: str) -> str:
    return hmac.new(key, signed.encode("ascii"), hashlib.sha256).hexdigest()[:SIGNATURE_LENGTH]


def build(key: bytes, domain: str, address: ReplyAddress) -> str:
    """The reply address for ``address`` at ``domain``."""
    signed = _signed_part(address.game, address.seat, address.turn)
    return f"{signed}.{_signature(key, signed)}@{domain}"


def build_room(key: bytes, domain: str, address: RoomAddress) -> str:
    """The reply address of a room's side at ``domain``."""
    signed = f"{ROOM_PREFIX}+{address.room}.{address.side}"
    return f"{signed}.{_signature(key, signed)}@{domain}"


def parse(key: bytes, domain: str, candidate: str) -> ReplyAddress | RoomAddress | None:
    """The reply address ``candidate`` stands for (a game's or a room's); ``None`` if it is not
    one of ours (another domain or another shape); ``ForgedAddress`` if it has our shape but a
    wrong signature."""
    local, at, host = candidate.strip().strip("<>").rpartition("@")
    if not at or host.lower() != domain.lower():
        return None
    room = _ROOM_LOCAL.match(local.lower())
    if room is not None:
        return _parse_room(key, candidate, *room.groups())
    match = _LOCAL.match(local.lower())
    if match is None:
        return None
    game, seat, turn, signature = match.groups()
    signed = _signed_part(int(game), int(seat), int(turn))
    if not hmac.compare_digest(signature, _signature(key, signed)):
        raise ForgedAddress(f"the reply address {candidate.strip()!r} has a wrong signature")
    return ReplyAddress(int(game), int(seat), int(turn))


def _parse_room(key: bytes, candidate: str, room: str, side: str, signature: str) -> RoomAddress:
    signed = f"{ROOM_PREFIX}+{int(room)}.{int(side)}"
    if not hmac.compare_digest(signature, _signature(key, signed)):
        raise ForgedAddress(f"the reply address {candidate.strip()!r} has a wrong signature")
    return RoomAddress(int(room), int(side))
