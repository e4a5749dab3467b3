// Cards, the poker table and allied armies on the game page: forms for turn_in, poker, discard,
// challenge, answer, end_turn (declaring an ally) and join (taking over an allied army), and the
// viewer's hands and the ally contest drawn from the view. cardForms is one of the form sets
// forms.js looks up by action type (see formContext() there); renderCards draws on each render.
// Everything is inserted as text (textContent via el), never as markup, and only what the
// viewer's view already holds is shown: a spectator's view has no hand, so no card appears.
// --- pure: texts and actions from a spec and the player's choices (Node imports them in the tests)
import { api, el } from "./common.js";


const RANK_NAMES = { 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const SUIT_SIGNS = { c: "♣", d: "♦", h: "♥", s: "♠" };

// "Qh" -> "queen of hearts" (poker cards are rank then suit, combat/poker/cards.py).
export function pokerCardName(card) {
  const rank = RANK_NAMES[card[0]], suit = SUIT_NAMES[card[1]];
  return rank && suit ? `${rank} of ${suit}` : String(card);
}

// "Qh" -> "Q♥", "Td" -> "10♦": the face a card shows.
export function pokerCardFace(card) {
  const sign = SUIT_SIGNS[card[1]];
  return sign ? `${card[0] === "T" ? "10" : card[0]}${sign}` : String(card);
}

const isRedQueen = (card) => card === "Qh" || card === "Qd";

// Rule text "Red queens are always high"; design.md section 5 reads it as a rank of its own
// above the ace that pairs only with the other red queen and never makes a straight. The game
// option red_queens_high=false plays them as ordinary queens.
export function redQueenSentence(high) {
  return high
    ? "Red queens (queen of hearts, queen of diamonds) are high: they rank above the ace, pair only with each other and never make a straight."
    : "Red queens are ordinary queens in this game (the red-queens-high option is off).";
}

// Rule text "Card Turn-in": each reward, and the territory bonus that comes with any of them.
const REWARD_TEXT = {
  armies: "Armies: two dice rolled, to place now.",
  factory: "A factory, to place on one of your territories at the end of the turn.",
  ship: "A ship with one die roll of armies aboard, placed by one of your coasts.",
};
const TERRITORY_BONUS_TEXT = "Whatever the reward, each card in the set showing a territory you hold puts 2 armies on it.";

// The cards of the hand that belong to at least one set the spec offers (to highlight them).
export function cardsInSets(sets) {
  return [...new Set((sets || []).flat())].sort();
}

const sameCards = (a, b) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);
const distinct = (xs) => new Set(xs).size === xs.length;
const within = (xs, pool) => xs.every((x) => pool.includes(x));
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const armies = (n) => (n === 1 ? "1 army" : `${n} armies`);

// choice: turn_in {cards, reward}; poker {move, cards, from_stash}; discard {cards};
// challenge {contest}; answer {demur}; end_turn {ally}; join {ally}.
// Returns {action} or {error} (a sentence saying what to change).
export function buildCards(spec, c) {
  const o = (spec && spec.options) || {};
  c = c || {};
  const cards = Array.isArray(c.cards) ? c.cards : [];
  switch (spec && spec.type) {
    case "turn_in": {
      const set = (o.sets || []).find((s) => sameCards(s, cards));
      if (!set) return { error: cards.length === 3 ? "Those three cards are not a set you can turn in." : "Pick three cards that make a set." };
      if (!(o.rewards || []).includes(c.reward)) return { error: `Choose a reward: ${(o.rewards || []).join(", ")}.` };
      return { action: { type: "turn_in", cards: [...set], reward: c.reward } };
    }
    case "poker": return buildPoker(o, c, cards);
    case "discard": {
      const count = o.count || 0;
      if (!distinct(cards) || !within(cards, o.cards || [])) return { error: "Pick cards from your poker hand." };
      if (cards.length !== count) return { error: `Pick exactly ${plural(count, "poker card")} to discard (${cards.length} picked).` };
      return { action: { type: "discard", cards: [...cards] } };
    }
    case "challenge": {
      if (typeof c.contest !== "boolean" || !(o.contest || []).includes(c.contest)) return { error: "Choose whether to contest the declaration." };
      return { action: { type: "challenge", contest: c.contest } };
    }
    case "answer": {
      if (typeof c.demur !== "boolean") return { error: "Choose whether to play the poker hand or demur." };
      return { action: { type: "answer", demur: c.demur } };
    }
    case "end_turn": {
      if (!c.ally) return { action: { type: "end_turn" } };
      if (!(o.allies || []).includes(c.ally)) return { error: `${c.ally} cannot be declared an ally now.` };
      return { action: { type: "end_turn", ally: c.ally } };
    }
    case "join": {
      if (!(o.allies || []).includes(c.ally)) return { error: "Pick an allied army to take over." };
      return { action: { type: "join", ally: c.ally } };
    }
    default:
      return { error: `No form here for ${spec && spec.type}.` };
  }
}

