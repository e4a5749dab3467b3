// The game's English: every event as a sentence (the game page's event log and the replay
// viewer), the socket's notices and action answers, and the countdown to a deadline. Pure (no
// page access): Node imports it in tests/frontend/test_game_js_events.py. The sentences are plain
// strings; the pages put them in with textContent.

const list = (v) => (Array.isArray(v) ? v.join(", ") : String(v));
const plural = (n, word, many) => `${n} ${n === 1 ? word : many || `${word}s`}`;
const armiesText = (n) => plural(n, "army", "armies");
const placedText = (placed) => Object.entries(placed || {}).map(([t, n]) => `${n} on ${t}`).join(", ");
const flankText = (flanks) => (flanks || []).map(([from, n]) => `${from} (${n})`).join(" and ");
export const EVENT_TEXT = {
  turn_started: (e) => `Turn ${e.turn_number}, round ${e.round}: ${e.seat}${e.controller && e.controller !== e.seat ? ` (played by ${e.controller})` : ""} gets ${e.from_pot ? `+ ${e.reinforcements} from the pot` : `${e.reinforcements} reinforcements`}${e.factory_armies ? `, + ${e.factory_armies} at factories` : ""}`,
  arranged: (e) => `${e.seat} arranges their armies, factory in ${e.factory}${e.ship_station ? `, ship at ${e.ship_station}` : ""}`,
  turned_in: (e) => `${e.seat} turns in ${list(e.cards)} for ${e.reward}${e.rolls && e.rolls.length ? ` (rolls ${list(e.rolls)})` : ""}${Object.keys(e.territory_bonus || {}).length ? `; bonus ${placedText(e.territory_bonus)}` : ""}`,
  placed: (e) => `${e.seat} places ${e.armies} on ${e.territory}`,
  ship_launched: (e) => `${e.seat} launches ship ${e.ship} at ${e.station} with ${armiesText(e.armies)}`,
  attack: (e) => `${e.attacker} attacks ${e.target} (${e.defender}) from ${flankText(e.flanks)}${e.mode !== "normal" ? `, ${e.mode}` : ""}`,
  naval_attack: (e) => `${e.attacker} attacks ${e.defender}'s ship ${e.target} with ${flankText(e.ships)}${e.mode !== "normal" ? `, ${e.mode}` : ""}`,
  defence_joined: (e) => `${e.defender} joins the defence with ${e.ships && e.ships.length ? `ship ${list(e.ships)}` : "no ships"}`,
  cut: (e) => `${e.seat} cuts ${e.card ? e.card : "no card"}${e.armies ? `: ${armiesText(e.armies)} placed there` : ", nothing placed"}`,
  mobilized: (e) => `${e.seat} mobilizes${e.revealed && e.revealed.length ? `, revealing ${list(e.revealed)}` : ""}${Object.keys(e.placed || {}).length ? `: ${placedText(e.placed)}` : ""}`,
  revealed: (e) => `${e.seat} reveals ${list(e.cards)}${Object.keys(e.placed || {}).length ? `: ${placedText(e.placed)}` : ""}`,
  roll: (e) => `Dice${e.flank ? ` on flank ${e.flank + 1}` : ""}: attacker ${list(e.attacker)} against defender ${list(e.defender)}; attacker loses ${e.attacker_losses}, defender loses ${e.defender_losses}${e.captured ? `, ${e.captured} captured` : ""}`,
  commandeered: (e) => `${e.by} commandeers ship ${e.ship} (${armiesText(e.armies)} aboard)`,
  battle_won: (e) => `The battle for ${e.target} is won${e.prizes && e.prizes.length ? `; prizes ${list(e.prizes)}` : ""}`,
  battle_lost: (e) => `The attack on ${e.target} fails`,
  retreat: (e) => `The attacker retreats from ${e.target}`,
  conquered: (e) => `${e.by} conquers ${e.territory} from ${e.from} and moves in ${e.armies}`,
  ship_captured: (e) => `Ship ${e.ship} is captured by ${e.by} with ${armiesText(e.armies)}`,
  ship_sunk: (e) => `${e.owner}'s ship ${e.ship} sinks${e.armies ? ` with ${armiesText(e.armies)} aboard` : ""}`,
  battle_over: (e) => `The battle is over: ${e.success ? "the attacker succeeded" : "the attacker failed"}`,
  eliminated: (e) => `${e.seat} is eliminated${e.by ? ` by ${e.by}` : ""}`,
  stranded: (e) => `${e.seat} is stranded at sea`,
  landless: (e) => `${e.seat} began ${plural(e.turns, "turn")} in a row without a territory: ${e.out ? "out" : "the game is a stalemate"}`,
  battle_called_off: (e) => `The battle for ${e.target} is called off: the game is over`,
  poker_called_off: (e) => `The poker hand of ${list(e.seats)} is called off: the game is over`,
  cards_drawn: (e) => `${e.seat} draws ${plural(e.risk, "Risk card")} and ${plural(e.poker, "poker card")}${Array.isArray(e.cards) && e.cards.length ? `: ${e.cards.join(", ")}` : ""}`,
  cruise: (e) => `Ship ${e.ship} starts a cruise: ${plural(e.moves, "move")} (rolls ${list(e.rolls)})`,
  sailed: (e) => `Ship ${e.ship} sails ${e.distance} to ${e.station} (${plural(e.moves, "move")} left)`,
  embarked: (e) => `${armiesText(e.armies)} embark on ship ${e.ship} from ${e.territory}`,
  disembarked: (e) => `${armiesText(e.armies)} land from ship ${e.ship} on ${e.territory}`,
  cruise_ended: (e) => `Ship ${e.ship} ends its cruise`,
  campaign_ended: (e) => `${e.seat} ends the campaign`,
  factory_built: (e) => `${e.seat} builds a factory in ${e.territory}`,
  transferred: (e) => `${e.seat} moves ${e.armies} from ${e.source} to ${e.destination}`,
  discarded: (e) => `${e.seat} discards ${plural(e.count, "poker card")}`,
  turn_ended: (e) => `${e.seat} ends the turn`,
  ally_declared: (e) => `${e.seat} declares ${e.ally} an ally`,
  challenge: (e) => `${e.seat} ${e.contest ? "challenges" : "does not challenge"}`,
  cannot_answer: (e) => `${e.seat} cannot answer the challenge`,
  demurred: (e) => `${e.seat} demurs`,
  no_poker: (e) => `No poker: ${e.reason}`,
  poker_settled: (e) => `Poker settled: the declarer ${e.declarer_won ? "wins" : "loses"}${e.in_suit ? " in suit" : ""}`,
  poker_cards_seized: (e) => `${e.seat} seizes ${plural(e.count, "poker card")} from ${e.from}`,
  ally_played: (e) => `${e.by} plays ${e.seat}'s turn`,
  joined: (e) => `${e.player} takes over ${e.seat}`,
  left: (e) => `${e.player} leaves ${e.seat}`,
  conceded: (e) => `${e.player} concedes ${e.seat}`,
  draw_vote: (e) => `${e.seat} votes ${e.agree ? "for" : "against"} a draw`,
  preferences: (e) => `${e.seat} defends with ${e.defence_dice} dice, reveals cards: ${e.reveal}`,
  game_over: (e) => `Game over (${e.how}): ${e.winner ? `${e.winner} wins` : "no winner"}; ranking ${list(e.ranking || [])}`,
  // the poker hand of an ally contest
  start: (e) => `Poker hand starts: ${list(e.players)}`,
  phase: (e) => `Poker: ${e.phase}`,
  dealt: (e) => `${e.player} is dealt ${plural(e.count, "card")}${e.cards ? `: ${list(e.cards)}` : ""}`,
  chose: (e) => `${e.player} chooses ${plural(e.count, "card")}${e.cards ? `: ${list(e.cards)}` : ""}`,
  draw: (e) => `${e.player} discards ${e.discarded} and draws ${e.from_stash + e.from_deck}`,
  ante: (e) => `${e.player} antes ${e.amount}${e.all_in ? " (all in)" : ""}`,
  bet: (e) => `${e.player} bets ${e.amount}${e.all_in ? " (all in)" : ""}`,
  raise: (e) => `${e.player} raises by ${e.amount}${e.all_in ? " (all in)" : ""}`,
  call: (e) => `${e.player} calls ${e.amount}${e.all_in ? " (all in)" : ""}`,
  check: (e) => `${e.player} checks`,
  fold: (e) => `${e.player} folds`,
  muck: (e) => `${e.player} mucks`,
  show: (e) => `${e.player} shows ${list(e.cards)}: ${e.describe}`,
  pot: (e) => `Pot of ${e.amount} to ${list(e.winners)}`,
  hand_over: (e) => `Poker hand over: ${list(e.winners)} win${e.winners && e.winners.length === 1 ? "s" : ""}`,
};

