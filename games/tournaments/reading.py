"""What a tournament's pages and API show, and the history the pairing rules are given.

Players are identified by their entry's id inside the pure functions and by username outside.
Standings of one-to-one events rank by score, Buchholz, Sonneborn-Berger, wins and seed
(``games.competition.duels``); of table events by the points table, then territories held
(``games.competition.points``). A knockout's standings are its bracket: the champion first,
then by the round each player went out in, then seed.
"""

from __future__ import annotations

from typing import Any

from games.competition.duels import crosstable, duel_standings, knockout_winner
from games.competition.points import standings as table_standings
from games.models import TableSeat, Tournament, TournamentEntrant, TournamentTable
from games.web.exceptions import NotFoundError

Game = tuple[int, int | None, float]


def _done_tables(tournament: Tournament) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(round__tournament=tournament)
        .exclude(outcome="")
        .select_related("round")
        .prefetch_related("seats")
        .order_by("round__number", "number")
    )


def round_complete(tournament: Tournament, number: int) -> bool:
    return not TournamentTable.objects.filter(
        round__tournament=tournament, round__number=number, outcome=""
    ).exists()


def duel_rounds(tournament: Tournament) -> list[list[Game]]:
    """Each finished round's games ``(first, second, first's points)`` by entry id."""
    rounds: dict[int, list[Game]] = {}
    for table in _done_tables(tournament):
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        game: Game
        if len(seats) == 1:
            game = (seats[0].entrant_id, None, seats[0].points or 0.0)
        else:
            game = (seats[0].entrant_id, seats[1].entrant_id, seats[0].points or 0.0)
        rounds.setdefault(table.round.number, []).append(game)
    return [rounds.get(n, []) for n in range(1, max(rounds, default=0) + 1)]


def table_history(tournament: Tournament) -> list[list[int]]:
    """Every earlier table's entrants (the seating avoids their meeting again)."""
    tables = TournamentTable.objects.filter(round__tournament=tournament).prefetch_related("seats")
    return [[s.entrant_id for s in t.seats.all()] for t in tables]


def _names(tournament: Tournament) -> dict[int, str]:
    return dict(tournament.entrants.values_list("pk", "user__username"))


def standings(tournament: Tournament) -> list[dict[str, Any]]:
    """The standings, best first, with the format's tie-break columns."""
    entrants = list(tournament.entrants.select_related("user").order_by("seed", "pk"))
    names = {e.pk: e.user.get_username() for e in entrants}
    status = {e.pk: e.status for e in entrants}
    if tournament.format == Tournament.Format.TABLES:
        tables = [
            [(s.entrant_id, s.place or 0, s.territories or 0) for s in t.seats.all()]
            for t in _done_tables(tournament)
            if t.outcome != TournamentTable.Outcome.BYE
        ]
        rows = table_standings(tables, tournament.place_points)
        seen = {r.player for r in rows}
        lines = [
            {"player": names[r.player], "points": r.points, "territories": r.territories,
             "games": r.games, "status": status[r.player]}
            for r in rows
        ] + [
            {"player": names[e.pk], "points": 0.0, "territories": 0, "games": 0,
             "status": e.status}
            for e in entrants if e.pk not in seen
        ]  # fmt: skip
    else:
        games = [g for r in duel_rounds(tournament) for g in r]
        ordered = duel_standings([e.pk for e in entrants], games)
        lines = [
            {"player": names[r.player], "score": r.score, "buchholz": r.buchholz,
             "sonneborn_berger": r.sonneborn_berger, "wins": r.wins, "played": r.played,
             "status": status[r.player]}
            for r in ordered
        ]  # fmt: skip
        if tournament.format == Tournament.Format.KNOCKOUT:
            lines = _bracket_order(tournament, lines, names)
    for rank, line in enumerate(lines, start=1):
        line["rank"] = rank
    return lines


def _bracket_order(
    tournament: Tournament, lines: list[dict[str, Any]], names: dict[int, str]
) -> list[dict[str, Any]]:
    """Knockout: by the last round each player reached, the final's winner first."""
    reached: dict[str, int] = {}
    for number, games in enumerate(duel_rounds(tournament), start=1):
        for first, second, _ in games:
            for p in (first, second):
                if p is not None:
                    reached[names[p]] = number
    champion = champion_id(tournament)
    best = names.get(champion) if champion else None
    order = {line["player"]: i for i, line in enumerate(lines)}
    return sorted(
        lines,
        key=lambda line: (line["player"] != best, -reached.get(line["player"], 0),
                          order[line["player"]]),
    )  # fmt: skip


def champion_id(tournament: Tournament) -> int | None:
    """The winner's entry id once the last round is complete; else None."""
    if not tournament.rounds or tournament.current_round < tournament.rounds:
        return None
    if not round_complete(tournament, tournament.rounds):
        return None
    if tournament.format == Tournament.Format.KNOCKOUT:
        final = duel_rounds(tournament)[-1]
        if len(final) != 1:
            return None  # stopped before its final: a knockout names no champion then
        seeds = dict(tournament.entrants.values_list("pk", "seed"))
        return knockout_winner(final[0], {p: s or 0 for p, s in seeds.items()})
    lines = standings_ids(tournament)
    return lines[0] if lines else None


def standings_ids(tournament: Tournament) -> list[int]:
    ids = {v: k for k, v in _names(tournament).items()}
    return [ids[line["player"]] for line in standings(tournament)]