// engine.poker_spec: choose 1-5 stash cards within min..max; draw: discard any cards of the
// hand, each replaced from the stash (at most as many as discarded) or the deck (which must
// hold the rest), keeping a stash card in the hand when keep_one says so; every other move
// is one army at most and carries no cards.
function buildPoker(o, c, cards) {
  const moves = o.moves || [];
  if (!moves.includes(c.move)) return { error: `Choose a move: ${moves.join(", ")}.` };
  if (c.move === "choose") {
    const ch = o.choose || {};
    const stash = ch.stash || [];
    if (!distinct(cards) || !within(cards, stash)) return { error: "Pick cards from your stash." };
    if (cards.length < ch.min || cards.length > ch.max) {
      return { error: ch.min === ch.max ? `Pick exactly ${plural(ch.min, "card")} from your stash.` : `Pick ${ch.min} to ${ch.max} cards from your stash (${cards.length} picked).` };
    }
    return { action: { type: "poker", move: "choose", cards: [...cards] } };
  }
  if (c.move === "draw") {
    const d = o.draw || {};
    const fromStash = Array.isArray(c.from_stash) ? c.from_stash : [];
    if (!distinct(cards) || !within(cards, d.hand || [])) return { error: "Pick the cards to discard from your hand." };
    if (!distinct(fromStash) || !within(fromStash, d.stash || [])) return { error: "Pick replacements from your stash." };
    if (fromStash.length > cards.length) return { error: `You discard ${plural(cards.length, "card")}: take at most that many from your stash.` };
    // engine.poker_spec keep_one (RULES.md A12): a stash card stays in the hand.
    const keep = d.keep_one ? d.keep || [] : [];
    if (keep.length && !fromStash.length && keep.every((k) => cards.includes(k))) {
      return { error: `Keep one of your stash cards (${keep.join(", ")}) in your hand, or take a replacement from your stash.` };
    }
    const fromDeck = cards.length - fromStash.length;
    if (fromDeck > (d.deck || 0)) return { error: `The deck holds ${plural(d.deck || 0, "card")}: take more replacements from your stash or discard fewer.` };
    return { action: { type: "poker", move: "draw", cards: [...cards], from_stash: [...fromStash] } };
  }
  return { action: { type: "poker", move: c.move } };
}

// What each betting move costs now, in armies (engine: bets and raises are one army each).
export function moveText(move, owed) {
  switch (move) {
    case "check": return "Check (put in nothing)";
    case "call": return `Call (put in ${armies(owed)})`;
    case "bet": return "Bet 1 army";
    case "raise": return `Raise (put in ${armies(owed + 1)}: call ${owed}, raise 1)`;
    case "fold": return "Fold (give up what you put in)";
    case "show": return "Show your hand";
    case "muck": return "Muck (give up without showing)";
    case "choose": return "Choose your cards";
    case "draw": return "Draw";
    default: return move;
  }
}

