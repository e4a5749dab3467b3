"""The game page's pure parts for players, under Node: ships never overlapping on the board
(``freeSpot``, ``shipScale`` in board.js), the watchable pace and its fast-forward (``Pacer`` in
viewer.js), the first-game guide's step, and the words shown for an action's answer, a hint and
the game's options (text.js): never a version number or a raw field name.
"""

from __future__ import annotations

import re

from tests.frontend.node import call_each, import_line, run_script

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def test_ships_crowded_on_nearby_stations_never_overlap():
    script = (
        import_line("board.js", "freeSpot", "shipScale")
        + """
const out = [];
for (const k of input.scales) {
  const s = shipScale(k), w = 22 * s, h = 34 * s;
  const placed = [];
  for (const station of input.stations) placed.push(freeSpot(station, w, h, placed));
  let overlaps = 0;
  for (let i = 0; i < placed.length; i += 1) for (let j = 0; j < i; j += 1) {
    const [a, b] = [placed[i], placed[j]];
    if (Math.abs(a[0] - b[0]) < w - 0.01 && Math.abs(a[1] - b[1]) < h - 0.01) overlaps += 1;
  }
  out.push({ s, overlaps, first: placed[0], second: placed[1] });
}
process.stdout.write(JSON.stringify(out));
"""
    )
    # six ships on one station and four on a station 10 units away, at the desktop's and a
    # phone's whole-board scale (board units per screen pixel)
    stations = [[100, 100]] * 6 + [[110, 100]] * 4
    out = run_script(script, {"scales": [1.1, 2.67], "stations": stations})
    assert [o["overlaps"] for o in out] == [0, 0]
    assert out[0]["s"] == 1  # the map's own size on a desktop
    assert abs(out[1]["s"] - 14 * 2.67 / 18) < 1e-9  # 14 screen pixels wide on the phone
    assert out[0]["first"] == [100, 100]  # the first ship stands on its station
    assert out[0]["second"] == [122, 100]  # the second beside it, to the right


PACER = (
    import_line("viewer.js", "Pacer", "PACE_MS")
    + """
let clock = 0;
const timers = [];
const shown = [];
const counts = [];
const pacer = new Pacer({
  show: (m) => shown.push([clock, m]),
  showAll: (ms) => shown.push([clock, ...ms]),
  onQueue: (n) => counts.push(n),
  now: () => clock,
  later: (f, ms) => { timers.push([clock + ms, f]); return timers.length; },
  cancel: (t) => { timers[t - 1][1] = null; },
  pace: input.pace,
});
const run = (until) => {
  for (;;) {
    timers.sort((a, b) => a[0] - b[0]);
    const next = timers.find((t) => t[1] && t[0] <= until);
    if (!next) break;
    clock = next[0]; const f = next[1]; next[1] = null; f();
  }
  clock = until;
};
pacer.paced = input.paced;
for (const m of [1, 2, 3, 4]) pacer.push(m);
const waiting = pacer.count;
run(input.runFor);
const afterRun = pacer.count;
if (input.flush) pacer.flush();
const left = pacer.count;
process.stdout.write(JSON.stringify({ shown, waiting, afterRun, left, pace: PACE_MS }));
"""
)


def test_unpaced_moves_show_at_once():
    out = run_script(PACER, {"paced": False, "runFor": 0, "flush": False})
    assert out["shown"] == [[0, 1], [0, 2], [0, 3], [0, 4]]
    assert out["waiting"] == 0


def test_paced_moves_show_one_every_pace_and_fast_forward_shows_the_rest_at_once():
    out = run_script(PACER, {"paced": True, "runFor": 700, "flush": True})
    assert out["pace"] == 700
    assert out["waiting"] == 3  # the first at once, three waiting
    assert out["afterRun"] == 2  # 0.7 s later the second was shown
    assert out["shown"] == [[0, 1], [700, 2], [700, 3, 4]]  # then the skip: both at once
    assert out["left"] == 0


def test_a_slower_pace_given_to_the_pacer_spaces_the_moves_by_it():
    out = run_script(PACER, {"paced": True, "runFor": 4000, "flush": False, "pace": 2000})
    assert out["shown"] == [[0, 1], [2000, 2], [4000, 3]]
    assert out["afterRun"] == 1


def test_the_guide_follows_the_turn():
    offers = (["place", "leave"], ["attack", "end_campaign"], ["roll"], ["transfer", "end_turn"],
              ["mobilize"], ["arrange"])  # fmt: skip
    cases = [("guideStep", [[{"type": t} for t in types]]) for types in offers]
    assert [c["ok"] for c in call_each("viewer.js", ["guideStep"], cases)] == [
        "place", "attack", "attack", "end", "defend", None,
    ]  # fmt: skip


def test_answers_hints_and_options_in_words():
    ack = {"type": "ack", "version": 1229, "events": [{"type": "nothing_known", "armies": 3}]}
    stale = {"type": "error", "error": "stale_version", "version": 1230, "message": "stale"}
    cases = [
        ("actionResultText", [ack, None]),
        ("actionResultText", [{"type": "ack", "version": 5, "events": []}, None]),
        ("hintText", [{"type": "place", "territory": "Alaska", "armies": 3}]),
        (
            "hintText",
            [{"type": "attack", "target": "Peru", "mode": "normal", "flanks": [["Brazil", 1]]}],
        ),
        ("hintText", [{"type": "join_defence", "ships": [], "defence_dice": 2}]),
        (
            "hintText",
            [
                {
                    "type": "arrange",
                    "player": "zoe",
                    "arrangement": [["Egypt", 4], ["Iceland", 2]],
                    "factory": "Egypt",
                    "ship_station": "Atlantic:South Africa",
                }
            ],
        ),
        (
            "optionsText",
            [{"map": "classic", "map_version": 1, "win": "round-limit", "round_limit": 2}],
        ),
        (
            "optionsText",
            [{"win": "last-standing", "round_limit": None, "pirate_turns": None, "revision": 2}],
        ),
        ("pendingText", ["join_defence"]),
        ("phaseText", ["reinforce"]),
    ]
    names = ["actionResultText", "hintText", "optionsText", "pendingText", "phaseText"]
    out = [c["ok"] for c in call_each("text.js", names, cases)]
    assert out[0] == {"ok": True, "text": "Done: nothing known: armies 3."}
    assert out[1] == {"ok": True, "text": "Done."}
    assert out[2] == "Place 3 armies on Alaska."
    assert out[3] == "Attack Peru from Brazil with 1 army."
    assert out[4] == "Join defence (defence dice 2)."
    assert out[5] == (
        "Put your factory on Egypt and your ship off South Africa (Atlantic Ocean); "
        "armies: 4 on Egypt, 2 on Iceland."
    )
    assert out[6] == "classic map (edition 1); won by round limit; 2 rounds"
    # a game not won at a round limit says nothing of one (it printed "null rounds")
    assert out[7] == "won by last standing; a pirate is never out; rules revision 2"
    assert out[8:] == ["joining the defence", "placing armies"]
    texts = [o["text"] if isinstance(o, dict) else o for o in out]
    assert not any(SNAKE.search(t) or "version 12" in t for t in texts), texts
    # a stale move's answer in words, without the version it met
    errors = run_script(
        import_line("text.js", "actionResultText")
        + "process.stdout.write(JSON.stringify(actionResultText(input, () => 'x')));",
        stale,
    )
    assert errors == {
        "ok": False,
        "text": "The game moved on before your move arrived: check the board and send it again.",
    }
