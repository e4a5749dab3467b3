"""Every game's pieces as rows (``games.models.pieces``), kept with the state row.

The property: through the real write path (people's decisions submitted as a client would,
bots and allied armies driven by the server), after every action the three tables hold exactly
the rows of the new state. Players leave and late-comers join on the way, so the rows' links to
the people playing each army change too. Then the start, the migration that fills the rows of
games started before the tables, and ``verify_game``, which now compares them.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.models import Card, Game, Seat, Ship, TerritoryHolding
from games.play import pieces, submit
from games.play.reads import fetch
from games.play.verify import game_verify
from risk.rules.pieces import pieces_of
from risk.rules.touched import HAND, POKER, RISK
from tests.games.conftest import make_user
from tests.games.helpers import play_out, start_game
from tests.games.pieces_check import watch_pieces

pytestmark = pytest.mark.django_db


def rounds_past(n: int):
    return lambda game, state: state.round > n


def submit_for(user, game, action):
    return submit.action_submit(
        game_id=game.pk, user=user, action=action, expected_version=game.version
    )


@pytest.mark.parametrize(("people", "seats", "rounds"), [(3, 3, 3), (1, 4, 3), (2, 2, 4)])
def test_the_piece_tables_equal_the_state_after_every_action(
    monkeypatch, alice, bob, carol, people, seats, rounds
):
    """Random games of people and bots: every write leaves the tables equal to the state."""
    users = [alice, bob, carol][:people]
    seen = watch_pieces(monkeypatch)
    game = start_game(alice, seats, others=users[1:])
    assert pieces.rows_of(game) == pieces_of(fetch.game_state(game))  # written at the start
    game = play_out(game, users, until=rounds_past(rounds))
    assert seen.actions == game.version > 50
    assert {"holdings", "ships", "cards"} <= seen.kinds  # every table was written on the way
    assert 0 < seen.moved <= seen.actions


def test_leaving_and_joining_relink_the_armies_rows_to_the_people_playing_them(
    monkeypatch, alice, bob, carol
):
    """alice leaves: her army is an allied army now, its rows link to nobody; dave takes over
    an allied army: its rows (territories, ships, the hand he is dealt) link to his seat."""
    seen = watch_pieces(monkeypatch)
    game = start_game(alice, 3, others=[bob, carol])
    game = _until_alice_may_leave(game, [alice, bob, carol])
    assert game.version > 10  # the game is under way
    submit_for(alice, game, {"type": "leave"})
    game.refresh_from_db()
    alice_seat = Seat.objects.get(game=game, player="alice")
    assert not TerritoryHolding.objects.filter(game=game, seat=alice_seat).exists()
    assert TerritoryHolding.objects.filter(game=game, owner="alice", seat=None).exists()
    dave = make_user("dave")
    state = fetch.game_state(game)
    ally = next(s.id for s in state.seats if s.kind == "allied" and s.alive and s.id != "alice")
    game = _until_joinable(game, [bob, carol], dave, ally)
    submit_for(dave, game, {"type": "join", "ally": ally})
    game.refresh_from_db()
    state = fetch.game_state(game)
    dave_seat = Seat.objects.get(game=game, user=dave)
    held = TerritoryHolding.objects.filter(game=game, seat=dave_seat)
    assert sorted(held.values_list("territory", flat=True)) == sorted(state.owned(ally))
    hand = Card.objects.filter(game=game, seat=dave_seat, kind=RISK, pile=HAND)
    assert list(hand.order_by("position").values_list("card", flat=True)) == (
        state.seat(ally).risk_cards
    )
    assert Card.objects.filter(game=game, seat=dave_seat, kind=POKER, pile=HAND).count() == len(
        state.seat(ally).poker_cards
    )
    assert seen.actions == game.version


def _until_alice_may_leave(game: Game, users):
    from risk.rules.turns import leave_refusal

    def ready(game, state):
        seat = state.seat("alice")
        return (
            state.round >= 2
            and state.turn is not None
            and state.turn.seat != "alice"
            and (leave_refusal(state, seat) is None)
        )

    return play_out(game, users, until=ready)


def _until_joinable(game: Game, users, newcomer, ally: str):
    from risk.rules.engine import legal_actions

    def ready(game, state):
        specs = {s.type: s for s in legal_actions(state, newcomer.get_username())}
        return "join" in specs and ally in specs["join"].options["allies"]

    return play_out(game, users, until=ready)


@pytest.mark.slow
def test_a_game_played_to_its_end_verifies_with_its_rows(monkeypatch, alice, bob):
    """The tables follow a whole game, and ``verify_game`` finds them equal to the replay."""
    seen = watch_pieces(monkeypatch)
    game = start_game(alice, 2, others=[bob], options={"win": "round-limit", "round_limit": 12})
    game = play_out(game, [alice, bob])
    assert game.status == Game.Status.FINISHED
    report = game_verify(game)
    assert report.ok and report.pieces_equal is True
    assert seen.actions == game.version


def test_verify_game_names_a_row_that_differs_from_the_replay(alice, bob):
    game = start_game(alice, 2, others=[bob], options={"win": "round-limit", "round_limit": 2})
    game = play_out(game, [alice, bob])
    assert game_verify(game).pieces_equal is True
    # The holding the game left first in name order: a seat's, or an allied army's, whose row
    # names no seat (a deal where the allies ended holding every territory gave no seat's
    # holding at all).
    holding = TerritoryHolding.objects.filter(game=game).order_by("territory").first()
    TerritoryHolding.objects.filter(pk=holding.pk).update(armies=holding.armies + 1)
    report = game_verify(game)
    assert not report.ok and report.pieces_equal is False
    assert "piece rows differ" in str(report.mismatch)
    player = f'"{holding.seat.player}"' if holding.seat is not None else "null"
    row = f'"{holding.territory}", "{holding.owner}", {player}'
    assert f"holdings: stored [{row}, {holding.armies + 1}, " in str(report.mismatch)
    assert f"replayed [{row}, {holding.armies}, " in str(report.mismatch)


def test_the_migration_fills_the_rows_of_games_started_before_the_tables(alice, bob, carol):
    """0016 writes every started game's rows from its state row, linked to its seats, as the
    start would have (running and finished games alike); a lobby game gets none."""
    running = start_game(alice, 3, others=[bob, carol])
    running = play_out(running, [alice, bob, carol], until=rounds_past(1))
    finished = start_game(bob, 2, others=[carol], options={"win": "round-limit", "round_limit": 1})
    finished = play_out(finished, [bob, carol])
    from games.play import lobby

    lobby.game_create(creator=carol, seats=3)
    expected = {g.pk: pieces.rows_of(g) for g in (running, finished)}
    for model in (TerritoryHolding, Ship, Card):
        model.objects.all().delete()
    migration = importlib.import_module("games.migrations.0016_pieces_of_started_games")
    migration.fill(apps, None)
    assert {g.pk: pieces.rows_of(g) for g in (running, finished)} == expected
    assert expected[running.pk] == pieces_of(fetch.game_state(running))
    assert TerritoryHolding.objects.filter(game=running, seat__user=alice).exists()
    assert set(TerritoryHolding.objects.values_list("game", flat=True)) == {
        running.pk,
        finished.pk,
    }


def test_staff_statistics_count_each_players_pieces_over_a_tournaments_games(alice, bob, carol):
    """Two games of one tournament (tables of its first round) and one outside it: each
    player's territories, factories, armies (ships' crews included) and ships, summed over the
    tournament's games from the rows, equal what the two states say."""
    from io import StringIO

    from django.core.management import call_command

    from games.models import Tournament, TournamentRound, TournamentTable
    from games.play.reads.pieces import holdings_per_player, tournament_games

    first = play_out(start_game(alice, 3, others=[bob]), [alice, bob], until=rounds_past(1))
    second = play_out(start_game(bob, 3, others=[carol]), [bob, carol], until=rounds_past(1))
    start_game(carol, 2, others=[alice])  # not in the tournament
    cup = Tournament.objects.create(name="cup", play="game", format="swiss", created_by=alice)
    round_one = TournamentRound.objects.create(tournament=cup, number=1)
    for number, game in enumerate((first, second), start=1):
        TournamentTable.objects.create(round=round_one, number=number, game=game)

    expected: dict[str, dict[str, int]] = {}
    for game in (first, second):
        state = fetch.game_state(game)
        for seat in state.seats:
            held, ships = state.owned(seat.id), state.ships_of(seat.id)
            if not held and not ships:
                continue
            row = expected.setdefault(seat.player or "", dict.fromkeys(
                ("games", "territories", "factories", "armies", "ships"), 0))  # fmt: skip
            row["games"] += 1 if seat.player else 0
            row["territories"] += len(held)
            row["factories"] += sum(state.territories[t].factory for t in held)
            row["armies"] += sum(state.territories[t].armies for t in held)
            row["armies"] += sum(s.armies for s in ships)
            row["ships"] += len(ships)
    found = {row.pop("player"): row for row in holdings_per_player(tournament_games(cup.pk))}
    expected[""]["games"] = 2  # allied armies in both games
    assert found == expected
    assert found["bob"]["games"] == 2 and "carol" in found and found["alice"]["games"] == 1

    out = StringIO()
    call_command("piece_stats", "--tournament", str(cup.pk), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"tournament {cup.pk}: 2 game(s)"
    bob_line = next(line for line in lines if line.startswith("bob "))
    assert bob_line.split() == ["bob", "2", *map(str, list(found["bob"].values())[1:])]
