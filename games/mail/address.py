"""The signed reply address of a "your turn" mail: unique to game, seat and turn.

Shape: ``moves+<game>.<seat>.<turn>.<signature>@<domain>``

- ``game``: the game's id; ``seat``: the seat's position (a seat is never renumbered);
- ``turn``: the seat's count of turns begun (``Seat.turns``: the times the game started waiting
  for that player). A reply to an older turn's address carries an older count, so a mail
  answered after the turn has passed is recognised even when the player is waited for again;
- ``signature``: the first 20 hex digits (80 bits) of an HMAC-SHA256 over
  ``moves+<game>.<seat>.<turn>`` with a key derived from the site's secret. Hex, because some
  mail systems lower-case local parts; 80 bits, because a forger gets one try per mail.

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
SIGNATURE_LENGTH = 20
#: Keys are derived per purpose, so this HMAC never equals one Django computes elsewhere.
KEY_SALT = b"warboard.mail.reply-address"

_LOCAL = re.compile(
    rf"^{PREFIX}\+(\d{{1,12}})\.(\d{{1,4}})\.(\d{{1,9}})\.([0-9a-f]{{{SIGNATURE_LENGTH}}})$"
)


class ForgedAddress(ValueError):
    """A reply address in our shape whose signature does not match: never acted on."""


@dataclass(frozen=True)
class ReplyAddress:
    game: int
    seat: int
    turn: int


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


def parse(key: bytes, domain: str, candidate: str) -> ReplyAddress | None:
    """The reply address ``candidate`` stands for; ``None`` if it is not one of ours (another
    domain or another shape); ``ForgedAddress`` if it has our shape but a wrong signature."""
    local, at, host = candidate.strip().strip("<>").rpartition("@")
    if not at or host.lower() != domain.lower():
        return None
    match = _LOCAL.match(local.lower())
    if match is None:
        return None
    game, seat, turn, signature = match.groups()
    signed = _signed_part(int(game), int(seat), int(turn))
    if not hmac.compare_digest(signature, _signature(key, signed)):
        raise ForgedAddress(f"the reply address {candidate.strip()!r} has a wrong signature")
    return ReplyAddress(int(game), int(seat), int(turn))
