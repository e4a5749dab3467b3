"""combat.dice: the commit-reveal dice players verify, fixed dice, and verification."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from combat.dice import (
    DiceError,
    FixedDice,
    RandomDice,
    Roll,
    SeededDice,
    commitment_of,
    derive_roll,
    verify,
)

SEED, CONTEXT = "warboard-golden-seed", "aa-battle:example"


def documented_procedure(seed: str, context: str, counter: int, sides: int) -> int:
    """The procedure as combat.dice's docstring tells players, written out independently."""
    attempt = 0
    while True:
        msg = f"{context}:{counter}:{attempt}".encode()
        x = int.from_bytes(hmac.new(seed.encode(), msg, hashlib.sha256).digest(), "big")
        if x < 2**256 - (2**256 % sides):
            return x % sides + 1
        attempt += 1


def test_golden_rolls_never_change():
    """Frozen output: a change here breaks every published verification."""
    dice = SeededDice(SEED, context=CONTEXT)
    assert [dice.roll() for _ in range(10)] == [2, 2, 3, 2, 4, 1, 6, 1, 3, 1]
    assert [dice.roll(20) for _ in range(5)] == [17, 4, 16, 12, 13]
    assert dice.commitment == "7ba48f780cad9924f6d358b0a0a23f639859c278be8c76419f0b38157f9b8dc4"


def test_rolls_follow_the_documented_procedure():
    dice = SeededDice(SEED, context=CONTEXT)
    for counter, sides in enumerate([6, 6, 5, 20, 2, 6, 10]):
        assert dice.roll(sides) == documented_procedure(SEED, CONTEXT, counter, sides)
    assert [r.counter for r in dice.log] == list(range(7))
    assert [r.sides for r in dice.log] == [6, 6, 5, 20, 2, 6, 10]


def test_commitment_is_the_sha256_of_the_seed():
    assert SeededDice(b"abc").commitment == hashlib.sha256(b"abc").hexdigest()
    assert commitment_of("abc") == commitment_of(b"abc")


def test_context_separates_streams():
    first = [derive_roll(SEED, "battle:1", n, 6) for n in range(20)]
    second = [derive_roll(SEED, "battle:2", n, 6) for n in range(20)]
    assert first != second


def test_faces_are_uniform_enough_over_60000_rolls():
    """A fixed stream, so the counts are fixed: each face within 2% of 10,000."""
    counts = Counter(derive_roll(SEED, "uniformity", n, 6) for n in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9_800 <= c <= 10_200 for c in counts.values()), counts


def test_verify_accepts_the_log_and_rejects_any_tampering():
    dice = SeededDice(SEED, context=CONTEXT)
    for _ in range(12):
        dice.roll()
    log = [r.as_dict() for r in dice.log]
    assert verify(SEED, dice.commitment, CONTEXT, log)
    assert verify(SEED, dice.commitment, CONTEXT, dice.log)  # Roll objects too
    tampered = [dict(r) for r in log]
    tampered[5]["value"] = tampered[5]["value"] % 6 + 1
    assert not verify(SEED, dice.commitment, CONTEXT, tampered)
    assert not verify("another seed", dice.commitment, CONTEXT, log)
    assert not verify(SEED, dice.commitment, "another context", log)
    assert not verify(SEED, commitment_of("x"), CONTEXT, log)


def test_fixed_dice_replay_and_refuse_what_they_cannot_give():
    dice = FixedDice([3, 6])
    assert (dice.roll(), dice.roll()) == (3, 6)
    assert dice.log == [Roll(0, 6, 3), Roll(1, 6, 6)]
    with pytest.raises(DiceError, match="roll 3 asked for, only 2 given"):
        dice.roll()
    with pytest.raises(DiceError, match="not on a d4"):
        FixedDice([5]).roll(4)


def test_a_die_needs_two_sides():
    with pytest.raises(DiceError, match="sides"):
        SeededDice("s").roll(1)


def test_random_dice_are_reproducible_from_their_seed():
    a, b = RandomDice(7), RandomDice(7)
    assert [a.roll() for _ in range(50)] == [b.roll() for _ in range(50)]


def test_shuffle_is_fisher_yates_from_the_end():
    """A B C D with rolls 2, 3, 1: i=4 swaps 4 and 2 -> A D C B; i=3 swaps 3 and 3 -> A D C B;
    i=2 swaps 2 and 1 -> D A C B. Three rolls for four items."""
    from combat.dice import shuffle

    dice = FixedDice([2, 3, 1])
    assert shuffle("ABCD", dice) == ("D", "A", "C", "B")
    assert [r.sides for r in dice.log] == [4, 3, 2]
