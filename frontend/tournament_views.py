"""The tournaments' pages: ``/tournaments``, ``/tournaments/<id>`` and
``/tournaments/new``, rendered on the server from ``games.tournaments.reading``.

Unlike the game pages these read the database: everything a tournament shows is public
(``games.tournaments.access``), so a rendered page leaks nothing, and the pages work
without a script. Every change is a plain form posted to ``tournament_post``, which calls one
service and redirects back to the tournament (POST/redirect/GET) with the service's message.
The services check staff rights and log themselves; the view checks staff first only so that a
non-staff post is a clean 403 before any of its input is read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from frontend.templatetags.tournaments import ordinal, points
from frontend.tournament_forms import GROUPS, TournamentForm
from games.models import Tournament
from games.tournaments import access, pairing, reading, results, setup
from games.web.exceptions import ApplicationError, ForbiddenError, NotFoundError

#: The list's sections, in the order a visitor looks for them.
SECTIONS = (
    (Tournament.Status.REGISTRATION, "Open for registration"),
    (Tournament.Status.RUNNING, "Running"),
    (Tournament.Status.FINISHED, "Finished"),
    (Tournament.Status.CANCELLED, "Cancelled"),
)
OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def _is_staff(request: HttpRequest) -> bool:
    try:
        access.require_staff(request.user)
    except ForbiddenError:
        return False
    return True


# --- reading ------------------------------------------------------------------------------------


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    """``/tournaments``: every tournament, by status, newest first."""
    found = Tournament.objects.select_related("champion", "created_by")
    rows = [reading.summary(t) for t in found]
    sections = [
        {"status": status, "label": label, "rows": [r for r in rows if r["status"] == status]}
        for status, label in SECTIONS
    ]
    return render(request, "frontend/tournaments.html",
                  {"sections": sections, "staff": _is_staff(request)})  # fmt: skip


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """``/tournaments/<id>``: the event, its entrants, rounds, standings and crosstable; the
    player's Register/Withdraw; the staff panel and log for staff only."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("champion", "created_by"), pk=tournament_id
    )
    summary = reading.summary(tournament)
    entrants = reading.entrants(tournament)
    rounds = reading.rounds(tournament)
    standings = reading.standings(tournament)
    cross = reading.crosstable_rows(tournament)
    staff = _is_staff(request)
    me = next((e for e in entrants if e["player"] == request.user.get_username()), None)
    context = {
        "t": summary,
        "tables": summary["format"] == Tournament.Format.TABLES,
        "entrants": entrants,
        "rounds": rounds,
        "standings": standings,
        "round_numbers": list(range(1, tournament.current_round + 1)),
        "crosstable": crosstable_grid(cross, tournament.current_round, summary["format"]),
        "signed_in": request.user.is_authenticated,
        "me": me,
        "can_register": me is None and registration_open(summary, timezone.now()),
        "can_withdraw": me is not None and me["status"] == "active"
        and summary["status"] not in OVER,
        "staff": staff,
    }  # fmt: skip
    if staff:
        context["log"] = reading.log(tournament)
        context["active"] = [e["player"] for e in entrants if e["status"] == "active"]
        context["pending"] = [
            {"round": r["number"], **table}
            for r in rounds
            for table in r["tables"]
            if table["outcome"] == "playing"
        ]
    return render(request, "frontend/tournament.html", context)


def registration_open(summary: dict[str, Any], now: Any) -> bool:
    """Whether to offer the Register button (the service decides; this only hides a button
    that could not work): registration open and the field not full, or late entries taken."""
    if summary["status"] == Tournament.Status.RUNNING:
        return summary["current_round"] < summary["late_entry_rounds"]
    if summary["status"] != Tournament.Status.REGISTRATION:
        return False
    opens, closes = summary["registration_opens"], summary["registration_closes"]
    return (
        (opens is None or opens <= now)
        and (closes is None or now < closes)
        and summary["entrant_count"] < summary["max_entrants"]
    )


def crosstable_grid(rows: Sequence[dict[str, Any]], rounds: int, fmt: str) -> list[dict[str, Any]]:
    """The crosstable as a grid: one row per player in standings order, one cell per round.

    1 v 1 (a chess crosstable): the opponent's rank, ``f``/``s`` for first- or second-named,
    and the score, e.g. ``3f 1``; a bye is ``bye 1``. Tables: the place and points, e.g.
    ``2nd 6``. A round with no result for the player (not yet played, not entered) is ``·``.
    """
    key = "points" if fmt == Tournament.Format.TABLES else "score"
    grid = []
    for row in rows:
        by_round = {cell["round"]: cell for cell in row["rounds"]}
        cells = []
        for number in range(1, rounds + 1):
            cell = by_round.get(number)
            if cell is None:
                cells.append({"text": "·", "title": f"round {number}: no result"})
            elif fmt == Tournament.Format.TABLES:
                cells.append(_table_cell(number, cell))
            else:
                cells.append(_duel_cell(number, cell))
        total = sum(cell[key] or 0.0 for cell in row["rounds"])
        grid.append({"rank": row["rank"], "player": row["player"], "cells": cells,
                     "total": points(total)})  # fmt: skip
    return grid


def _duel_cell(number: int, cell: dict[str, Any]) -> dict[str, str]:
    score = points(cell["score"])
    if cell["opponent"] is None:
        return {"text": f"bye {score}", "title": f"round {number}: a bye, {score}"}
    side = "f" if cell["first"] else "s"
    named = "first-named" if cell["first"] else "second-named"
    return {
        "text": f"{cell['opponent_rank']}{side} {score}",
        "title": f"round {number}: v {cell['opponent']} (rank {cell['opponent_rank']}), "
        f"{named}, scored {score}",
    }


