from django.urls import path

from frontend.views import (
    AACalculatorView,
    CalculatorsView,
    France1944CalculatorView,
    GameView,
    HomeView,
    LobbyView,
    LoginView,
    RiskCalculatorView,
    RulesView,
    WifCalculatorView,
)

urlpatterns = [
    path("", HomeView.as_view(), name="home"),
    path("games", LobbyView.as_view(), name="lobby-page"),
    path("games/<id:game_id>", GameView.as_view(), name="game-page"),
    path("login", LoginView.as_view(), name="login-page"),
    path("calculators/", CalculatorsView.as_view(), name="calculators"),
    path("calculators/aa", AACalculatorView.as_view(), name="calc-aa"),
    path("calculators/risk", RiskCalculatorView.as_view(), name="calc-risk"),
    path("calculators/wif", WifCalculatorView.as_view(), name="calc-wif"),
    path("calculators/france-1944", France1944CalculatorView.as_view(), name="calc-france-1944"),
    path("rules", RulesView.as_view(), name="rules-page"),
]
