"""The browser's dice check (``frontend/static/frontend/dice.js``) against the Python scheme.

dice.js redoes ``combat.dice.derive_roll`` and ``games.play.seeds.engine_seed`` with WebCrypto;
Node (which has the same WebCrypto) runs it here on values Python computes: it must derive the
same rolls, including dice whose sides do not divide 2**256 and rejection-sampled attempts, and
flag a tampered roll. Needs Node.js (``scripts/test.sh`` installs Debian's ``nodejs``).
"""

from __future__ import annotations

import json
import random

from combat.dice import SeededDice, commitment_of, derive_roll
from games.play.seeds import engine_seed
from tests.frontend.node import module_url, run_script


def run_in_node(runner: str, payload: object) -> object:
    return run_script(f"import * as D from {json.dumps(module_url('dice.js'))};\n{runner}", payload)


def read_stdin_then(body: str) -> str:
    return f"(async () => {{ {body} }})().catch((e) => {{ console.error(e); process.exit(1); }});"


def test_rolls_derive_as_in_python():
    rng = random.Random(17)
    cases = []
    for i in range(300):
        seed = rng.choice(["s", "ünïcode seed ✓", f"{rng.getrandbits(256):064x}"])
        context = rng.choice(["action:0", f"action:{i}", "battle:7|client", ""])
        sides = rng.choice([2, 3, 6, 7, 10, 42, 1000003])
        counter = rng.randrange(0, 50)
        cases.append([seed, context, counter, sides, derive_roll(seed, context, counter, sides)])
    runner = read_stdin_then(
        "const out = [];"
        "for (const [seed, context, counter, sides] of input) {"
        "  const key = await D.hmacKey(seed);"
        "  out.push(await D.deriveRoll(key, context, counter, Number(sides)));"
        "}"
        "process.stdout.write(JSON.stringify(out));"
    )
    assert run_in_node(runner, cases) == [c[4] for c in cases]


def test_rejection_sampling_rerolls_like_python():
    """Real dice are almost never rejected (below 2**-250), so huge BigInt dice test the loop:
    with 2**255 + 1 sides about half the attempts are rejected, with 3 * 2**254 a quarter."""
    cases = []
    for sides in (2**255 + 1, 3 * 2**254, 2**256 - 1):
        for c in range(30):
            seed, context = f"seed{c % 3}", f"action:{c}"
            value = derive_roll(seed, context, c, sides)
            cases.append([seed, context, c, str(sides), str(value)])
    runner = read_stdin_then(
        "const out = [];"
        "for (const [seed, context, counter, sides] of input) {"
        "  const key = await D.hmacKey(seed);"
        "  out.push(String(await D.deriveRoll(key, context, counter, BigInt(sides))));"
        "}"
        "process.stdout.write(JSON.stringify(out));"
    )
    assert run_in_node(runner, cases) == [c[4] for c in cases]


def test_engine_seed_and_commitment_as_in_python():
    cases = [
        ["server", []],
        ["server", ["", ""]],
        ["server", ["", "bob's lucky socks", ""]],
        ["ab" * 32, ["x", "y|z", "ü"]],
    ]
    runner = read_stdin_then(
        "const out = [];"
        "for (const [server, clients] of input)"
        "  out.push([await D.engineSeed(server, clients), await D.sha256Hex(server)]);"
        "process.stdout.write(JSON.stringify(out));"
    )
    expected = [[engine_seed(s, c), commitment_of(s)] for s, c in cases]
    assert run_in_node(runner, cases) == expected


def replay_body(client_seeds: list[str]) -> dict:
    server = "f00d" * 16
    seed = engine_seed(server, client_seeds)
    entries = []
    for sequence in range(1, 6):
        dice = SeededDice(seed, f"action:{sequence - 1}")
        for _ in range(sequence % 4):
            dice.roll(6)
        dice.roll(sequence + 1)
        rolls = [r.as_dict() for r in dice.log]
        entries.append({"sequence": sequence, "context": dice.context, "rolls": rolls})
    return {
        "id": 9, "server_seed": server, "seed_commitment": commitment_of(server),
        "client_seeds": client_seeds, "entries": entries,
    }  # fmt: skip


VERIFY = read_stdin_then(
    "const r = await D.verifyReplay(input);"
    "process.stdout.write(JSON.stringify({ok: r.ok, commitmentOk: r.commitmentOk, bad: r.bad,"
    " rolls: r.rolls, entries: r.entries.map((e) => [e.sequence, e.ok, e.problems])}));"
)


def test_a_replay_checks_and_a_tampered_roll_is_flagged():
    body = replay_body(["", "bob's lucky socks", ""])
    result = run_in_node(VERIFY, body)
    assert result["ok"] and result["commitmentOk"] and result["bad"] == 0
    assert result["rolls"] == sum(len(e["rolls"]) for e in body["entries"])

    roll = body["entries"][2]["rolls"][1]
    roll["value"] = roll["value"] % roll["sides"] + 1  # another face of the same die
    tampered = run_in_node(VERIFY, body)
    assert not tampered["ok"] and tampered["bad"] == 1
    assert [e[1] for e in tampered["entries"]] == [True, True, False, True, True]


def test_a_wrong_commitment_a_wrong_context_and_a_malformed_roll_are_flagged():
    body = replay_body([])
    body["seed_commitment"] = "0" * 64
    body["entries"][0]["context"] = "action:7"
    body["entries"][1]["rolls"][0] = {"counter": 0, "sides": 1, "value": 1}
    result = run_in_node(VERIFY, body)
    assert not result["ok"] and not result["commitmentOk"]
    assert result["entries"][0][1] is False and "action:0" in result["entries"][0][2][0]
    assert result["entries"][1][1] is False and result["entries"][1][2] == ["roll 0 is malformed"]
    assert all(e[1] for e in result["entries"][2:])