def crosstable_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """One-to-one events: each player's opponent and score per round, in standings order."""
    if tournament.format == Tournament.Format.TABLES:
        return table_crosstable(tournament)
    names = _names(tournament)
    cells = crosstable(duel_rounds(tournament))
    rank = {line["player"]: line["rank"] for line in standings(tournament)}
    rows = []
    for pk, name in names.items():
        rows.append({
            "player": name, "rank": rank.get(name),
            "rounds": [
                {"round": c.round, "opponent": names.get(c.opponent) if c.opponent else None,
                 "opponent_rank": rank.get(names[c.opponent]) if c.opponent else None,
                 "score": c.score, "first": c.first}
                for c in cells.get(pk, [])
            ],
        })  # fmt: skip
    return sorted(rows, key=lambda r: r["rank"] or 0)


def table_crosstable(tournament: Tournament) -> list[dict[str, Any]]:
    """Table events: each player's place, territories and points per round."""
    names = _names(tournament)
    rank = {line["player"]: line["rank"] for line in standings(tournament)}
    per: dict[int, list[dict[str, Any]]] = {pk: [] for pk in names}
    for table in _done_tables(tournament):
        for s in table.seats.all():
            per[s.entrant_id].append({"round": table.round.number, "table": table.number,
                                      "place": s.place, "territories": s.territories,
                                      "points": s.points})  # fmt: skip
    rows = [{"player": names[pk], "rank": rank.get(names[pk]), "rounds": r}
            for pk, r in per.items()]  # fmt: skip
    return sorted(rows, key=lambda r: r["rank"] or 0)


def rounds(tournament: Tournament) -> list[dict[str, Any]]:
    """Every round's pairings: tables with their players, game or room, and result."""
    tables = (
        TournamentTable.objects.filter(round__tournament=tournament)
        .select_related("round", "game", "room")
        .prefetch_related("seats__entrant__user")
        .order_by("round__number", "number")
    )
    out: dict[int, dict[str, Any]] = {}
    for table in tables:
        r = out.setdefault(table.round.number, {
            "number": table.round.number, "paired_at": table.round.paired_at,
            "completed_at": table.round.completed_at, "tables": [],
        })  # fmt: skip
        r["tables"].append(table_view(table))
    return [out[n] for n in sorted(out)]


def table_view(table: TournamentTable) -> dict[str, Any]:
    seats: list[TableSeat] = sorted(table.seats.all(), key=lambda s: s.position)
    return {
        "id": table.pk,
        "number": table.number,
        "game": table.game_id,
        "room": table.room_id,
        "outcome": table.outcome or "playing",
        "players": [
            {"player": s.entrant.user.get_username(), "place": s.place, "points": s.points,
             "territories": s.territories, "bot": s.entrant.bot_stands_in}
            for s in seats
        ],
    }  # fmt: skip


def entrants(tournament: Tournament) -> list[dict[str, Any]]:
    rows = tournament.entrants.select_related("user").order_by("seed", "entered_at", "pk")
    return [entrant_view(e) for e in rows]


def entrant_view(e: TournamentEntrant) -> dict[str, Any]:
    return {"player": e.user.get_username(), "seed": e.seed, "rating": e.rating,
            "status": e.status, "first_round": e.first_round, "bot_stands_in": e.bot_stands_in,
            "entered_at": e.entered_at}  # fmt: skip


def summary(tournament: Tournament) -> dict[str, Any]:
    """The list's line and the head of the tournament's page."""
    game: dict[str, Any]
    if tournament.play == Tournament.Play.FAST_RISK:
        game = {"play": "fast_risk", "options": tournament.options,
                "time_control": tournament.time_control,
                "time_per_decision": tournament.time_per_decision.total_seconds()
                if tournament.time_per_decision else None}  # fmt: skip
    else:
        game = {"play": "room", "system": tournament.room_system, "rules": tournament.room_rules,
                "edition": tournament.room_edition, "sides": tournament.room_sides,
                "days_per_turn": tournament.days_per_turn}  # fmt: skip
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "description": tournament.description,
        "format": tournament.format,
        "status": tournament.status,
        "game": game,
        "rated": tournament.rated,
        "registration_opens": tournament.registration_opens,
        "registration_closes": tournament.registration_closes,
        "min_entrants": tournament.min_entrants,
        "max_entrants": tournament.max_entrants,
        "entrant_count": tournament.entrants.filter(status="active").count(),
        "rounds": tournament.rounds,
        "current_round": tournament.current_round,
        "table_sizes": [tournament.table_min, tournament.table_max],
        "place_points": tournament.place_points,
        "late_entry_rounds": tournament.late_entry_rounds,
        "auto_pair": tournament.auto_pair,
        "champion": tournament.champion.get_username() if tournament.champion else None,
        "created_by": tournament.created_by.get_username(),
        "started_at": tournament.started_at,
        "finished_at": tournament.finished_at,
    }


def log(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {"at": a.at, "actor": a.actor.get_username() if a.actor else None, "action": a.action,
         "detail": a.detail}
        for a in tournament.actions.select_related("actor").order_by("at", "pk")
    ]  # fmt: skip


def listed(status: str | None = None) -> list[Tournament]:
    """Every tournament, newest first (of one status when given); few enough to list whole."""
    found = Tournament.objects.select_related("created_by", "champion")
    if status is not None:
        found = found.filter(status=status)
    return list(found.order_by("-created_at", "-pk"))


def tournament_for(tournament_id: int) -> Tournament:
    """The tournament (tournaments are public: anyone may read any), or 404 naming ``id``."""
    found = (
        Tournament.objects.select_related("created_by", "champion").filter(pk=tournament_id).first()
    )
    if found is None:
        raise NotFoundError("no such tournament", field="id")
    return found
