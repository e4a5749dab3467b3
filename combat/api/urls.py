"""Routes under /api/combat/. Battle ids are matched as text so a malformed id is a JSON 404."""

from django.urls import path

from combat.api import aa_questions, france_1944, poker, risk, views, wif

app_name = "combat"

urlpatterns = [
    path("risk/odds", risk.RiskOddsApi.as_view(), name="risk-odds"),
    path("poker/evaluate", poker.PokerEvaluateApi.as_view(), name="poker-evaluate"),
    path("wif/land", wif.CrtApi.as_view(), name="wif-land"),
    path("france-1944", france_1944.CrtApi.as_view(), name="france-1944"),
    path("aa/odds", views.AAOddsApi.as_view(), name="aa-odds"),
    path("aa/editions", aa_questions.AAEditionsApi.as_view(), name="aa-editions"),
    path("aa/take", aa_questions.AATakeApi.as_view(), name="aa-take"),
    path("aa/retreat", aa_questions.AARetreatApi.as_view(), name="aa-retreat"),
    path("aa/swing", aa_questions.AASwingApi.as_view(), name="aa-swing"),
    path("aa/waves", aa_questions.AAWavesApi.as_view(), name="aa-waves"),
    path("aa/cheapest", aa_questions.AACheapestApi.as_view(), name="aa-cheapest"),
    path("aa/order-check", aa_questions.AAOrderCheckApi.as_view(), name="aa-order-check"),
    path("aa/battles", views.AABattleCreateApi.as_view(), name="aa-battles"),
    path("aa/battles/<str:battle_id>", views.AABattleDetailApi.as_view(), name="aa-battle-detail"),
    path(
        "aa/battles/<str:battle_id>/close", views.AABattleCloseApi.as_view(), name="aa-battle-close"
    ),
]
