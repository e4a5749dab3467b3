"""Reading ratings: the leaderboards and a player's ratings with their history.

Decisions: a leaderboard lists active users only, best first. Glicko-2 kinds sort by rating;
OpenSkill (``fast_risk_multi``) by its conservative ordinal ``mu - 3 sigma`` (the library's
own ``ordinal``), so a lucky first game does not top the board. Provisional ratings are listed
and marked (lichess hides them from its boards; with few players here an empty board helps
nobody).

A player's history lists a private game's or room's rating change only to that game's players
(a seat in any state) or room's sides, to the player themselves, and to staff: to anyone else
the game answers 404, and its date and rating change must not tell them it exists. The current
rating per kind (and its count of results) stays public, as on the leaderboard.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, ExpressionWrapper, F, FloatField, OuterRef, Q, QuerySet

from games.models import Rating, RatingChange, RoomSide, Seat
from games.ratings.rate import GLICKO_KINDS, is_provisional
from games.web.exceptions import ApplicationError, NotFoundError

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


def player_ratings(username: str, viewer: Any = None) -> dict[str, Any]:
    """A player's rating per kind and their history (oldest first) as ``viewer`` may see it
    (the module's rule; None: a visitor); 404 for no such user."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise NotFoundError(f"no player {username}", field="username")
    ratings = Rating.objects.filter(user=user).select_related("user__profile").order_by("kind")
    history = visible_changes(user, viewer).order_by("at", "pk")
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


def visible_changes(user: Any, viewer: Any) -> QuerySet[RatingChange]:
    """``user``'s rating changes ``viewer`` may see: those of public games and rooms, and of
    private ones the viewer played in (or all of them, for the player themselves and staff)."""
    changes = RatingChange.objects.filter(user=user)
    signed_in = viewer is not None and viewer.is_authenticated
    if signed_in and (viewer.pk == user.pk or viewer.is_staff):
        return changes
    shown = Q(game__public=True) | Q(room__public=True)
    if signed_in:
        shown |= Q(Exists(Seat.objects.filter(game=OuterRef("game_id"), user=viewer)))
        shown |= Q(Exists(RoomSide.objects.filter(room=OuterRef("room_id"), user=viewer)))
    return changes.filter(shown)


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
