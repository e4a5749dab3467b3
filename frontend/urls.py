from django.urls import path

from frontend.views import GameView, HomeView, LobbyView, LoginView, board_shapes

urlpatterns = [
    path("", HomeView.as_view(), name="home"),
    path("games", LobbyView.as_view(), name="lobby-page"),
    path("games/<id:game_id>", GameView.as_view(), name="game-page"),
    path("board/<slug:name>.json", board_shapes, name="board-shapes"),
    path("login", LoginView.as_view(), name="login-page"),
]
