"""The signed reply address (games.mail.core.address): built, read back, forgeries refused."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from config import environment
from games.mail.core import address
from games.mail.core.address import ForgedAddress, ReplyAddress

KEY = address.derive_key("not-the-real-secret")
DOMAIN = "play.example.org"


def test_an_address_reads_back_as_the_game_seat_and_turn_it_was_built_for():
    built = address.build(KEY, DOMAIN, ReplyAddress(game=42, seat=1, turn=7))
    # The signature is the HMAC-SHA256 of the part before it, cut to 20 hex digits.
    expected = hmac.new(KEY, b"moves+42.1.7", hashlib.sha256).hexdigest()[:20]
    assert built == f"moves+42.1.7.{expected}@play.example.org"
    assert address.parse(KEY, DOMAIN, built) == ReplyAddress(42, 1, 7)
    # Mail systems may change the case of an address or wrap it in angle brackets.
    assert address.parse(KEY, DOMAIN, f"<{built.upper()}>") == ReplyAddress(42, 1, 7)
    assert len(built.partition("@")[0]) <= 64  # RFC 5321's limit on a local part


def test_each_game_seat_and_turn_has_its_own_address():
    built = {
        address.build(KEY, DOMAIN, ReplyAddress(g, s, t))
        for g in (1, 2) for s in (0, 1) for t in (0, 1)
    }  # fmt: skip
    assert len(built) == 8


def test_a_changed_number_or_a_wrong_signature_is_a_forgery():
    built = address.build(KEY, DOMAIN, ReplyAddress(42, 1, 7))
    later_turn = built.replace("moves+42.1.7.", "moves+42.1.8.")
    with pytest.raises(ForgedAddress, match="wrong signature"):
        address.parse(KEY, DOMAIN, later_turn)
    other_key = address.build(address.derive_key("another secret"), DOMAIN, ReplyAddress(42, 1, 7))
    with pytest.raises(ForgedAddress):
        address.parse(KEY, DOMAIN, other_key)


def test_addresses_not_in_our_shape_or_domain_are_not_ours():
    built = address.build(KEY, DOMAIN, ReplyAddress(42, 1, 7))
    assert address.parse(KEY, "elsewhere.example.org", built) is None
    assert address.parse(KEY, DOMAIN, "alice@play.example.org") is None
    assert address.parse(KEY, DOMAIN, "moves+42.1.7@play.example.org") is None  # unsigned
    assert address.parse(KEY, DOMAIN, "moves+42.1.7.abc@play.example.org") is None  # short
    assert address.parse(KEY, DOMAIN, "not an address") is None


def test_the_default_reply_domain_is_that_of_the_from_address():
    assert environment.domain_of("Warboard <warboard@example.org>") == "example.org"
    assert environment.domain_of("warboard@localhost") == "localhost"
    assert environment.domain_of("nobody") == "localhost"


def test_a_room_address_reads_back_as_its_room_and_side_and_a_forged_one_is_refused():
    built = address.build_room(KEY, DOMAIN, address.RoomAddress(room=9, side=2))
    signature = hmac.new(KEY, b"room+9.2", hashlib.sha256).hexdigest()[:20]
    assert built == f"room+9.2.{signature}@{DOMAIN}"
    assert address.parse(KEY, DOMAIN, built.upper()) == address.RoomAddress(9, 2)
    other_side = f"room+9.3.{signature}@{DOMAIN}"
    with pytest.raises(ForgedAddress, match="wrong signature"):
        address.parse(KEY, DOMAIN, other_side)
    # A game's signature never passes for a room's: the signed parts differ.
    game = address.build(KEY, DOMAIN, ReplyAddress(game=9, seat=2, turn=0))
    with pytest.raises(ForgedAddress):
        address.parse(KEY, DOMAIN, f"room+9.2.{game.split('@')[0][-20:]}@{DOMAIN}")
