"""The maps under ``/api/maps``: what the lobby offers, a version's file, uploads and publishing.

A map file is the map document with its drawn board under ``"board"`` (``risk.maps.documents``,
the format of ``risk/data``). Uploads and publishing are for staff, and for every signed-in user
when ``settings.WARBOARD_USER_MAPS`` is on (an author publishes their own drafts); each is
refused with every fault the validator found, in ``errors``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.web.exceptions import (
    ApplicationError,
    ConflictError,
    ErrorSerializer,
    ForbiddenError,
    NotFoundError,
)
from games.web.requests import ERRORS, valid
from games.web.strict import DocumentedDictField, StrictCharField
from risk.maps import store
from risk.maps.documents import map_file
from risk.models import Map

MAP_FILE = OpenApiTypes.OBJECT
NAME = OpenApiParameter("name", str, OpenApiParameter.PATH, description="The map's name.")
VERSION = OpenApiParameter("version", int, OpenApiParameter.PATH, description="Its version.")


def summary(the_map: Map) -> dict[str, Any]:
    return {
        "name": the_map.name, "version": the_map.version, "title": the_map.title,
        "status": the_map.status, "min_seats": the_map.min_seats,
        "max_seats": the_map.max_seats, "territories": the_map.territories.count(),
        "author": the_map.author.get_username() if the_map.author else None,
    }  # fmt: skip


def refused(exc: store.MapRefused, field: str = "file") -> ApplicationError:
    """The validator's faults as one 400: ``errors`` holds each, with its code."""
    return ApplicationError(
        exc.message, code="invalid_map", field=field,
        extra={"errors": [{"code": e.code, "message": e.message} for e in exc.errors]},
    )  # fmt: skip


def _version(name: str, version: int, user: Any) -> Map:
    """A version the caller may read: a trial or published one; a draft for staff or its
    author only (404 otherwise, as for a missing one)."""
    found = Map.objects.filter(name=name, version=version).select_related("author").first()
    if found is None or (
        found.status == Map.Status.DRAFT
        and not (getattr(user, "is_staff", False) or (user.pk and found.author_id == user.pk))
    ):
        raise NotFoundError(f"no map {name}@{version}")
    return found


class MapListApi(APIView):
    """``GET`` the published maps; ``POST`` upload a map file as a new draft."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    class UploadInput(serializers.Serializer):
        name = StrictCharField(
            max_length=40, help_text="The map's name: lower-case letters, digits, - and _."
        )
        file = DocumentedDictField(
            schema={"type": "object"},
            help_text="The map document, its drawn board under 'board' (GET /api/maps/{name}/"
            "{version} gives one).",
        )

    @extend_schema(
        summary="The maps a new game may be played on: each one's newest published version",
        operation_id="maps_list",
        description="may_upload: whether the caller may upload maps (staff; with "
        "WARBOARD_USER_MAPS, any signed-in user).",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request) -> Response:
        return Response(
            {
                "maps": [offer.to_dict() for offer in store.offered_maps()],
                "may_upload": store.may_make_maps(request.user),
            }
        )

    @extend_schema(
        summary="Upload a map file: a new draft (the name's next version)",
        operation_id="maps_upload",
        description="403 maps_closed when the caller may not make maps; 400 invalid_map with "
        "every fault in errors ([{code, message}]).",
        request=UploadInput,
        responses={201: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        if not store.may_make_maps(request.user):
            raise ForbiddenError("only staff may upload maps here", code="maps_closed")
        data = valid(self.UploadInput, request)
        try:
            draft = store.upload(data["file"], name=data["name"], author=request.user)
        except store.MapRefused as exc:
            raise refused(exc) from None
        return Response(summary(draft), status=status.HTTP_201_CREATED)


class MapVersionApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="One version of a map, as a map file (the format uploads take)",
        operation_id="maps_retrieve",
        description="A draft only for staff and its author; 404 not_found otherwise.",
        parameters=[NAME, VERSION],
        responses={200: MAP_FILE, 404: ErrorSerializer},
    )
    def get(self, request: Request, name: str, version: int) -> Response:
        return Response(map_file(_version(name, version, request.user)))


class MapPublishApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Publish a draft: it never changes again, and new games may choose it",
        operation_id="maps_publish",
        description="Staff, or the draft's author when users may make maps (else 403 "
        "forbidden); 409 not_draft; 400 invalid_map with every fault in errors.",
        parameters=[NAME, VERSION],
        request=None,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: Request, name: str, version: int) -> Response:
        draft = _version(name, version, request.user)
        if not store.may_publish(request.user, draft):
            raise ForbiddenError("only staff and the map's author may publish it")
        if draft.status != Map.Status.DRAFT:
            raise ConflictError(f"{draft.ref} is {draft.status}, not a draft", code="not_draft")
        try:
            published = store.publish(draft)
        except store.MapRefused as exc:
            raise refused(exc, field="map") from None
        return Response(summary(published))
