"""Each person's channel per kind of notice: what they chose, and what a notice then takes.

``channels_for`` is what the dispatch asks, for many people at once (three queries whatever
their number: the choices, the devices, the profiles); ``settings_get``/``settings_update`` are
the settings page's (through the API).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from games.models import NotificationSettings, Profile, PushSubscription
from games.notifications.kinds import EMAIL_FLAG, Channel, Kind, choose
from games.web.exceptions import ApplicationError


def channels_for(kind: Kind, users: Iterable[Any]) -> dict[int, Channel]:
    """The channel of a ``kind`` notice for each of ``users`` (by id). Email needs an address
    and an active account, push a subscribed device: without them that channel is none."""
    people = {user.pk: user for user in users}
    if not people:
        return {}
    ids = list(people)
    stored = dict(NotificationSettings.objects.filter(user_id__in=ids).values_list("user_id", kind))
    devices = set(
        PushSubscription.objects.filter(user_id__in=ids).values_list("user_id", flat=True)
    )
    flag = EMAIL_FLAG[kind]
    mailed: dict[int, bool] = {}
    if isinstance(flag, str):
        mailed = dict(Profile.objects.filter(user_id__in=ids).values_list("user_id", flag))
    channels = {}
    for user_id, user in people.items():
        if not user.is_active:
            channels[user_id] = Channel.NONE
            continue
        by_default = flag if isinstance(flag, bool) else mailed.get(user_id, True)
        channel = choose(
            stored.get(user_id, ""), mailed_by_default=by_default, has_device=user_id in devices
        )
        if (channel == Channel.EMAIL and not user.email) or (
            channel == Channel.PUSH and user_id not in devices
        ):
            channel = Channel.NONE
        channels[user_id] = channel
    return channels


def settings_get(user: Any) -> dict[str, Any]:
    """What the settings page shows: per kind the stored choice ("" for the default), the
    channel that applies now, and the label; and the number of subscribed devices."""
    row = NotificationSettings.objects.filter(user=user).first()
    devices = PushSubscription.objects.filter(user=user).count()
    kinds = []
    for kind in Kind:
        kinds.append(
            {
                "kind": str(kind),
                "choice": getattr(row, kind) if row is not None else "",
                "channel": str(channels_for(kind, [user])[user.pk]),
            }
        )
    return {"kinds": kinds, "devices": devices}


@transaction.atomic
def settings_update(user: Any, choices: dict[str, str]) -> dict[str, Any]:
    """Store ``choices`` (kind -> "push", "email", "none", or "" for the default)."""
    for kind, choice in choices.items():
        if kind not in Kind.__members__.values():
            raise ApplicationError(
                f"not a kind of notice: {kind}", field=kind, code="unknown_field",
                allowed=[str(k) for k in Kind],
            )  # fmt: skip
        if choice and choice not in Channel.__members__.values():
            raise ApplicationError(
                f"not a channel: {choice}", field=kind, code="invalid_choice",
                allowed=[str(c) for c in Channel],
            )  # fmt: skip
    row, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
    for kind, choice in choices.items():
        setattr(row, kind, choice)
    if choices:
        row.save(update_fields=list(choices))
    return settings_get(user)
