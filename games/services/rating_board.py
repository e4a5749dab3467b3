"""Reading ratings: the leaderboards and a player's ratings with their history.

Decisions: a leaderboard lists active users only, best first. Glicko-2 kinds sort by rating;
OpenSkill (``fast_risk_multi``) by its conservative ordinal ``mu - 3 sigma`` (the library's
own ``ordinal``), so a lucky first game does not top the board. Provisional ratings are listed
and marked (lichess hides them from its boards; with few players here an empty board helps
nobody).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import ExpressionWrapper, F, FloatField

from config.exceptions import ApplicationError, NotFoundError
from games.models import Rating, RatingChange
from games.services.ratings import GLICKO_KINDS, is_provisional

#: The most rows a leaderboard shows.
LEADERBOARD_SIZE = 50
KINDS = list(Rating.Kind.values)


def checked_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ApplicationError(
            "not a rating kind", code="invalid_choice", field="kind", allowed=KINDS
        )
    return kind


def leaderboard(kind: str, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The top ``limit`` ratings of ``kind``, with rank and the provisional mark."""
    rows = Rating.objects.filter(kind=checked_kind(kind), user__is_active=True)
    if kind in GLICKO_KINDS:
        rows = rows.order_by("-rating", "deviation", "user__username")
    else:
        ordinal = ExpressionWrapper(F("rating") - 3 * F("deviation"), output_field=FloatField())
        rows = rows.annotate(ordinal=ordinal).order_by("-ordinal", "user__username")
    rows = rows.select_related("user__profile")[:limit]
    return [{"rank": i + 1, **_rating(r)} for i, r in enumerate(rows)]


def player_ratings(username: str) -> dict[str, Any]:
    """A player's rating per kind and their history (oldest first); 404 for no such user."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise NotFoundError(f"no player {username}", field="username")
    ratings = Rating.objects.filter(user=user).select_related("user__profile").order_by("kind")
    history = RatingChange.objects.filter(user=user).order_by("at", "pk")
    return {
        "username": user.get_username(),
        "ratings": [_rating(r) for r in ratings],
        "history": [
            {
                "kind": c.kind,
                "game": c.game_id,
                "room": c.room_id,
                "at": c.at,
                "rating_before": c.rating_before,
                "rating_after": c.rating_after,
                "deviation_after": c.deviation_after,
            }
            for c in history
        ],
    }


def _rating(r: Rating) -> dict[str, Any]:
    profile = getattr(r.user, "profile", None)
    return {
        "username": r.user.get_username(),
        "display_name": str(profile) if profile is not None else r.user.get_username(),
        "kind": r.kind,
        "rating": round(r.rating, 1),
        "deviation": round(r.deviation, 1),
        "provisional": is_provisional(r.kind, r.deviation),
        "games": r.games,
        "last_played": r.last_played,
    }
