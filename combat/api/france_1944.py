"""Placeholder: the france_1944 CRT endpoint is being written (issue 5)."""

from rest_framework.request import Request
from rest_framework.response import Response

from combat.api.views import CombatApi


class CrtApi(CombatApi):
    def post(self, request: Request) -> Response:
        return Response({"error": {"field": None, "message": "not built yet"}}, status=501)
