"""Perform one action on a game page the way a person would: through the board and the forms.

``perform(page, action)`` opens the action's form with its button
(``#action-buttons button[data-type=<type>]``), picks territories, ships and stations by clicking
them on the board (``polygon[data-name]``, ``g.ship[data-ship]``, ``circle[data-station]``),
sets the other fields through the form's ``[data-field=<choice key>]`` controls, commits with
the form's ``button.primary`` and waits for ``#action-result`` to acknowledge a newer version
(or raises with the error the page shows). It never types JSON into the Advanced editor.

A placement is the form's draft: the armies a click first, then the click on the territory. A
roll's ``until_decided``/``until_armies`` set the form's "Roll on" select (``until``), which
starts at the player's remembered choice. ``Clicks`` counts what a person would have done: a
button, a pick, a control changed; a form the page opened already, or a control already holding
the value, costs none.

A choice with no control of its own is left as the form keeps it (the poker table sets its
``move`` itself for the choose and draw steps). After the ack ``perform`` reads the logged
action back (``GET /api/games/<id>/events``) and checks that the page sent exactly what was
meant, so a form that builds something else (a field missing, a default left in place, a pick
that missed) fails here, naming the keys that differ.
"""

from __future__ import annotations

import json
from typing import Any

from risk.rules import ActionSpec
from risk.rules.forced import only_action
from tests.frontend.browser import GAME_MODULE, game_state, wait_for_game

#: Picks made on the board, per type: (action key, what to click). Territories are clicked as
#: polygons, ships as ``g.ship``, stations as circles; an attack's source may be a ship (a
#: landing), told apart by the board having no territory of that name.
BOARD_PICKS: dict[str, tuple[tuple[str, str], ...]] = {
    "place": (("territory", "territory"),),
    "place_factory": (("territory", "territory"),),
    "place_ship": (("station", "station"),),
    "cruise": (("ship", "ship"),),
    "sail": (("station", "station"),),
    "embark": (("territory", "territory"),),
    "disembark": (("territory", "territory"),),
    "transfer": (("source", "territory"), ("destination", "territory")),
}

#: Types with one spec per cruising ship: the button (and a ``ship`` select) says which.
PER_SHIP = {"sail", "embark", "disembark", "end_cruise"}

#: Keys never looked for as fields.
_CLICKED = {"type", "player"}

#: Values that mean "left as the form starts" (the log may hold them or leave them out).
_DEFAULTS: tuple[Any, ...] = (None, 0, False, "", [], ())


class PerformError(AssertionError):
    """The page could not perform the action: a missing control, or the server's refusal."""


class Clicks:
    """The clicks (and keyboard entries) one ``perform`` took: a button, a pick on the board, a
    select or field changed, a box ticked. A control already holding the wanted value, or a form
    already open, takes none."""

    def __init__(self) -> None:
        self.count = 0

    def add(self, n: int = 1) -> None:
        self.count += n


_clicks = Clicks()


def perform(page: Any, action: dict[str, Any], clicks: Clicks | None = None) -> int:
    """Perform ``action`` (a ``legal_actions``-valid action dict) on ``page``; the new version.
    ``clicks`` counts the person's clicks it took.

    Raises ``PerformError`` with the page's words when the form refuses or the server does.
    """
    global _clicks
    _clicks = clicks if clicks is not None else Clicks()
    kind = action["type"]
    before = _version(page)
    _open_form(page, action)
    done = set(_CLICKED)
    if kind == "place":  # the draft: the armies a click first, then the click on the board
        _set(page, "armies", action["armies"])
        _click_board(page, "territory", action["territory"])
        _picked(page, "territory", action["territory"])
        done |= {"armies", "territory"}
    elif kind == "roll":
        done |= _roll_on(page, action)
    if kind == "attack":
        done |= _pick_attack(page, action)
    elif kind == "naval_attack":
        done |= _pick_naval(page, action)
    elif kind == "arrange":
        done |= _fill_arrangement(page, action)
    elif kind not in ("place", "roll"):
        if kind in PER_SHIP:  # the button opened that ship's form; a ship select agrees
            _set(page, "ship", action["ship"])
            _picked(page, "ship", action["ship"])
            done.add("ship")
        for key, what in BOARD_PICKS.get(kind, ()):
            _click_board(page, what, action[key])
            _picked(page, key, action[key])
            done.add(key)
    _fill_fields(page, action, done)
    commit = page.locator("#action-form button.primary")
    if commit.count() == 0:
        raise PerformError(f"the {kind} form has no commit button (button.primary)")
    commit.first.click()
    _clicks.add()
    version = _wait_for_ack(page, before, kind)
    _check_logged(page, version, action)
    return version


