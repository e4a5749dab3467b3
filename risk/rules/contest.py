"""Playing an allied army: the declaration, challenges, the poker hand, and the allied turn.

Rule text "Play Allied Army" and "Playing Poker"; design.md section 5. The hand itself is
``combat.poker.draw`` (five-card draw with red queens); this module counts out the betting pots,
hands the stashes and the poker draw pile to the hand, and settles it: pots, cards, and whether
the declarer may play the ally (won, with a card of the ally's suit in the winning hand).
"""

from __future__ import annotations

from collections.abc import Callable

from combat import poker
from combat.dice import Dice, shuffle
from combat.poker.errors import IllegalAction as PokerIllegal
from combat.poker.errors import PokerInputError
from risk.rules import board, touched
from risk.rules.actions import Answer, Challenge, IllegalAction, Poker
from risk.rules.board import Event
from risk.rules.state import PLAYER, Contest, GameState, Seat
from risk.rules.turns import advance, deal_suits, start_turn
from risk.rules.vocabulary import Refusal

HAND_SIZE = 5
POKER_MOVES = ("choose", "bet", "check", "call", "raise", "fold", "draw", "show", "muck")


def pot_of(state: GameState, seat: Seat) -> int:
    """The betting pot a seat would stake: counted before, or next turn's bonus counted now."""
    return seat.pot if seat.pot is not None else board.stake(state, seat.id)


def can_play_poker(state: GameState, seat: Seat) -> bool:
    """A poker card in the stash and at least one army to ante."""
    return bool(seat.poker_cards) and pot_of(state, seat) >= 1


def challengers(state: GameState, declarer: str) -> list[Seat]:
    return [
        s for s in state.seats
        if s.kind == PLAYER and s.alive and s.id != declarer and can_play_poker(state, s)
    ]  # fmt: skip


def declare(state: GameState, declarer: str, ally: str, dice: Dice, events: list[Event]) -> None:
    """The turn is over; the declarer asks to play ``ally`` and the others may challenge."""
    state.turn = None
    events.append({"type": "ally_declared", "seat": declarer, "ally": ally})
    state.contest = Contest(declarer=declarer, ally=ally)
    if not challengers(state, declarer):
        _play_ally(state, dice, events)


def asked(state: GameState) -> list[Seat]:
    contest = state.contest
    assert contest is not None
    return [s for s in challengers(state, contest.declarer) if s.id not in contest.answers]


def do_challenge(state: GameState, action: Challenge, seat: Seat, dice: Dice,
                 events: list[Event]) -> None:  # fmt: skip
    contest = _contest(state, "asking")
    if seat not in asked(state):
        raise IllegalAction(Refusal.NOT_ASKED, f"{seat.id} has no challenge to answer")
    contest.answers[seat.id] = action.contest
    events.append({"type": "challenge", "seat": seat.id, "contest": action.contest})
    answers_in(state, dice, events)


def answers_in(state: GameState, dice: Dice, events: list[Event]) -> None:
    """Once nobody is left to ask (answers given, or someone asked has left), go on."""
    contest = state.contest
    if contest is None or contest.stage != "asking" or asked(state):
        return
    if not any(contest.answers.values()):
        _play_ally(state, dice, events)
        return
    declarer = state.seat(contest.declarer)
    if not can_play_poker(state, declarer):  # rule text: cannot answer without a poker card
        events.append({"type": "cannot_answer", "seat": declarer.id})
        _finish(state, dice, events)
        return
    contest.stage = "answer"


def do_answer(state: GameState, action: Answer, dice: Dice, events: list[Event]) -> None:
    contest = _contest(state, "answer")
    if action.demur:
        events.append({"type": "demurred", "seat": contest.declarer})
        _finish(state, dice, events)
        return
    entrants = [state.seat(contest.declarer)] + [
        s for s in state.seats if contest.answers.get(s.id)
    ]
    needed = HAND_SIZE * len(entrants)
    deck = state.poker_deck
    if len(deck.draw) < needed and deck.discard:
        deck.draw, deck.discard = deck.draw + list(shuffle(deck.discard, dice)), []
        touched.deck(touched.POKER)
    pots = {s.id: pot_of(state, s) for s in entrants}
    try:
        hand, hand_events = poker.start_hand(
            [poker.Entrant(s.id, tuple(s.poker_cards), pots[s.id]) for s in entrants],
            tuple(deck.draw),
            red_queens_high=state.options.red_queens_high,
            keep_stash=state.options.revision >= 2,  # RULES.md A12: a stash card is used
        )
    except PokerInputError as error:  # the deck cannot fill the hands: nobody plays
        events.append({"type": "no_poker", "reason": error.message})
        _finish(state, dice, events)
        return
    for seat in entrants:
        seat.poker_cards, seat.pot = [], None
        touched.pile(touched.POKER, touched.HAND, seat.id)
    deck.draw = []
    touched.pile(touched.POKER, touched.DRAW)
    contest.stage, contest.hand = "poker", hand
    touched.poker_hand([s.player for s in hand.seats])
    events += [{**e, "hand": True} for e in hand_events]