// The declaration in words (views.py _contest_view): who declared whom, who contests, and where
// the poker hand stands, from the view only.
export function contestSentences(contest) {
  if (!contest) return [];
  const lines = [`${contest.declarer} declared the allied army ${contest.ally}.`];
  const answers = Object.entries(contest.answers || {});
  const contesting = answers.filter(([, yes]) => yes).map(([s]) => s);
  const passing = answers.filter(([, yes]) => !yes).map(([s]) => s);
  if (contest.stage === "asking") {
    lines.push("The other players holding a poker card are asked whether they contest it.");
  } else if (contest.stage === "answer") {
    lines.push(`${contest.declarer} is challenged: they play a poker hand for the ally, or demur and give it up.`);
  } else if (contest.stage === "poker") {
    lines.push("A poker hand decides it: the declarer plays the ally on a win with a card of the ally's suit.");
  }
  if (contesting.length) lines.push(`Contesting: ${contesting.join(", ")}.`);
  if (passing.length) lines.push(`Letting it pass: ${passing.join(", ")}.`);
  const hand = contest.hand;
  if (hand) {
    const phase = { choose: "choosing cards from the stashes", bet1: "the first betting round", draw: "the draw",
      bet2: "the second betting round", showdown: "the showdown", done: "over" }[hand.phase] || hand.phase;
    lines.push(`Poker: ${phase}; ${armies(hand.on_table)} on the table${hand.live_bet ? `, live bet ${hand.live_bet}` : ""}.`);
    if ((hand.to_act || []).length) lines.push(`Waiting for ${hand.to_act.join(", ")}.`);
  }
  return lines;
}
// --- the page ----------------------------------------------------------------------------------

let symbols = null; // territory -> card symbol (Infantry, Cavalry, Artillery), from the game's /board/<map>/<version>.json
let lastView = null;

async function loadSymbols() {
  const host = document.getElementById("board");
  if (!host || symbols !== null || !host.dataset.shapesUrl) return; // game.js sets it with the game
  symbols = {};
  const res = await api("GET", host.dataset.shapesUrl);
  if (res.ok && res.data && res.data.cards) symbols = res.data.cards;
  if (lastView) renderHands(lastView);
}

// A Risk card: its territory and symbol (a wild shows all three symbols).
function riskCard(name, extraClass) {
  const wild = name === "wild";
  const symbol = wild ? "Wild: any symbol" : (symbols && symbols[name]) || "";
  return el("span", { className: `card risk-card${extraClass ? ` ${extraClass}` : ""}`, dataset: { card: name } },
    el("span", { className: "card-title" }, wild ? "Wild" : name), el("span", { className: "card-symbol" }, symbol));
}

function pokerCard(card, extraClass) {
  const red = card[1] === "h" || card[1] === "d";
  const node = el("span", { className: `card poker-card${red ? " red" : ""}${isRedQueen(card) ? " red-queen" : ""}${extraClass ? ` ${extraClass}` : ""}`,
    title: pokerCardName(card), dataset: { card } }, pokerCardFace(card));
  node.setAttribute("aria-label", pokerCardName(card));
  return node;
}

const row = (label, nodes) => el("div", { className: "card-row", role: "group", "aria-label": label }, ...nodes);

// A multi-choice of cards: each a checkbox (data-field, value) inside a label drawn as the card,
// so clicking the card picks it and Tab/Space reach it from the keyboard.
function cardBoxes(label, cards, picked, field, face, onToggle, classOf) {
  return el("div", { className: "card-pick", role: "group", "aria-label": label }, ...cards.map((card) => {
    const box = el("input", { type: "checkbox", checked: picked.includes(card), value: card, dataset: { field } });
    box.addEventListener("change", () => onToggle(card, box.checked));
    const cls = classOf ? classOf(card) : "";
    return el("label", { className: `card-choice${cls ? ` ${cls}` : ""}${picked.includes(card) ? " picked" : ""}` }, box, face(card));
  }));
}

function radios(label, field, options, value, onPick) {
  const name = `cards-${field}-${Math.random().toString(36).slice(2, 8)}`;
  return el("fieldset", { className: "radio-group" }, el("legend", {}, label), ...options.map(([v, text, note]) => {
    const input = el("input", { type: "radio", name, value: String(v), checked: v === value, dataset: { field } });
    input.addEventListener("change", () => { if (input.checked) onPick(v); });
    return el("label", {}, input, text, note ? el("span", { className: "muted" }, ` — ${note}`) : null);
  }));
}

const toggle = (list, card, on) => (on ? [...list.filter((x) => x !== card), card] : list.filter((x) => x !== card));

