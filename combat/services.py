"""Writes for stand-alone A&A battles: each function owns its transaction.

The battle row is created before the dice roll because its id goes into the dice context, which
makes the roll stream unique to this battle even if a seed were ever reused. Everything happens in
one transaction, so a request the resolver rejects leaves no row behind.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from typing import Any, NamedTuple

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from combat.axis_allies import fight
from combat.dice import SeededDice, new_seed
from combat.models import AABattle
from combat.selectors import parse_battle_id
from games.web.exceptions import ForbiddenError, NotFoundError

#: The optional arguments of ``fight`` a stored request may carry, passed through by name.
FIGHT_OPTIONS = (
    "rules",
    "edition",
    "rounds",
    "attacker_order",
    "defender_order",
    "amphibious",
    "techs",
    "options",
)


class AABattleCreated(NamedTuple):
    battle: AABattle
    close_token: str  # shown once, to whoever asked for the battle; only its hash is stored


def battle_context(battle_id: object, client_seed: str) -> str:
    """The dice context: the battle id, then the client seed when the player gave one."""
    return f"aa-battle:{battle_id}" + (f":{client_seed}" if client_seed else "")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def aa_battle_create(
    *,
    request_data: Mapping[str, Any],
    requester: AbstractBaseUser | AnonymousUser | None,
    client_seed: str,
) -> AABattleCreated:
    """Roll the battle ``request_data`` describes with fresh server dice and store the proof."""
    seed = new_seed()
    close_token = secrets.token_urlsafe(24)
    with transaction.atomic():
        battle = AABattle.objects.create(
            requester=requester if requester is not None and requester.is_authenticated else None,
            request=dict(request_data),
            seed=seed,
            client_seed=client_seed,
            close_token_hash=token_hash(close_token),
        )
        dice = SeededDice(seed, context=battle_context(battle.id, client_seed))
        report = fight(
            request_data["attacker"],
            request_data["defender"],
            dice=dice,
            **{name: request_data[name] for name in FIGHT_OPTIONS if name in request_data},
        )
        battle.report = report.as_dict()
        battle.commitment = dice.commitment
        battle.context = dice.context
        battle.save(update_fields=["report", "commitment", "context"])
    return AABattleCreated(battle, close_token)


def aa_battle_close(
    *, battle_id: object, close_token: str | None, user: AbstractBaseUser | AnonymousUser | None
) -> AABattle:
    """Reveal the seed. Needs the close token, or the signed-in user who asked for the battle.

    Closing a closed battle changes nothing and answers the same (it still needs the authority,
    so a wrong token is always a 403).
    """
    pk = parse_battle_id(battle_id)
    with transaction.atomic():
        battle = AABattle.objects.select_for_update().filter(pk=pk).first()
        if battle is None:
            raise NotFoundError("no A&A battle has this id", field="id")
        _check_may_close(battle, close_token, user)
        if battle.closed_at is None:
            battle.closed_at = timezone.now()
            battle.save(update_fields=["closed_at"])
    return battle


def _check_may_close(
    battle: AABattle, close_token: str | None, user: AbstractBaseUser | AnonymousUser | None
) -> None:
    if close_token and hmac.compare_digest(token_hash(close_token), battle.close_token_hash):
        return
    is_requester = (
        user is not None
        and user.is_authenticated
        and battle.requester_id is not None
        and battle.requester_id == user.pk
    )
    if is_requester:
        return
    if close_token:
        raise ForbiddenError("does not match this battle's close token", field="close_token")
    raise ForbiddenError(
        "required: the token returned when the battle was created", field="close_token"
    )
