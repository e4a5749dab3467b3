from django.urls import path

from frontend.views import GameView, HomeView, LobbyView, LoginView

urlpatterns = [
    path("", HomeView.as_view(), name="home"),
    path("games", LobbyView.as_view(), name="lobby-page"),
    path("games/<id:game_id>", GameView.as_view(), name="game-page"),
    path("login", LoginView.as_view(), name="login-page"),
]