def do_poker(state: GameState, action: Poker, seat: Seat, dice: Dice, events: list[Event]) -> None:
    contest = _contest(state, "poker")
    assert contest.hand is not None
    move = _poker_move(action, seat.id)
    try:
        hand, hand_events = poker.apply(contest.hand, move)
    except (PokerIllegal, PokerInputError) as error:
        reason: str = getattr(error, "reason", "") or getattr(error, "message", str(error))
        # The poker core's own codes (every one a Refusal member; tests/risk/test_vocabulary.py
        # checks); one it adds later without a member stays a refusal, not a server error.
        raw: str = getattr(error, "code", "") or ""
        code = Refusal(raw) if raw in Refusal._value2member_map_ else Refusal.POKER
        raise IllegalAction(code, reason, field="move") from error
    events += [{**e, "hand": True} for e in hand_events]
    contest.hand = hand
    touched.poker_hand([s.player for s in hand.seats])
    if hand.result is not None:
        _settle(state, dice, events)


def _poker_move(action: Poker, seat_id: str) -> poker.Action:
    simple: dict[str, Callable[[str], poker.Action]] = {
        "bet": poker.Bet, "check": poker.Check, "call": poker.Call, "raise": poker.Raise,
        "fold": poker.Fold, "show": poker.Show, "muck": poker.Muck,
    }  # fmt: skip
    if action.move in simple:
        return simple[action.move](seat_id)
    if action.move == "choose":
        return poker.Choose(seat_id, action.cards)
    if action.move == "draw":
        return poker.Draw(seat_id, discard=action.cards, from_stash=action.from_stash)
    raise IllegalAction(
        Refusal.MOVE, f"a poker move is one of {', '.join(POKER_MOVES)}", field="move"
    )


def _settle(state: GameState, dice: Dice, events: list[Event]) -> None:
    """Pots and cards back to the seats; the declarer plays the ally on a win in its suit."""
    contest = state.contest
    assert contest is not None and contest.hand is not None and contest.hand.result is not None
    hand, result = contest.hand, contest.hand.result
    pots = result.pots_after()
    for hseat in hand.seats:
        seat = state.seat(hseat.player)
        seat.pot = pots[hseat.player]
        seat.poker_cards = list(hseat.stash)  # unused stash cards go back to the stash
        state.poker_deck.discard += list(hseat.hand) + list(hseat.discards)
        touched.pile(touched.POKER, touched.HAND, seat.id)
    # Cards drawn while the hand was played (a late-comer joining) came from the reshuffled
    # discards: they stay under what is left of the hand's deck.
    state.poker_deck.draw = list(hand.deck) + state.poker_deck.draw
    touched.deck(touched.POKER)
    touched.poker_hand([s.player for s in hand.seats])
    contest.hand = None
    declarer = hand.seats[0]
    suits = set(state.seat(contest.ally).suits)
    in_suit = any(card[1] in suits for card in declarer.hand)
    won = declarer.player in result.winners or (
        not result.showdown and declarer.status == poker.draw.IN
    )
    events.append({"type": "poker_settled", "declarer_won": won, "in_suit": won and in_suit,
                   "pots": pots})  # fmt: skip
    if won and in_suit and state.seat(contest.ally).alive:
        _play_ally(state, dice, events)
    else:
        _finish(state, dice, events)


def _close(state: GameState, dice: Dice, events: list[Event]) -> Contest:
    """The declaration is over: late-comers get their poker cards, suits are dealt if owed."""
    contest = state.contest
    assert contest is not None
    state.contest = None
    for seat_id in contest.owed:
        events.append(board.give_cards(state, state.seat(seat_id), 0, 1, dice))
    if contest.redeal:
        deal_suits(state)
    return contest


def _play_ally(state: GameState, dice: Dice, events: list[Event]) -> None:
    """The declarer plays the ally's turn and takes any poker cards the ally held."""
    contest = _close(state, dice, events)
    declarer, ally = state.seat(contest.declarer), state.seat(contest.ally)
    if ally.poker_cards:
        events.append({"type": "poker_cards_seized", "seat": declarer.id, "from": ally.id,
                       "count": len(ally.poker_cards)})  # fmt: skip
        declarer.poker_cards += ally.poker_cards
        ally.poker_cards = []
        touched.pile(touched.POKER, touched.HAND, declarer.id)
        touched.pile(touched.POKER, touched.HAND, ally.id)
    events.append({"type": "ally_played", "seat": ally.id, "by": declarer.id})
    start_turn(state, ally.id, declarer.actor, events, for_seat=declarer.id)


def _finish(state: GameState, dice: Dice, events: list[Event]) -> None:
    contest = _close(state, dice, events)
    advance(state, contest.declarer, events)


def _contest(state: GameState, stage: str) -> Contest:
    contest = state.contest
    if contest is None:
        raise IllegalAction(Refusal.NO_CONTEST, "nobody is declaring an allied army")
    if contest.stage != stage:
        raise IllegalAction(
            Refusal.CONTEST_STAGE, f"the declaration is at its {contest.stage} stage"
        )
    return contest