export function eventText(event) {
  const format = EVENT_TEXT[event && event.type];
  if (format) {
    try {
      const text = format(event);
      if (!/\b(undefined|null|NaN|true|false)\b|\[object/.test(text)) return text;
    } catch { /* fall through to the plain fields */ }
  }
  if (!event || typeof event !== "object") return String(event);
  const fields = Object.entries(event).filter(([k]) => k !== "type" && k !== "private_to" && k !== "hand")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${v !== null && typeof v === "object" ? JSON.stringify(v) : v}`);
  return `${String(event.type).replace(/_/g, " ")}${fields.length ? `: ${fields.join(", ")}` : ""}`;
}

// "3m 07s left" to an ISO deadline ("overdue" once past; "" for a date that does not parse).
export function remaining(iso, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return "";
  if (ms <= 0) return "overdue";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  if (d > 0) return `${d}d ${h}h left`;
  if (h > 0) return `${h}h ${pad(m)}m left`;
  return `${m}m ${pad(s % 60)}s left`;
}

// A socket "notice" (a reminder, the game paused or resumed by an administrator) as a sentence.
export function noticeText(message) {
  if (message.kind === "reminder") {
    return `Reminder: your decision is due ${new Date(message.due_at).toLocaleString()} (${remaining(message.due_at)}).`;
  }
  if (message.kind === "paused") return "The game is paused by an administrator: the clocks are stopped.";
  if (message.kind === "resumed") return "The game has resumed.";
  return message.message || JSON.stringify(message);
}

// The answer to one of our actions: an "ack" ({ok: true}) or an "error" ({ok: false}), in words.
export function actionResultText(message, errorText) {
  if (message.type === "ack") {
    const n = message.events.length;
    return { ok: true, text: `Applied: now version ${message.version}, ${n} event${n === 1 ? "" : "s"}.` };
  }
  let text = errorText(message, message.status);
  if (message.error === "stale_version") text += ` — the game moved on (version ${message.version}); check the board and send again.`;
  if (message.error === "not_authenticated") text += " — sign in to play.";
  return { ok: false, text };
}
