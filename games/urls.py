"""The game server's plain HTTP routes (the ``/healthz`` probe)."""

from django.urls import path

from games.web import healthz

urlpatterns = [
    path("healthz", healthz.healthz, name="healthz"),
]
