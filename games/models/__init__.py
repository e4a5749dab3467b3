"""The game server's rows, one module per feature, all under the one ``games`` app label.

Every model (and the constants and helpers callers share) is re-exported here, so code and
migrations name ``games.models.<Name>``; migration 0001 names ``games.models.new_invite_token``.
"""

from games.models.accounts import BOT_PREFIX, RESERVED_PREFIXES, Profile, is_reserved_name
from games.models.mail import InboundMail
from games.models.notifications import NotificationSettings, PushSubscription
from games.models.pieces import Card, Ship, TerritoryHolding
from games.models.play import (
    AI_LEVELS,
    MAX_SEATS,
    MIN_SEATS,
    NAUTICAL_RISK,
    ActionLog,
    ChatMessage,
    Deadline,
    Game,
    GameSnapshot,
    Seat,
    new_invite_token,
)
from games.models.ratings import Rating, RatingChange
from games.models.rooms import (
    MAX_SIDES,
    MIN_SIDES,
    JournalEdited,
    Room,
    RoomEntry,
    RoomEntryQuerySet,
    RoomSide,
)
from games.models.tournaments import (
    TableSeat,
    Tournament,
    TournamentAction,
    TournamentEntrant,
    TournamentRound,
    TournamentTable,
    default_place_points,
)

__all__ = [
    "AI_LEVELS",
    "BOT_PREFIX",
    "MAX_SEATS",
    "MAX_SIDES",
    "MIN_SEATS",
    "MIN_SIDES",
    "NAUTICAL_RISK",
    "RESERVED_PREFIXES",
    "ActionLog",
    "Card",
    "ChatMessage",
    "Deadline",
    "Game",
    "GameSnapshot",
    "InboundMail",
    "JournalEdited",
    "NotificationSettings",
    "Profile",
    "PushSubscription",
    "Rating",
    "RatingChange",
    "Room",
    "RoomEntry",
    "RoomEntryQuerySet",
    "RoomSide",
    "Seat",
    "Ship",
    "TableSeat",
    "TerritoryHolding",
    "Tournament",
    "TournamentAction",
    "TournamentEntrant",
    "TournamentRound",
    "TournamentTable",
    "default_place_points",
    "is_reserved_name",
    "new_invite_token",
]