function seatOf(view, id) {
  return ((view && view.seats) || []).find((s) => s.id === id) || null;
}

function myPokerSeat(view) {
  const hand = view && view.contest && view.contest.hand;
  return hand ? (hand.players || []).find((p) => p.player === view.you) || null : null;
}

// --- the forms ------------------------------------------------------------------------------

export const cardForms = {};
const forms = cardForms;

forms.turn_in = {
  defaultChoice: (spec) => ({ cards: [], reward: ((spec.options || {}).rewards || [])[0] }),
  build: buildCards,
  form(spec, ctx) {
    const o = spec.options || {};
    const { choice, view } = ctx;
    const holder = seatOf(view, view.turn ? view.turn.seat : view.you);
    const hand = (holder && holder.risk_hand) || [];
    const inSets = cardsInSets(o.sets);
    const parts = [el("p", { className: "muted" }, "Click three cards that make a set (highlighted cards belong to a set you can turn in).")];
    parts.push(cardBoxes("Your Risk cards", hand, choice.cards, "cards", riskCard, (card, on) => {
      choice.cards = toggle(choice.cards, card, on); ctx.renderForm();
    }, (card) => (inSets.includes(card) ? "in-set" : "")));
    parts.push(el("p", {}, `Sets you can turn in: ${(o.sets || []).map((s) => s.join(" + ")).join("; ")}.`));
    parts.push(radios("Reward", "reward", (o.rewards || []).map((r) => [r, r, REWARD_TEXT[r]]), choice.reward, (r) => { choice.reward = r; }));
    if (!(o.rewards || []).includes("ship")) parts.push(el("p", { className: "muted" }, "No ship: none of your territories has a coast (rule R6)."));
    parts.push(el("p", { className: "muted" }, TERRITORY_BONUS_TEXT), ctx.commit("Turn in"));
    return parts;
  },
};

forms.discard = {
  defaultChoice: () => ({ cards: [] }),
  build: buildCards,
  form(spec, ctx) {
    const o = spec.options || {};
    return [
      el("p", {}, `You hold more than five poker cards: discard ${plural(o.count, "card")} before the turn ends (rule E2).`),
      cardBoxes("Your poker cards", o.cards || [], ctx.choice.cards, "cards", (c) => pokerCard(c), (card, on) => {
        ctx.choice.cards = toggle(ctx.choice.cards, card, on); ctx.renderForm();
      }),
      ctx.commit("Discard"),
    ];
  },
};

forms.challenge = {
  defaultChoice: () => ({ contest: true }),
  build: buildCards,
  form(spec, ctx) {
    const contest = ctx.view.contest || {};
    return [
      el("p", {}, `${contest.declarer} wants to play the allied army ${contest.ally} next. You hold a poker card, so you may contest it: then ${contest.declarer} plays a poker hand against every challenger, or demurs and gives the ally up.`),
      radios("Your answer", "contest", [[true, "Contest it", "a poker hand, your betting pot at stake"], [false, "Let it pass", null]],
        ctx.choice.contest, (v) => { ctx.choice.contest = v; }),
      ctx.commit("Answer the declaration"),
    ];
  },
};

forms.answer = {
  defaultChoice: () => ({ demur: false }),
  build: buildCards,
  form(spec, ctx) {
    const contest = ctx.view.contest || {};
    const against = Object.entries(contest.answers || {}).filter(([, yes]) => yes).map(([s]) => s);
    return [
      el("p", {}, `${against.join(", ") || "Someone"} contested your declaration of ${contest.ally}. Play a poker hand for it (you ante 1 army of your betting pot and must win holding a card of ${contest.ally}'s suit), or demur and end your turn.`),
      radios("Your answer", "demur", [[false, "Play the poker hand", null], [true, "Demur", "give the ally up"]],
        ctx.choice.demur, (v) => { ctx.choice.demur = v; }),
      ctx.commit("Answer"),
    ];
  },
};

