"""The kinds of notice, the channels, and which channel a person gets when they chose none.

Pure (no Django): the settings page, the API and the dispatch all read these. A kind's default
is what the server did before push existed, except that a person with a subscribed device gets
push: "your turn", the deadline, room entries and tournament pairings were mailed (the first two
and the pairings unless the profile's mail flag is off), attacks were not.
"""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    YOUR_TURN = "your_turn"
    DEADLINE = "deadline"
    ATTACKED = "attacked"
    ROOM_ENTRY = "room_entry"
    ROUND_PAIRED = "round_paired"


class Channel(StrEnum):
    PUSH = "push"
    EMAIL = "email"
    NONE = "none"


#: What the settings page and the API say each kind is.
LABELS: dict[Kind, str] = {
    Kind.YOUR_TURN: "it is my turn in a game and I am not watching it",
    Kind.DEADLINE: "a deadline of mine is an hour away (or closer, in fast games)",
    Kind.ATTACKED: "someone attacks one of my territories or ships while I am away",
    Kind.ROOM_ENTRY: "a challenge, ruling, timeout or end is posted in one of my rooms",
    Kind.ROUND_PAIRED: "a round of one of my tournaments is paired",
}

#: The profile's mail flag a kind's default follows (``Profile``), True: always mailed,
#: False: never mailed by default.
EMAIL_FLAG: dict[Kind, str | bool] = {
    Kind.YOUR_TURN: "email_your_turn",
    Kind.DEADLINE: "email_reminder",
    Kind.ATTACKED: False,
    Kind.ROOM_ENTRY: True,
    Kind.ROUND_PAIRED: "email_your_turn",
}


def choose(stored: str, *, mailed_by_default: bool, has_device: bool) -> Channel:
    """The channel of one notice: the person's choice if they made one (``stored``, "" for
    none); else push when they have a subscribed device, email when that kind was mailed to them
    before, nothing otherwise."""
    if stored:
        return Channel(stored)
    if has_device:
        return Channel.PUSH
    return Channel.EMAIL if mailed_by_default else Channel.NONE
