"""Page views: templates only, data comes from the API and websockets.

No view here reads the database: the pages are shells that their scripts fill from
``/api/...`` and ``/ws/games/<id>/``, so nothing hidden can leak through a rendered page.
"""

from django.http import Http404, JsonResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.generic import TemplateView

from risk.rules.board_map import MapError, load_board_shapes


class HomeView(TemplateView):
    template_name = "frontend/home.html"


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
def board_shapes(request, name: str):
    """``/board/<name>.json``: the drawn board of a map (``game.js`` fetches and draws it).

    Static data from ``combat/data/<name>-risk-board.json`` (territory shapes, ocean stations),
    the same for every game and viewer: no game data, so the game page itself stays empty.
    """
    try:
        return JsonResponse(load_board_shapes(name))
    except MapError:
        raise Http404("no such board") from None