forms.end_turn = {
  defaultChoice: () => ({ ally: null }),
  build: buildCards,
  form(spec, ctx) {
    const o = spec.options || {};
    const parts = [];
    if ((o.allies || []).length) {
      const select = el("select", { dataset: { field: "ally" } }, el("option", { value: "" }, "no ally: the next player plays"),
        ...o.allies.map((a) => {
          const seat = seatOf(ctx.view, a);
          const suits = seat && seat.suits && seat.suits.length ? ` (suits ${seat.suits.map((s) => SUIT_NAMES[s] || s).join(", ")})` : "";
          return el("option", { value: a, selected: a === ctx.choice.ally }, `${a}${suits}`);
        }));
      select.addEventListener("change", () => { ctx.choice.ally = select.value || null; ctx.renderForm(); });
      parts.push(el("label", {}, "Declare an allied army to play next", select));
      parts.push(el("p", { className: "muted" }, ctx.choice.ally
        ? `Declaring ${ctx.choice.ally}: the other players holding a poker card may contest it. If nobody does, you play its turn now. If someone does, you play a poker hand against them (or demur), and you play ${ctx.choice.ally} only if you win holding a card of its suit.`
        : "Without a declaration the turn passes to the next player."));
    }
    parts.push(ctx.commit("End the turn"));
    return parts;
  },
};

forms.join = {
  defaultChoice: (spec) => ({ ally: ((spec.options || {}).allies || [])[0] || null }),
  build: buildCards,
  form(spec, ctx) {
    const o = spec.options || {};
    const select = el("select", { dataset: { field: "ally" } }, ...(o.allies || []).map((a) => el("option", { value: a, selected: a === ctx.choice.ally }, a)));
    select.addEventListener("change", () => { ctx.choice.ally = select.value || null; });
    return [
      el("p", {}, "Take over an allied army: it becomes yours for the rest of the game, with its territories, ships and cards. You draw two Risk cards and one poker card at once (during a poker hand the poker card comes when the hand is over), and the allies' suits are dealt again."),
      el("label", {}, "Allied army", select),
      ctx.commit("Join the game"),
    ];
  },
};

forms.poker = {
  defaultChoice(spec) {
    const moves = (spec.options || {}).moves || [];
    return { move: moves.includes("check") ? "check" : moves[0], cards: [], from_stash: [] };
  },
  build: buildCards,
  form(spec, ctx) {
    const o = spec.options || {};
    const { choice, view } = ctx;
    const hand = (view.contest && view.contest.hand) || {};
    const me = myPokerSeat(view) || {};
    const parts = [el("p", { className: "muted" }, redQueenSentence(hand.red_queens_high !== false))];
    parts.push(el("p", {}, `Your betting pot: ${armies(me.pot ?? o.pot ?? 0)} left, ${armies(me.staked || 0)} in this hand. On the table: ${armies(hand.on_table || 0)}.`));
    const moves = o.moves || [];
    if (moves.includes("choose")) {
      const ch = o.choose || {};
      parts.push(el("p", {}, `Choose ${ch.min === ch.max ? ch.min : `${ch.min} to ${ch.max}`} of your stash cards for your hand; the dealer deals the rest of the five from the deck.`));
      parts.push(cardBoxes("Your stash", ch.stash || [], choice.cards, "cards", (c) => pokerCard(c), (card, on) => {
        choice.cards = toggle(choice.cards, card, on); ctx.renderForm();
      }));
      choice.move = "choose";
      parts.push(ctx.commit("Choose these cards"));
      return parts;
    }
    if (moves.includes("draw")) {
      const d = o.draw || {};
      choice.move = "draw";
      parts.push(el("p", {}, "Pick the cards to discard; each is replaced from your stash (pick them below) or else from the deck."));
      if (d.keep_one && (d.keep || []).length) parts.push(el("p", { className: "muted" }, `At least one stash card stays in your hand: keep one of ${d.keep.join(", ")}, or take a replacement from your stash.`));
      parts.push(cardBoxes("Your hand: discard", d.hand || [], choice.cards, "cards", (c) => pokerCard(c), (card, on) => {
        choice.cards = toggle(choice.cards, card, on); ctx.renderForm();
      }));
      if ((d.stash || []).length) {
        parts.push(el("p", {}, "Replacements from your stash:"));
        parts.push(cardBoxes("Your stash: replacements", d.stash, choice.from_stash, "from_stash", (c) => pokerCard(c), (card, on) => {
          choice.from_stash = toggle(choice.from_stash, card, on); ctx.renderForm();
        }));
      }
      const fromDeck = Math.max(0, choice.cards.length - choice.from_stash.length);
      parts.push(el("p", { className: "muted" }, `Discarding ${plural(choice.cards.length, "card")}: ${choice.from_stash.length} from your stash, ${fromDeck} from the deck (${d.deck} left).`));
      parts.push(ctx.commit(choice.cards.length ? "Draw" : "Stand pat (keep all five)"));
      return parts;
    }
    if (me.hand) parts.push(row("Your hand", me.hand.map((c) => pokerCard(c))));
    const owed = Math.max(0, (hand.live_bet || 0) - (me.round_bet || 0));
    if (hand.live_bet) parts.push(el("p", {}, `Live bet: ${hand.live_bet}; you have put in ${me.round_bet || 0} this round, so a call costs ${owed}.`));
    parts.push(radios("Your move", "move", moves.map((m) => [m, moveText(m, owed), null]), choice.move, (m) => { choice.move = m; }));
    parts.push(ctx.commit("Play"));
    return parts;
  },
};

