"""Rooms' API routes (mounted under ``/api/``)."""

from django.urls import path

from games.rooms import api as rooms

urlpatterns = [
    path("rooms", rooms.RoomListApi.as_view(), name="rooms"),
    path("rooms/<id:room_id>", rooms.RoomDetailApi.as_view(), name="room"),
    path("rooms/<id:room_id>/join", rooms.RoomJoinApi.as_view(), name="room-join"),
    path("rooms/<id:room_id>/journal", rooms.RoomJournalApi.as_view(), name="room-journal"),
    path(
        "rooms/<id:room_id>/journal.txt", rooms.RoomTranscriptApi.as_view(), name="room-transcript"
    ),
    path("rooms/<id:room_id>/entries", rooms.RoomPostApi.as_view(), name="room-entries"),
]