def nothing_to_choose(specs: list[dict], view: dict) -> bool:
    """Whether the server takes this decision for the person (risk/RULES.md F1): one decision
    with one action to build, unless that would tell the table about a hidden hand (a
    mobilization while the defender holds a Risk card, a reinforcement while the seat whose
    turn it is holds three or more)."""
    if len(specs) != 1 or not only_action(ActionSpec(specs[0]["type"], specs[0]["options"]), "me"):
        return False
    kind = specs[0]["type"]
    if kind not in ("mobilize", "place"):
        return True
    seat = (view.get("battle") or {}).get("defender") if kind == "mobilize" else None
    seat = seat or (view.get("turn") or {}).get("seat")
    held = next(s["risk_cards"] for s in view["seats"] if s["id"] == seat)
    return held == 0 if kind == "mobilize" else held < 3


# --- opening the form -------------------------------------------------------------------------


def _open_form(page: Any, action: dict[str, Any]) -> None:
    """Click the action's button, unless its form is open already (the page opens the first
    action's form by itself); for per-ship specs (sail, embark, ...) the one of its ship."""
    buttons = page.locator(f"#action-buttons button[data-type={action['type']}]")
    count = buttons.count()
    if count == 0:
        raise PerformError(f"no {action['type']} button on the page (is it legal now?)")
    button = buttons.first
    if count > 1 and "ship" in action:
        button = buttons.filter(has_text=f"({action['ship']})").first
    if button.get_attribute("aria-pressed") == "true":
        return
    button.click()
    _clicks.add()


def _roll_on(page: Any, action: dict[str, Any]) -> set[str]:
    """How far the roll rolls on, in the form's one select (``until``), which the page starts
    at the player's standing choice; the mark of ``until N left`` in its field."""
    if action.get("until_armies"):
        _set(page, "until", "armies")
        _set(page, "until_armies", action["until_armies"])
    else:
        _set(page, "until", "decided" if action.get("until_decided") else "once")
    return {"until_decided", "until_armies"}


# --- board picks ------------------------------------------------------------------------------

_SELECTORS = {
    "territory": "#board polygon[data-name='{}']",
    "ship": "#board g.ship[data-ship='{}']",
    "station": "#board circle[data-station='{}']",
}


def _click_board(page: Any, what: str, name: str) -> None:
    """Click a board element where the pointer really hits it (not under a ship or another
    land): a territory's bounding-box centre may lie outside a concave shape. A station under a
    ship (the first ship on a station covers its dot) has no such point: a person clicks the
    ship there, and the page takes a click on a ship that picks no ship as its station."""
    node = page.locator(_SELECTORS[what].format(name)).first
    if node.count() == 0:
        raise PerformError(f"the board has no {what} {name!r}")
    node.scroll_into_view_if_needed()
    _clicks.add()
    point = node.evaluate(HIT_POINT)
    if point is not None:
        page.mouse.click(point["x"], point["y"])
    elif what == "station":
        box = node.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    else:
        raise PerformError(f"{what} {name!r} cannot be clicked: something covers all of it")


#: A point of the viewport where ``elementFromPoint`` finds the element (or a part of it): the
#: centre of its box first, then a grid over the box; the mouse clicks there.
HIT_POINT = """node => {
  const box = node.getBoundingClientRect();
  const hits = (x, y) => {
    const e = document.elementFromPoint(x, y);
    return e && (e === node || node.contains(e));
  };
  const tries = [[0.5, 0.5]];
  for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) tries.push([i / 10, j / 10]);
  for (const [fx, fy] of tries) {
    const x = box.left + box.width * fx, y = box.top + box.height * fy;
    if (hits(x, y)) return { x, y };
  }
  return null;
}"""


def _is_territory(page: Any, name: str) -> bool:
    return page.locator(_SELECTORS["territory"].format(name)).count() > 0


