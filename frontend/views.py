"""Page views: templates only, data comes from the API and websockets.

The pages are shells that their scripts fill from ``/api/...`` and ``/ws/games/<id>/``, so
nothing hidden can leak through a rendered page; the few that render data (a player's ratings
and games, the leaderboard) read it through the features' reads, which apply the API's rules
of who may see what.
"""

from typing import Any

from django.http import Http404, JsonResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.generic import TemplateView

from combat.axis_allies.editions import available_editions, load_edition
from frontend.notation_doc import notation_rows
from frontend.rating_chart import history_chart
from games.models import Rating
from games.play import access
from games.play.reads import lists
from games.ratings import board
from games.web.exceptions import NotFoundError
from risk.rules.board_map import MapError, load_board_shapes, load_map

# Every unit of any edition, the revised edition's order first (the A&A form's rows; calc_page.js
# shows those of the chosen edition, from GET /api/combat/aa/editions).
AA_UNITS = list(
    dict.fromkeys(
        name
        for key in ("revised", "classic", *available_editions())
        for name in load_edition(key).units
    )
)
# The A&A ``rules`` values with what they mean (combat.axis_allies.rules).
AA_RULES = [
    ("dice", "Dice: every unit rolls"),
    ("lowluck", "Low Luck: hits are the total / 6, the remainder rolled on one die"),
    ("chess", "A&A Chess (orthodox): no dice, remainders ignored"),
    ("chess-ryof", "A&A Chess RYOF: roll your own fraction"),
    ("chess-ryof6", "A&A Chess RYOF<6: every remainder rolled"),
    ("chess-cof", "A&A Chess COF: carry over the fraction (no dice)"),
    ("chess-cof-r", "A&A Chess COF+R: carry over, roll the last fraction"),
]


class HomeView(TemplateView):
    """``/``: what Warboard is, who you are (or where to sign in), where to play and look
    things up, and the running games to watch (``home.js`` lists them from the API)."""

    template_name = "frontend/home.html"


class StatusView(TemplateView):
    """``/status``: the server's health and a websocket ping (``status.js``)."""

    template_name = "frontend/status.html"


class LobbyView(TemplateView):
    """``/games``: the lobby (``lobby.js`` lists, creates, joins and starts games)."""

    template_name = "frontend/lobby.html"


class GameView(TemplateView):
    """``/games/<id>``: one game, live over the socket (``game.js``).

    The page answers 200 for any id: it renders no game data, and the script says "no such
    game" when the API answers 404.
    """

    template_name = "frontend/game.html"


class LoginView(TemplateView):
    """``/login``: sign in or register (``login.js``), then back to ``?next=``."""

    template_name = "frontend/login.html"


class SettingsView(TemplateView):
    """``/settings``: display name, email and mail preferences (``settings.js`` through
    ``/api/auth/me``); links to the password change and reset pages (Django's auth views)."""

    template_name = "frontend/settings.html"


class VerifyView(TemplateView):
    """``/verify`` (``?game=<id>``): every roll of a finished game recomputed in the browser
    (``dice.js``, ``verify.js``) from its replay, loaded from the API or pasted."""

    template_name = "frontend/verify.html"


class ReplayView(TemplateView):
    """``/games/<id>/replay``: a finished game's log, stepped through entry by entry
    (``replay.js``); like the game page it answers 200 for any id."""

    template_name = "frontend/replay.html"


@require_GET
@cache_control(public=True, max_age=3600)
def board_shapes(request, name: str, version: int = 1):
    """``/board/<name>/<version>.json`` (``/board/<name>.json``: version 1): the drawn board of
    a version of a map (``game.js`` fetches the one its game's options name, and draws it).

    Static data, the same for every game and viewer (territory shapes, ocean stations; a
    version that can be played on never changes, so it is cached like a file): no game data,
    so the game page itself stays empty. ``cards`` adds each territory's Risk card symbol from
    the map: a view names a Risk card by its territory only, and the hand is drawn with the
    symbol that makes sets (forms_cards.js).
    """
    try:
        shapes = load_board_shapes(name, version)
        symbols = {t: data.card for t, data in load_map(name, version).territories.items()}
    except MapError:
        raise Http404("no such board") from None
    return JsonResponse({**shapes, "cards": symbols})


