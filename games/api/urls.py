"""Routes of the game server's API, mounted under ``/api/``."""

from django.urls import include, path

from games.api import games

urlpatterns = [
    path("auth/", include("games.api.accounts")),
    path("games", games.GameListApi.as_view(), name="games"),
    path("games/<int:game_id>", games.GameDetailApi.as_view(), name="game"),
    path("games/<int:game_id>/join", games.JoinApi.as_view(), name="game-join"),
    path("games/<int:game_id>/leave", games.LeaveApi.as_view(), name="game-leave"),
    path("games/<int:game_id>/bots", games.BotsApi.as_view(), name="game-bots"),
    path("games/<int:game_id>/start", games.StartApi.as_view(), name="game-start"),
    path("games/<int:game_id>/events", games.EventsApi.as_view(), name="game-events"),
    path("games/<int:game_id>/actions", games.ActionsApi.as_view(), name="game-actions"),
    path("games/<int:game_id>/replay", games.ReplayApi.as_view(), name="game-replay"),
]