// --- the hands and the contest, drawn from each render's view -------------------------------

function renderHands(view) {
  const box = document.getElementById("hands");
  if (!box) return;
  const parts = [];
  for (const s of (view && view.seats) || []) {
    if (!s.risk_hand && !s.poker_hand) continue;
    const mine = s.id === view.you;
    parts.push(el("h3", {}, mine ? "Your hands" : `${s.id}'s Risk cards (you play its turn)`));
    if (s.risk_hand) {
      parts.push(el("h4", {}, "Risk cards"), s.risk_hand.length ? row(`${s.id}'s Risk cards`, s.risk_hand.map((c) => riskCard(c))) : el("p", { className: "muted" }, "none"));
    }
    if (s.poker_hand) {
      parts.push(el("h4", {}, "Poker cards (stash)"), s.poker_hand.length ? row(`${s.id}'s poker cards`, s.poker_hand.map((c) => pokerCard(c))) : el("p", { className: "muted" }, "none"));
    }
  }
  box.replaceChildren(...parts);
}

function renderContest(view) {
  const contest = view && view.contest;
  const line = document.getElementById("contest-line");
  const table = document.getElementById("contest-table");
  if (!line || !table) return;
  if (!contest) { line.replaceChildren(); table.replaceChildren(); return; }
  line.replaceChildren(...contestSentences(contest).map((s) => el("span", { className: "sentence" }, s, " ")));
  const hand = contest.hand;
  if (!hand) { table.replaceChildren(); return; }
  const rows = (hand.players || []).map((p) => {
    let cards;
    if (p.hand) cards = row(`${p.player}'s hand`, p.hand.map((c) => pokerCard(c)));
    else if (p.shown) cards = row(`${p.player}'s shown hand`, p.shown.map((c) => pokerCard(c, "shown")));
    else cards = `${plural(p.hand_size, "card")} face down`;
    return el("tr", { className: p.player === view.you ? "mine" : "", dataset: { player: p.player } },
      el("th", { scope: "row" }, p.player), el("td", {}, p.status), el("td", { className: "num" }, p.pot),
      el("td", { className: "num" }, p.staked), el("td", { className: "num" }, p.round_bet),
      el("td", {}, cards), el("td", { className: "num" }, p.stash_size), el("td", { className: "num" }, p.discarded));
  });
  table.replaceChildren(
    el("p", { className: "muted" }, redQueenSentence(hand.red_queens_high !== false)),
    el("table", { className: "poker-table" },
      el("caption", {}, `Poker table — pot ${hand.on_table}, deck ${hand.deck_size}`),
      el("thead", {}, el("tr", {}, ...["Player", "Status", "Betting pot", "In the pot", "Bet this round", "Cards", "Stash", "Discarded"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...rows)));
}

// The viewer's hands and the ally contest, drawn on each render of the game page (game.js).
export function renderCards(view) {
  lastView = view;
  renderHands(view);
  renderContest(view);
  if (view && symbols === null) loadSymbols();
}