class RoomsView(TemplateView):
    """``/rooms``: correspondence rooms for A&A, World in Flames and France 1944 (``rooms.js``
    lists and creates them through ``/api/rooms``)."""

    template_name = "frontend/rooms.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        # The edition picker: every edition's key with its name, from the data files.
        context["editions"] = [(key, load_edition(key).name) for key in available_editions()]
        return context


class RoomView(TemplateView):
    """``/rooms/<id>``: one room's journal and the forms to post to it (``room.js``); like
    the game page it answers 200 for any id and reads no database."""

    template_name = "frontend/room.html"


class CalculatorsView(TemplateView):
    """``/calculators/``: the list of combat calculators."""

    template_name = "frontend/calculators.html"


class AACalculatorView(TemplateView):
    """``/calculators/aa``: Axis & Allies odds (dice, Low Luck, the A&A Chess variants)."""

    template_name = "frontend/calc_aa.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["units"] = AA_UNITS
        context["rules"] = AA_RULES
        context["editions"] = [(key, load_edition(key).name) for key in available_editions()]
        return context


class RiskCalculatorView(TemplateView):
    """``/calculators/risk``: Fast Risk battle odds (normal, committed, flanking, naval)."""

    template_name = "frontend/calc_risk.html"


class WifCalculatorView(TemplateView):
    """``/calculators/wif``: World in Flames option 27, the 2d10 Land CRT."""

    template_name = "frontend/calc_wif.html"


class France1944CalculatorView(TemplateView):
    """``/calculators/france-1944``: France 1944's revised combat table."""

    template_name = "frontend/calc_france_1944.html"


class RulesView(TemplateView):
    """``/rules``: Fast Risk's rules in the project's words."""

    template_name = "frontend/rules.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["notation"] = notation_rows()
        return context


class LeaderboardView(TemplateView):
    """``/leaderboard`` (``?kind=``): the best ratings of one kind, provisional ones marked
    "?"; rendered on the server from ``games.ratings.board``. An unknown kind: 404."""

    template_name = "frontend/leaderboard.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        kind = self.request.GET.get("kind") or Rating.Kind.FAST_RISK_2P
        if kind not in board.KINDS:
            raise Http404("no such rating kind")
        context["kind"] = kind
        context["kinds"] = Rating.Kind.choices
        context["rows"] = board.leaderboard(kind)
        return context


class PlayerView(TemplateView):
    """``/players/<username>``: a player's ratings per kind, each with its history drawn as an
    inline SVG line (``frontend.rating_chart``, no script), and the rated results listed (a
    private game's or room's only to its players and staff: ``games.ratings.board``)."""

    template_name = "frontend/player.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        try:
            found = board.player_ratings(kwargs["username"], self.request.user)
        except NotFoundError as exc:
            raise Http404("no such player") from exc
        labels = dict(Rating.Kind.choices)
        sections = []
        for rating in found["ratings"]:
            changes = [c for c in found["history"] if c["kind"] == rating["kind"]]
            # No result the viewer may see (all private): the current rating, flat.
            values = [rating["rating"]]
            if changes:
                values = [changes[0]["rating_before"]] + [c["rating_after"] for c in changes]
            sections.append(
                {"label": labels[rating["kind"]], "rating": rating, "changes": changes,
                 "chart": history_chart(values)}
            )  # fmt: skip
        context["player"] = found
        context["sections"] = sections
        context["games"] = player_games(found["username"], self.request.user)
        return context


#: The games a player's page lists at most, the newest first.
PLAYER_GAMES = 30


def player_games(username: str, viewer: Any) -> list[dict[str, Any]]:
    """The games ``username`` plays or played that ``viewer`` may see listed (the lobby's rule:
    public ones, and private ones the viewer sits in or created), for the player's page."""
    games = lists.played_by(access.listed_for(viewer), username)[:PLAYER_GAMES]
    return [
        {
            "id": game.pk,
            "name": game.name,
            "status": game.status,
            "winner": (game.result or {}).get("winner"),
            "when": game.finished_at or game.started_at or game.created_at,
        }
        for game in games
    ]
