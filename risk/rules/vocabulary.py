"""The shared vocabulary of the engine and the server: refusal codes, decision kinds, attack modes.

Each is an ``enum.StrEnum``: a member *is* its string (``Refusal.NOT_YOUR_TURN == "not-your-turn"``,
``str()``, f-strings and ``json.dumps`` give the plain value, and it hashes like the string), so the
JSON the API sends, the stored action logs and states, and the events stay byte-identical to what
the matched strings produced, while code on both sides names the members and a typo is an error
at import (or for mypy) rather than a comparison that silently never matches.

Pure: standard library only, like the rest of ``risk.rules``.
"""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """The ``code`` of an ``IllegalAction``: which rule refused the action (the API's ``rule``)."""

    # Raised by risk/rules.
    ADD = "add"
    ALLY = "ally"
    ALLY_BUSY = "ally-busy"
    ALREADY_PLAYING = "already-playing"
    ALREADY_SET_UP = "already-set-up"
    ARMIES = "armies"
    ARRANGEMENT = "arrangement"
    BATTLE = "battle"
    BATTLE_STAGE = "battle-stage"
    BEHIND = "behind"
    BUSY = "busy"
    BY = "by"
    CARD_SET = "card-set"
    CARDS = "cards"
    COMMITTED = "committed"
    CONTROLLER = "controller"
    CONTEST_STAGE = "contest-stage"
    CRUISING = "cruising"
    DEFENCE_DICE = "defence_dice"
    DESTINATION = "destination"
    DICE = "dice"
    DISCARD = "discard"
    FACTORY = "factory"
    FLANKS = "flanks"
    GAME_OVER = "game-over"
    LOCKED = "locked"
    MODE = "mode"
    MOVE = "move"
    MUST_TURN_IN = "must-turn-in"
    NO_BATTLE = "no-battle"
    NO_COAST = "no-coast"
    NO_CONTEST = "no-contest"
    NO_CREW = "no-crew"
    NO_CRUISE = "no-cruise"
    NO_DISCARD = "no-discard"
    NO_FACTORY = "no-factory"
    NO_SHIP = "no-ship"
    NO_TURN = "no-turn"
    NOT_ADJACENT = "not-adjacent"
    NOT_ASKED = "not-asked"
    NOT_CONNECTED = "not-connected"
    NOT_CRUISING = "not-cruising"
    NOT_PLAYING = "not-playing"
    NOT_YOUR_TURN = "not-your-turn"
    NOT_YOURS = "not-yours"
    ONE_TURN_IN = "one-turn-in"
    OTHER_OCEAN = "other-ocean"
    OUT_OF_ACTION = "out-of-action"
    OUT_OF_RANGE = "out-of-range"
    OUT_OF_REACH = "out-of-reach"
    PATROL = "patrol"
    PIRATE = "pirate"
    PLACE_FACTORY = "place-factory"
    PLACE_FIRST = "place-first"
    PLAYER = "player"
    PLAYER_COUNT = "player-count"
    PLAYER_NAME = "player-name"
    REVEAL = "reveal"
    REWARD = "reward"
    SETTING_UP = "setting-up"
    SHIP = "ship"
    SHIP_STATION = "ship_station"
    SHIPS = "ships"
    SOURCE = "source"
    STATION = "station"
    TARGET = "target"
    TARGETS = "targets"
    TERRITORY = "territory"
    TRANSFERRED = "transferred"
    UNEQUAL_FLANKS = "unequal-flanks"
    UNKNOWN_ACTION = "unknown-action"
    UNKNOWN_PLAYER = "unknown-player"
    UNTIL = "until"
    WILD_TERRITORIES = "wild_territories"
    WRONG_PHASE = "wrong-phase"
    # Passed through from the poker core (combat.poker) by risk.rules.contest.do_poker; POKER when
    # the poker core refused the move without a code (its input errors).
    ALREADY_CHOSE = "already-chose"
    CHOOSE_COUNT = "choose-count"
    DECK_SHORT = "deck-short"
    DUPLICATE_CARD = "duplicate-card"
    HAND_OVER = "hand-over"
    KEEP_STASH_CARD = "keep-stash-card"
    LIVE_BET = "live-bet"
    MUST_CALL = "must-call"
    NO_LIVE_BET = "no-live-bet"
    NO_ONE_TO_ANSWER = "no-one-to-answer"
    NOT_IN_HAND = "not-in-hand"
    NOT_IN_STASH = "not-in-stash"
    NOTHING_TO_CALL = "nothing-to-call"
    POKER = "poker"
    SHORT_POT = "short-pot"
    TOO_MANY_FROM_STASH = "too-many-from-stash"


class DecisionKind(StrEnum):
    """What a pending ``Decision`` is about: the set-up, a turn phase, a defence, a battle stage, or
    a contest. The turn phases and battle stages are the values of ``risk.rules.state``'s
    ``REINFORCE``/``CAMPAIGN``/``END`` and ``"battle:"`` + ``ROLLING``/``WON``/``PRIZES``."""

    ARRANGE = "arrange"
    REINFORCE = "reinforce"
    CAMPAIGN = "campaign"
    END = "end"
    MOBILIZE = "mobilize"
    JOIN_DEFENCE = "join_defence"
    BATTLE_ROLLING = "battle:rolling"
    BATTLE_WON = "battle:won"
    BATTLE_PRIZES = "battle:prizes"
    CHALLENGE = "challenge"
    ANSWER = "answer"
    POKER = "poker"


class AttackMode(StrEnum):
    """How an attack commits its armies (RULES.md): ``normal``, ``committed`` or ``flanking``."""

    NORMAL = "normal"
    COMMITTED = "committed"
    FLANKING = "flanking"