def _pick_attack(page: Any, action: dict[str, Any]) -> set[str]:
    """Target, then the first source (a territory or a landing ship) on the board; the mode, the
    second flank and the armies per flank through the form (``flanks`` becomes fields)."""
    flanks = action["flanks"]
    _click_board(page, "territory", action["target"])
    source = flanks[0][0]
    _click_board(page, "territory" if _is_territory(page, source) else "ship", source)
    _picked(page, "target", action["target"])
    _picked(page, "source", source)
    _set(page, "mode", action["mode"])
    if action["mode"] == "flanking":
        _set(page, "source2", flanks[1][0])
    _set(page, "armies", flanks[0][1])
    return {"target", "flanks", "mode"}


def _pick_naval(page: Any, action: dict[str, Any]) -> set[str]:
    """Each own ship clicked on the board (into the attack), then its target ship (the last
    ship picked that reaches it takes it as target); mode and armies as fields."""
    targets = action.get("targets") or [action["target"]] * len(action["ships"])
    form = page.locator("#action-form")
    for ship, target in zip(action["ships"], targets, strict=True):
        _click_board(page, "ship", ship)
        box = form.locator(f"[data-field=ships][value='{ship}']")
        if box.count() and not box.first.is_checked():  # it was in already: the click took it out
            _click_board(page, "ship", ship)
        _click_board(page, "ship", target)
    return {"ships", "target", "targets"}


def _fill_arrangement(page: Any, action: dict[str, Any]) -> set[str]:
    """The set-up: armies per territory (``[data-field=arrangement][data-territory=<t>]``), the
    factory's territory and the ship's station clicked on the board."""
    form = page.locator("#action-form")
    for territory, armies in action["arrangement"]:
        box = form.locator(f"[data-field=arrangement][data-territory='{territory}']")
        if box.count() == 0:
            raise PerformError(f"the arrange form has no armies field for {territory}")
        box.first.fill(str(armies))
    _click_board(page, "territory", action["factory"])
    _picked(page, "factory", action["factory"])
    if action.get("ship_station"):
        _click_board(page, "station", action["ship_station"])
        _picked(page, "ship_station", action["ship_station"])
    return {"arrangement", "factory", "ship_station"}


def _picked(page: Any, key: str, value: str) -> None:
    """After a click on the board: the form's ``key`` control (if shown) holds ``value``."""
    control = page.locator(f"#action-form [data-field='{key}']")
    if control.count() and control.first.input_value() != value:
        raise PerformError(
            f"clicking {value} on the board did not pick it as {key} "
            f"(the form shows {control.first.input_value()!r})"
        )


# --- fields -----------------------------------------------------------------------------------


def _fill_fields(page: Any, action: dict[str, Any], done: set[str]) -> None:
    """Every other key through its ``[data-field]`` control: choices first (they may redraw the
    form and reset numbers), numbers last."""
    keys = [k for k in action if k not in done]
    numbers = [k for k in keys if isinstance(action[k], int) and not isinstance(action[k], bool)]
    for key in [k for k in keys if k not in numbers] + numbers:
        _set(page, key, action[key])


def _set(page: Any, key: str, value: Any) -> None:
    """Set the ``key`` control(s) to ``value``. A key with no control is left as the form has
    it (a form that keeps it itself, like the poker step's move): ``_check_logged`` then finds
    out whether what was sent is what was meant."""
    form = page.locator("#action-form")
    controls = form.locator(f"[data-field='{key}']")
    if controls.count() == 0:
        return
    first = controls.first
    tag = first.evaluate("n => n.tagName.toLowerCase()")
    kind = (first.get_attribute("type") or "").lower()
    single = tag == "select" or (kind not in ("checkbox", "radio") and tag != "button")
    if not isinstance(value, list | tuple) and single and first.input_value() == _text(value):
        return  # already so: no click
    if not isinstance(value, list | tuple) and kind not in ("checkbox",):
        _clicks.add()
    if isinstance(value, list | tuple):
        if tag == "select":  # one select per item (the wild dice of a mobilization)
            for i, item in enumerate(value[: controls.count()]):
                select = form.locator(f"[data-field='{key}']").nth(i)
                select.select_option(_option_value(select, item))
        else:
            _set_many(form, key, [str(v) for v in value])
    elif tag == "select":
        first.select_option(_option_value(first, value))
    elif kind == "checkbox" and controls.count() == 1 and isinstance(value, bool):
        _toggle(first, value)
    elif kind == "radio":
        _radio(controls, value)
    elif tag == "button":
        form.locator(f"[data-field='{key}'][value='{_text(value)}']").first.click()
    else:
        first.fill(_text(value))
        first.dispatch_event("change")


