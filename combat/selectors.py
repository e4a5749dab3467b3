"""Reads for stand-alone A&A battles, and the check anyone can run once a seed is revealed."""

from __future__ import annotations

import uuid
from typing import Any

from combat import dice
from combat.models import AABattle
from games.web.exceptions import NotFoundError

#: Where a player finds the procedure to recompute the rolls by hand.
VERIFY_PROCEDURE = (
    "Check SHA-256(seed) == commitment, then recompute each roll from (seed, context, counter, "
    "sides) as the docstring of combat.dice describes: HMAC-SHA256(key=seed, "
    'msg=f"{context}:{counter}:{attempt}") with rejection sampling, mapped to 1..sides.'
)


def parse_battle_id(battle_id: object) -> uuid.UUID:
    """A battle id from a URL; anything that is not a UUID names no battle (404, not 400)."""
    try:
        return battle_id if isinstance(battle_id, uuid.UUID) else uuid.UUID(str(battle_id))
    except ValueError:
        raise NotFoundError("no A&A battle has this id", field="id") from None


def aa_battle_get(*, battle_id: object) -> AABattle:
    battle = AABattle.objects.filter(pk=parse_battle_id(battle_id)).first()
    if battle is None:
        raise NotFoundError("no A&A battle has this id", field="id")
    return battle


def aa_battle_verification(*, battle: AABattle) -> dict[str, Any]:
    """``verified`` is None until the seed is revealed, then whether every roll checks out."""
    verified = (
        dice.verify(battle.seed, battle.commitment, battle.context, battle.rolls())
        if battle.is_closed
        else None
    )
    return {"procedure": VERIFY_PROCEDURE, "verified": verified}
