// Checking a finished game's dice in the browser, independently of the server's code.
//
// The scheme (combat/dice.py, games/play/seeds.py), redone here with WebCrypto:
//   engine seed = the server seed, or, when a player gave a client seed,
//                 hex(HMAC-SHA256(key = server seed, msg = client seeds joined by "|"))
//   roll `counter` of die `sides` in stream `context`:
//     attempt = 0; loop: x = HMAC-SHA256(key = engine seed, msg = `${context}:${counter}:${attempt}`)
//                        read big-endian; if x < 2^256 - (2^256 mod sides) return x mod sides + 1
//                        else attempt += 1
// Strings are UTF-8 (the seed is a text string: its UTF-8 bytes are the key). The commitment
// published at creation is hex(SHA-256(server seed)). Pure functions: no page access here, so
// Node runs them too (tests/frontend/test_dice_js.py).
const SPACE = 1n << 256n;
const encoder = new TextEncoder();

function subtle() {
  const c = globalThis.crypto;
  if (!c || !c.subtle) {
    throw new Error("WebCrypto is not available here (browsers offer it on https and localhost only)");
  }
  return c.subtle;
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(text) {
  return hex(await subtle().digest("SHA-256", encoder.encode(text)));
}

// An HMAC-SHA256 key from a text seed (its UTF-8 bytes).
export function hmacKey(seed) {
  return subtle().importKey("raw", encoder.encode(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmac(key, text) {
  return new Uint8Array(await subtle().sign("HMAC", key, encoder.encode(text)));
}

function bigEndian(bytes) {
  let x = 0n;
  for (const b of bytes) x = (x << 8n) | BigInt(b);
  return x;
}

export async function engineSeed(serverSeed, clientSeeds) {
  const seeds = clientSeeds || [];
  if (!seeds.some((s) => s)) return serverSeed;
  return hex(await hmac(await hmacKey(serverSeed), seeds.join("|")));
}

// Roll `counter` of the stream (key, context) on a die of `sides` (an integer >= 2; a BigInt
// die, as huge as you like, gives a BigInt).
export async function deriveRoll(key, context, counter, sides) {
  const big = typeof sides === "bigint";
  if (!(big ? sides >= 2n : Number.isSafeInteger(sides) && sides >= 2)) {
    throw new Error(`a die needs at least 2 sides, got ${sides}`);
  }
  const n = BigInt(sides);
  const limit = SPACE - (SPACE % n);
  for (let attempt = 0; ; attempt += 1) {
    const x = bigEndian(await hmac(key, `${context}:${counter}:${attempt}`));
    if (x < limit) return big ? (x % n) + 1n : Number(x % n) + 1;
  }
}

// One log entry: every roll re-derived. Returns {sequence, context, ok, rolls, problems}:
// rolls[i] = {counter, sides, value, derived, ok}; problems: what else is wrong, in words.
export async function checkEntry(key, entry) {
  const problems = [];
  const rolls = [];
  const sequence = entry && entry.sequence;
  const context = entry && entry.context;
  if (typeof context !== "string") problems.push("the entry has no dice context");
  else if (Number.isInteger(sequence) && context !== `action:${sequence - 1}`) {
    problems.push(`dice context is "${context}", entry ${sequence} rolls in "action:${sequence - 1}"`);
  }
  const logged = entry && Array.isArray(entry.rolls) ? entry.rolls : null;
  if (logged === null) problems.push("the entry has no list of rolls");
  for (const [i, roll] of (logged || []).entries()) {
    const { counter, sides, value } = roll || {};
    if (![counter, sides, value].every(Number.isInteger) || sides < 2) {
      problems.push(`roll ${i} is malformed`);
      rolls.push({ counter, sides, value, derived: null, ok: false });
      continue;
    }
    if (counter !== i) problems.push(`roll ${i} has counter ${counter}: rolls are numbered 0, 1, 2, ...`);
    const derived = typeof context === "string" ? await deriveRoll(key, context, counter, sides) : null;
    rolls.push({ counter, sides, value, derived, ok: derived === value });
  }
  const ok = problems.length === 0 && rolls.every((r) => r.ok);
  return { sequence, context, ok, rolls, problems };
}

// A GET /api/games/<id>/replay body: the commitment, the engine seed and every entry.
export async function verifyReplay(body) {
  if (!body || typeof body.server_seed !== "string" || !Array.isArray(body.entries)) {
    throw new Error("not a replay: it needs server_seed, client_seeds and entries");
  }
  const commitment = await sha256Hex(body.server_seed);
  const published = String(body.seed_commitment || "").toLowerCase();
  const seed = await engineSeed(body.server_seed, body.client_seeds || []);
  const key = await hmacKey(seed);
  const entries = [];
  for (const entry of body.entries) entries.push(await checkEntry(key, entry));
  const commitmentOk = commitment === published;
  return {
    game: body.id === undefined ? null : body.id,
    commitment, published, commitmentOk, engineSeed: seed, entries,
    rolls: entries.reduce((n, e) => n + e.rolls.length, 0),
    bad: entries.filter((e) => !e.ok).length,
    ok: commitmentOk && entries.every((e) => e.ok),
  };
}