def _text(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _option_value(select: Any, value: Any) -> str:
    offered = select.evaluate("s => [...s.options].map(o => o.value)")
    for candidate in (str(value), _text(value), "" if value is None else None):
        if candidate is not None and candidate in offered:
            return candidate
    raise PerformError(f"{value!r} is not offered (options {offered})")


def _set_many(form: Any, key: str, wanted: list[str]) -> None:
    """A multi-choice: check exactly the boxes whose value is wanted (a card held twice, such
    as two wild cards, is as many boxes of that value). The form may redraw after each box,
    so the boxes are looked up afresh each time."""
    left = list(wanted)
    boxes = form.locator(f"[data-field='{key}']")
    for i in range(boxes.count()):
        box = form.locator(f"[data-field='{key}']").nth(i)
        value = box.get_attribute("value") or ""
        on = value in left
        if on:
            left.remove(value)
        if box.is_checked() != on:
            _toggle(box, on)
    if left:
        raise PerformError(f"no {key} box for {left}")


def _toggle(box: Any, on: bool) -> None:
    """Check or uncheck a box as a person does: the box, or the card drawn as its label when
    the box itself is hidden behind the drawing."""
    if box.is_checked() != on:
        _clicks.add()
    if box.is_visible():
        box.set_checked(on)
    else:
        box.locator("xpath=ancestor::label[1]").click()
    if box.is_checked() != on:
        raise PerformError(f"the {box.get_attribute('value')} box did not change")


def _radio(controls: Any, value: Any) -> None:
    for i in range(controls.count()):
        box = controls.nth(i)
        if box.get_attribute("value") in (str(value), _text(value)):
            if box.is_visible():
                box.check()
            else:
                box.locator("xpath=ancestor::label[1]").click()
            return
    raise PerformError(f"no choice {value!r}")


# --- the result -------------------------------------------------------------------------------


def _version(page: Any) -> int:
    return int(game_state(page)["version"])


def _wait_for_ack(page: Any, before: int, kind: str) -> int:
    """The version the ack names (the result's ``data-version``: the words shown never name
    it), once the page holds it; the page's error text raised."""
    page.wait_for_function(
        """before => { const r = document.getElementById('action-result');
           return r.className === 'bad' || Number(r.dataset.version || -1) > before; }""",
        arg=before,
    )
    result = page.locator("#action-result")
    text = result.inner_text()
    if result.get_attribute("class") == "bad" or not text.startswith("Done"):
        raise PerformError(f"{kind}: the page says {text!r}")
    version = int(result.get_attribute("data-version") or -1)
    wait_for_game(page, "(s, v) => s.version >= v", version)
    return version


def _check_logged(page: Any, version: int, action: dict[str, Any]) -> None:
    """The logged action of ``version`` carries every value meant (the UI built the right one)."""
    game_id = page.evaluate(f"async () => (await {GAME_MODULE}).game.id")
    res = page.request.get(f"/api/games/{game_id}/events?after={version - 1}")
    entries = [e for e in res.json()["entries"] if e["sequence"] == version]
    if not entries:
        raise PerformError(f"entry {version} is not in the log")
    logged = _one_target_each(entries[0]["action"])
    action = _one_target_each(action)
    wrong = {k: (v, logged.get(k)) for k, v in action.items()
             if k != "player" and _norm(k, logged.get(k)) != _norm(k, v)
             and not (v in _DEFAULTS and logged.get(k) in _DEFAULTS)}  # fmt: skip
    if wrong:
        raise PerformError(f"the page sent {logged}, not the meant {action}: {wrong}")


#: Keys whose lists are sets of picks: their order is the form's, not the person's.
_UNORDERED = {"cards", "reveal", "from_stash", "wild_territories"}


def _one_target_each(action: dict[str, Any]) -> dict[str, Any]:
    """A naval attack's ``targets`` written out: empty means every ship attacks ``target``
    (the engine's reading, ``NavalAttack``), so ``[]`` and ``[target]`` are the same attack."""
    if action.get("type") != "naval_attack" or action.get("targets"):
        return action
    return {**action, "targets": [action.get("target")] * len(action.get("ships") or [])}


def _norm(key: str, value: Any) -> Any:
    if isinstance(value, list | tuple):
        items = [_norm("", v) for v in value]
        return sorted(items, key=json.dumps) if key in _UNORDERED else items
    return value
