"""Ratings' API routes (mounted under ``/api/``)."""

from django.urls import path

from games.ratings import api as ratings

urlpatterns = [
    path("ratings", ratings.LeaderboardApi.as_view(), name="ratings"),
    path(
        "players/<username:username>/ratings",
        ratings.PlayerRatingsApi.as_view(),
        name="player-ratings",
    ),
]
