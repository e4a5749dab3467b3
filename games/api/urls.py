"""Routes of the game server's API, mounted under ``/api/``."""

from django.urls import include, path

from games.api import games, replays
from games.ratings import api as ratings
from games.rooms import api as rooms
from games.tournaments import api as tournaments

urlpatterns = [
    path("auth/", include("games.accounts.api")),
    path("games", games.GameListApi.as_view(), name="games"),
    path("games/<id:game_id>", games.GameDetailApi.as_view(), name="game"),
    path("games/<id:game_id>/join", games.JoinApi.as_view(), name="game-join"),
    path("games/<id:game_id>/leave", games.LeaveApi.as_view(), name="game-leave"),
    path("games/<id:game_id>/bots", games.BotsApi.as_view(), name="game-bots"),
    path("games/<id:game_id>/start", games.StartApi.as_view(), name="game-start"),
    path("games/<id:game_id>/events", games.EventsApi.as_view(), name="game-events"),
    path("games/<id:game_id>/chat", games.ChatApi.as_view(), name="game-chat"),
    path("games/<id:game_id>/actions", games.ActionsApi.as_view(), name="game-actions"),
    path("games/<id:game_id>/replay", games.ReplayApi.as_view(), name="game-replay"),
    path(
        "games/<id:game_id>/replay/board",
        replays.ReplayBoardApi.as_view(),
        name="game-replay-board",
    ),
    path("games/<id:game_id>/hint", games.HintApi.as_view(), name="game-hint"),
    path("ratings", ratings.LeaderboardApi.as_view(), name="ratings"),
    path(
        "players/<username:username>/ratings",
        ratings.PlayerRatingsApi.as_view(),
        name="player-ratings",
    ),
    path("rooms", rooms.RoomListApi.as_view(), name="rooms"),
    path("rooms/<id:room_id>", rooms.RoomDetailApi.as_view(), name="room"),
    path("rooms/<id:room_id>/join", rooms.RoomJoinApi.as_view(), name="room-join"),
    path("rooms/<id:room_id>/journal", rooms.RoomJournalApi.as_view(), name="room-journal"),
    path(
        "rooms/<id:room_id>/journal.txt", rooms.RoomTranscriptApi.as_view(), name="room-transcript"
    ),
    path("rooms/<id:room_id>/entries", rooms.RoomPostApi.as_view(), name="room-entries"),
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