def _table_cell(number: int, cell: dict[str, Any]) -> dict[str, str]:
    place, score = ordinal(cell["place"]), points(cell["points"])
    held = f", {cell['territories']} territories" if cell["territories"] is not None else ""
    return {
        "text": f"{place} {score}",
        "title": f"round {number}, table {cell['table']}: {place} place, {score} points{held}",
    }


# --- creating -----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    """``/tournaments/new``: staff only (anonymous: to the sign-in page; others: 403)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not _is_staff(request):
        raise PermissionDenied("only staff run tournaments")
    form = TournamentForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            created = setup.tournament_create(
                actor=request.user, settings=form.tournament_settings()
            )
        except ApplicationError as exc:
            form.refused(exc)
            status = exc.status
        else:
            messages.success(request, f"{created.name} is open for registration.")
            return redirect("tournament-page", tournament_id=created.pk)
    elif request.method == "POST":
        status = 400
    return render(request, "frontend/tournament_new.html", {"form": form, "groups": GROUPS},
                  status=status)  # fmt: skip


# --- acting -------------------------------------------------------------------------------------

Action = Callable[[HttpRequest, int], str]


def _text(request: HttpRequest, name: str) -> str:
    return request.POST.get(name, "").strip()


def _whole_numbers(values: Sequence[str], field: str) -> list[int]:
    """Numbers from repeated inputs or one comma-separated input; blank inputs dropped."""
    parts = [p for v in values for p in v.replace(",", " ").split()]
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise ApplicationError("whole numbers", field=field) from None


def _register(request: HttpRequest, tournament_id: int) -> str:
    setup.register(tournament_id=tournament_id, user=request.user)
    return "You are entered."


def _withdraw(request: HttpRequest, tournament_id: int) -> str:
    setup.withdraw(tournament_id=tournament_id, user=request.user)
    return "You have withdrawn."


def _start(request: HttpRequest, tournament_id: int) -> str:
    started = setup.tournament_start(actor=request.user, tournament_id=tournament_id)
    return f"Started: {started.rounds} rounds; round 1 is paired."


def _pair(request: HttpRequest, tournament_id: int) -> str:
    paired = pairing.round_pair(actor=request.user, tournament_id=tournament_id)
    return f"Round {paired.number} is paired."


def _finish(request: HttpRequest, tournament_id: int) -> str:
    done = results.finish_now(actor=request.user, tournament_id=tournament_id)
    champion = done.champion.get_username() if done.champion else "none"
    return f"The tournament is finished after round {done.rounds}; champion: {champion}."


def _cancel(request: HttpRequest, tournament_id: int) -> str:
    setup.tournament_cancel(actor=request.user, tournament_id=tournament_id,
                            reason=_text(request, "reason"))  # fmt: skip
    return "The tournament is cancelled."


def _remove(request: HttpRequest, tournament_id: int) -> str:
    username = _text(request, "username")
    setup.entrant_remove(actor=request.user, tournament_id=tournament_id, username=username,
                         reason=_text(request, "reason"))  # fmt: skip
    return f"{username} is removed."


def _stand_in(request: HttpRequest, tournament_id: int) -> str:
    username, on = _text(request, "username"), _text(request, "on") == "1"
    setup.stand_in(actor=request.user, tournament_id=tournament_id, username=username, on=on)
    return f"A bot {'now stands in for' if on else 'no longer stands in for'} {username}."


def _result(request: HttpRequest, tournament_id: int) -> str:
    table = _whole_numbers([_text(request, "table")], "table")
    if len(table) != 1 or not 0 < table[0] < 2**63:  # a row id, not a database overflow
        raise ApplicationError("choose a table", field="table")
    places = _whole_numbers(request.POST.getlist("places"), "places")
    held = _whole_numbers(request.POST.getlist("territories"), "territories")
    results.enter_result(actor=request.user, tournament_id=tournament_id, table_id=table[0],
                         places=places, territories=held or None,
                         reason=_text(request, "reason"))  # fmt: skip
    return f"The result is entered: places {', '.join(map(str, places))}."


PLAYER_ACTIONS: dict[str, Action] = {"register": _register, "withdraw": _withdraw}
STAFF_ACTIONS: dict[str, Action] = {
    "start": _start,
    "pair": _pair,
    "finish": _finish,
    "cancel": _cancel,
    "remove": _remove,
    "stand-in": _stand_in,
    "result": _result,
}


@require_POST
def tournament_post(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """``POST /tournaments/<id>/<action>``: one service call, then back to the page with its
    message. A staff action from anyone else is 403 and nothing is read or written."""
    page = reverse("tournament-page", kwargs={"tournament_id": tournament_id})
    if action in STAFF_ACTIONS:
        if not _is_staff(request):
            raise PermissionDenied("only staff run tournaments")
        run = STAFF_ACTIONS[action]
    elif action in PLAYER_ACTIONS:
        if not request.user.is_authenticated:
            return redirect_to_login(page)
        run = PLAYER_ACTIONS[action]
    else:
        raise Http404("no such action")
    try:
        done = run(request, tournament_id)
    except ForbiddenError as exc:
        raise PermissionDenied(exc.message) from exc
    except NotFoundError as exc:
        if exc.field == "id":
            raise Http404(exc.message) from exc
        messages.error(request, _refusal(exc))
    except ApplicationError as exc:
        messages.error(request, _refusal(exc))
    else:
        messages.success(request, done)
    return redirect(page)


def _refusal(exc: ApplicationError) -> str:
    return f"{exc.message} ({exc.field})" if exc.field else exc.message
