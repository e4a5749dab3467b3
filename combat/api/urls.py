"""Routes under /api/combat/. Battle ids are matched as text so a malformed id is a JSON 404."""

from django.urls import path

from combat.api import poker, risk, views

app_name = "combat"

urlpatterns = [
    path("risk/odds", risk.RiskOddsApi.as_view(), name="risk-odds"),
    path("poker/evaluate", poker.PokerEvaluateApi.as_view(), name="poker-evaluate"),
    path("aa/odds", views.AAOddsApi.as_view(), name="aa-odds"),
    path("aa/battles", views.AABattleCreateApi.as_view(), name="aa-battles"),
    path("aa/battles/<str:battle_id>", views.AABattleDetailApi.as_view(), name="aa-battle-detail"),
    path(
        "aa/battles/<str:battle_id>/close", views.AABattleCloseApi.as_view(), name="aa-battle-close"
    ),
]
