"""Tournaments' API routes (mounted under ``/api/``)."""

from django.urls import path

from games.tournaments import api as tournaments

urlpatterns = [
    path("tournaments", tournaments.TournamentListApi.as_view(), name="tournaments"),
    path(
        "tournaments/<id:tournament_id>",
        tournaments.TournamentDetailApi.as_view(),
        name="tournament",
    ),
    path(
        "tournaments/<id:tournament_id>/register",
        tournaments.RegisterApi.as_view(),
        name="tournament-register",
    ),
    path(
        "tournaments/<id:tournament_id>/withdraw",
        tournaments.WithdrawApi.as_view(),
        name="tournament-withdraw",
    ),
    path(
        "tournaments/<id:tournament_id>/start",
        tournaments.StartApi.as_view(),
        name="tournament-start",
    ),
    path(
        "tournaments/<id:tournament_id>/pair", tournaments.PairApi.as_view(), name="tournament-pair"
    ),
    path(
        "tournaments/<id:tournament_id>/finish",
        tournaments.FinishApi.as_view(),
        name="tournament-finish",
    ),
    path(
        "tournaments/<id:tournament_id>/cancel",
        tournaments.CancelApi.as_view(),
        name="tournament-cancel",
    ),
    path(
        "tournaments/<id:tournament_id>/entrants/<username:username>/remove",
        tournaments.EntrantRemoveApi.as_view(),
        name="tournament-entrant-remove",
    ),
    path(
        "tournaments/<id:tournament_id>/entrants/<username:username>/stand-in",
        tournaments.StandInApi.as_view(),
        name="tournament-stand-in",
    ),
    path(
        "tournaments/<id:tournament_id>/tables/<id:table_id>/result",
        tournaments.ResultApi.as_view(),
        name="tournament-result",
    ),
]
