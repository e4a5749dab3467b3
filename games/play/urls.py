"""Live games' API routes (mounted under ``/api/``)."""

from django.urls import path

from games.play import admin
from games.play.api import games, maps, pieces, protocol, replays

urlpatterns = [
    path("protocol", protocol.ProtocolApi.as_view(), name="protocol"),
    path("games", games.GameListApi.as_view(), name="games"),
    path("games/<id:game_id>", games.GameDetailApi.as_view(), name="game"),
    path("games/<id:game_id>/join", games.JoinApi.as_view(), name="game-join"),
    path("games/<id:game_id>/leave", games.LeaveApi.as_view(), name="game-leave"),
    path("games/<id:game_id>/bots", games.BotsApi.as_view(), name="game-bots"),
    path("games/<id:game_id>/cancel", games.CancelApi.as_view(), name="game-cancel"),
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
    path("games/<id:game_id>/pieces", pieces.GamePiecesApi.as_view(), name="game-pieces"),
    path("me/pieces", pieces.MyPiecesApi.as_view(), name="my-pieces"),
    path("maps", maps.MapListApi.as_view(), name="maps"),
    path("maps/<slug:name>/<int:version>", maps.MapVersionApi.as_view(), name="map-version"),
    path(
        "maps/<slug:name>/<int:version>/publish",
        maps.MapPublishApi.as_view(),
        name="map-publish",
    ),
]

#: Pages outside ``/api/`` (``games.urls`` mounts them at the root).
page_urlpatterns = [
    path("maps/<int:map_id>/try", admin.map_try, name="map-try"),
]
