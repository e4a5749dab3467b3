from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from frontend import pwa
from frontend import tournament_views as tournaments
from frontend.views import (
    AACalculatorView,
    CalculatorsView,
    France1944CalculatorView,
    GameView,
    HomeView,
    LeaderboardView,
    LobbyView,
    LoginView,
    PlayerView,
    ReplayView,
    RiskCalculatorView,
    RoomsView,
    RoomView,
    RulesView,
    SettingsView,
    StatusView,
    VerifyView,
    WifCalculatorView,
    board_shapes,
)

#: Password change and reset by email are Django's own auth views, with the site's templates.
ACCOUNT = "frontend/account"

urlpatterns = [
    path("", HomeView.as_view(), name="home"),
    path("status", StatusView.as_view(), name="status-page"),
    path("manifest.webmanifest", pwa.manifest, name="web-manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("games", LobbyView.as_view(), name="lobby-page"),
    path("games/<id:game_id>", GameView.as_view(), name="game-page"),
    path("board/<slug:name>.json", board_shapes, name="board-shapes"),
    path("board/<slug:name>/<int:version>.json", board_shapes, name="board-shapes-version"),
    path("login", LoginView.as_view(), name="login-page"),
    path("settings", SettingsView.as_view(), name="settings-page"),
    path(
        "account/password",
        auth_views.PasswordChangeView.as_view(
            template_name=f"{ACCOUNT}/password_change.html",
            success_url=reverse_lazy("password-change-done"),
        ),
        name="password-change",
    ),
    path(
        "account/password/done",
        auth_views.PasswordChangeDoneView.as_view(
            template_name=f"{ACCOUNT}/password_change_done.html"
        ),
        name="password-change-done",
    ),
    path(
        "account/reset",
        auth_views.PasswordResetView.as_view(
            template_name=f"{ACCOUNT}/password_reset.html",
            email_template_name="frontend/email/password_reset.txt",
            subject_template_name="frontend/email/password_reset_subject.txt",
            success_url=reverse_lazy("password-reset-done"),
        ),
        name="password-reset",
    ),
    path(
        "account/reset/sent",
        auth_views.PasswordResetDoneView.as_view(
            template_name=f"{ACCOUNT}/password_reset_sent.html"
        ),
        name="password-reset-done",
    ),
    path(
        "account/reset/<uidb64>/<token>",
        auth_views.PasswordResetConfirmView.as_view(
            template_name=f"{ACCOUNT}/password_reset_confirm.html",
            success_url=reverse_lazy("password-reset-complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "account/reset/done",
        auth_views.PasswordResetCompleteView.as_view(
            template_name=f"{ACCOUNT}/password_reset_complete.html"
        ),
        name="password-reset-complete",
    ),
    path("verify", VerifyView.as_view(), name="verify-page"),
    path("rooms", RoomsView.as_view(), name="rooms-page"),
    path("rooms/<id:room_id>", RoomView.as_view(), name="room-page"),
    path("games/<id:game_id>/replay", ReplayView.as_view(), name="replay-page"),
    path("calculators/", CalculatorsView.as_view(), name="calculators"),
    path("calculators/aa", AACalculatorView.as_view(), name="calc-aa"),
    path("calculators/risk", RiskCalculatorView.as_view(), name="calc-risk"),
    path("calculators/wif", WifCalculatorView.as_view(), name="calc-wif"),
    path("calculators/france-1944", France1944CalculatorView.as_view(), name="calc-france-1944"),
    path("rules", RulesView.as_view(), name="rules-page"),
    path("leaderboard", LeaderboardView.as_view(), name="leaderboard-page"),
    path("players/<username:username>", PlayerView.as_view(), name="player-page"),
    path("tournaments", tournaments.tournament_list, name="tournaments-page"),
    path("tournaments/new", tournaments.tournament_new, name="tournament-new"),
    path("tournaments/<id:tournament_id>", tournaments.tournament_page, name="tournament-page"),
    path(
        "tournaments/<id:tournament_id>/<slug:action>",
        tournaments.tournament_post,
        name="tournament-action",
    ),
]
