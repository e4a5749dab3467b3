// The SVG board, shared by the game page and the replay viewer: drawn once from the shapes of
// /board/<name>.json (the project's own art, checked by the map validator), then painted from a
// view (owners' colours, armies, factories, ships). It knows nothing of actions: a click on a
// territory, a ship or a station is handed to the page's callbacks, and the page says what to
// highlight with mark / markShips / markStations.
import { oceanName } from "./text.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

const points = (polygon) => polygon.map(([x, y]) => `${x},${y}`).join(" ");
const MARKS = ["source", "target", "picked", "choice"];
// Board units per screen pixel above which the territories' names no longer fit (a phone showing
// the whole board): they are hidden then, and come back as one zooms in.
const NAMES_FIT = 1.35;
// A ship's box (board units, at scale 1): its hull and ring, the crew above and captives below.
const SHIP_W = 22, SHIP_H = 34;

// Ships drawn at least 14 screen pixels wide (their hull is 18 units), never below the map's size.
export function shipScale(k) {
  return Math.max(1, (14 * k) / 18);
}

// Where a ship of this box may stand near its station without overlapping any ship placed
// before it (centres in `placed`): the station itself, else the nearest free spot in a widening
// ring of spots side by side, then rows above and below.
export function freeSpot([x, y], w, h, placed) {
  const free = ([cx, cy]) => placed.every(([px, py]) => Math.abs(px - cx) >= w - 0.01 || Math.abs(py - cy) >= h - 0.01);
  for (let ring = 0; ring < 8; ring += 1) {
    const spots = [];
    for (let row = -ring; row <= ring; row += 1) {
      for (let col = -ring; col <= ring; col += 1) {
        if (Math.max(Math.abs(row), Math.abs(col)) === ring) spots.push([row, col]);
      }
    }
    // side by side first (right, then left), then the rows nearest the station
    spots.sort(([r1, c1], [r2, c2]) => Math.abs(r1) - Math.abs(r2) || Math.abs(c1) - Math.abs(c2) || c2 - c1 || r2 - r1);
    for (const [row, col] of spots) {
      const spot = [x + col * w, y + row * h];
      if (free(spot)) return spot;
    }
  }
  return [x, y];
}

// "Pacific:Alaska" -> "Pacific Ocean station off Alaska" (a station is keyed ocean:coast)
function stationLabel(key) {
  const [ocean, coast] = String(key).split(":");
  return coast ? `${oceanName(ocean)} station off ${coast}` : `Station ${key}`;
}

// The drawn board of the map a game is played on: its options name the map and the version.
export function boardUrl(options) {
  const o = options || {};
  return `/board/${encodeURIComponent(o.map || "classic")}/${Number(o.map_version) || 1}.json`;
}

function captiveCount(ship) {
  return Object.values(ship.captured || {}).reduce((n, v) => n + v, 0);
}

function shipTitle(ship, pirate) {
  const captured = Object.entries(ship.captured || {}).filter(([, n]) => n > 0);
  return `Ship ${ship.id} of ${ship.owner}${pirate ? " (pirate)" : ""} at ${ship.station}, crew ${ship.armies}`
    + `${captured.length ? `, captives ${captured.map(([seat, n]) => `${n} of ${seat}`).join(", ")}` : ""}`
    + `${ship.cruising ? `, cruising (${ship.moves} boat lengths left)` : ""}${ship.out_of_action ? ", out of action" : ""}`;
}

// The sea lanes (shapes.lanes: [station, station, boat lengths]) as lines between station dots,
// each with its length; a lane across the east-west edge is drawn as two halves off the sides.
function drawLanes(shapes, x0, w) {
  const where = {};
  for (const ocean of shapes.oceans) Object.assign(where, ocean.stations);
  const group = svg("g", { class: "lanes" });
  for (const [a, c, length] of shapes.lanes || []) {
    if (!where[a] || !where[c]) continue;
    const [ax, ay] = where[a], [cx, cy] = where[c];
    const attrs = { class: "lane", "data-lane": `${a}|${c}`, stroke: "#5b8aa6", "stroke-width": 1 };
    let mid;
    if (Math.abs(ax - cx) > w / 2) {
      const [wx, wy, ex, ey] = ax < cx ? [ax, ay, cx, cy] : [cx, cy, ax, ay];
      const span = wx - x0 + (x0 + w - ex);
      const yAtEdge = wy + ((ey - wy) * (wx - x0)) / span;
      group.append(svg("line", { ...attrs, x1: wx, y1: wy, x2: x0, y2: yAtEdge }), svg("line", { ...attrs, x1: ex, y1: ey, x2: x0 + w, y2: yAtEdge }));
      mid = [(wx + x0) / 2, (wy + yAtEdge) / 2];
    } else {
      group.append(svg("line", { ...attrs, x1: ax, y1: ay, x2: cx, y2: cy }));
      mid = [(ax + cx) / 2, (ay + cy) / 2];
    }
    const text = svg("text", { x: mid[0], y: mid[1] + 3, class: "lane-length", "font-size": 8 }, length);
    text.append(svg("title", {}, `${a} to ${c}: ${length} boat length${length === 1 ? "" : "s"}`));
    group.append(text);
  }
  return group;
}

// host: the element to draw into; shapes: the /board/<name>/<version>.json body;
// opts: {onPick(name), onShipPick(id), onStationPick(key), controls: {zoomIn, zoomOut, reset}}
export function create(host, shapes, opts = {}) {
  const onPick = opts.onPick || (() => {});
  const onShipPick = opts.onShipPick || (() => {});
  const onStationPick = opts.onStationPick || (() => {});
  const b = { svg: null, territories: new Map(), stations: new Map(), ships: null, box: null, home: null, dragged: false, view: null,
    shipMarks: {}, stationMarks: {}, stationNotes: {}, k: 1, shipPlaces: [] };

  const [x0, y0, w, h] = shapes.viewBox;
  b.home = { x: x0, y: y0, w, h };
  b.box = { ...b.home };
  const root = svg("svg", { viewBox: shapes.viewBox.join(" "), role: "group", "aria-label": "The board", class: "board-svg" });
  root.append(svg("rect", { x: x0, y: y0, width: w, height: h, class: "sea" }));
  const labels = Object.fromEntries(shapes.territories.map((t) => [t.name, t.label]));
  const oceans = svg("g", { class: "oceans" });
  const lanes = drawLanes(shapes, x0, w);
  const stationNotes = svg("g", { class: "station-notes" });
  for (const ocean of shapes.oceans) {
    oceans.append(svg("text", { x: ocean.label[0], y: ocean.label[1], class: "ocean-label" }, oceanName(ocean.name)));
    for (const [key, [x, y]] of Object.entries(ocean.stations)) {
      const label = stationLabel(key);
      const dot = svg("circle", { cx: x, cy: y, r: 4, class: "station", "data-station": key, tabindex: 0, role: "button", "aria-label": label });
      dot.append(svg("title", {}, label));
      const pick = () => onStationPick(key);
      dot.addEventListener("click", () => { if (!b.dragged) pick(); });
      dot.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
      oceans.append(dot);
      const note = svg("text", { x, y: y + 14, class: "station-note" }, "");
      stationNotes.append(note);
      b.stations.set(key, { dot, note, label });
    }
  }
  const links = svg("g", { class: "links" });
  for (const link of shapes.links) {
    const [ax, ay] = labels[link.a], [bx, by] = labels[link.b];
    if (link.wrap) { // across the east-west edge: two half lines off the board's sides
      const [wx, wy, ex, ey] = ax < bx ? [ax, ay, bx, by] : [bx, by, ax, ay];
      const span = wx - x0 + (x0 + w - ex);
      const yAtEdge = wy + ((ey - wy) * (wx - x0)) / span;
      links.append(svg("line", { x1: wx, y1: wy, x2: x0, y2: yAtEdge, class: "link" }));
      links.append(svg("line", { x1: ex, y1: ey, x2: x0 + w, y2: yAtEdge, class: "link" }));
    } else {
      links.append(svg("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "link" }));
    }
  }
  const lands = svg("g", { class: "lands" });
  const marks = svg("g", { class: "marks" });
  for (const t of shapes.territories) {
    const shape = svg("polygon", { points: points(t.polygon), class: "land", tabindex: 0, role: "button", "data-name": t.name });
    const pick = () => onPick(t.name);
    shape.addEventListener("click", () => { if (!b.dragged) pick(); });
    shape.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
    const tip = svg("title", {}, t.name); // on hover: owner, armies, factory, card symbol
    shape.append(tip);
    lands.append(shape);
    const [lx, ly] = t.label;
    const name = svg("text", { x: lx, y: ly - 9, class: "land-name" }, t.name);
    const armies = svg("text", { x: lx, y: ly + 7, class: "armies" }, "");
    const factory = svg("rect", { x: lx + 12, y: ly - 3, width: 9, height: 9, class: "factory" });
    factory.append(svg("title", {}, "factory"));
    marks.append(name, armies, factory);
    b.territories.set(t.name, { shape, armies, factory, tip });
  }
  b.ships = svg("g", { class: "ships" });
  // the station dots over the land, so a dot close to a coast can still be clicked
  root.append(lanes, links, lands, oceans, marks, b.ships, stationNotes);
  host.replaceChildren(root);
  b.svg = root;

  function seatColour(seatId) {
    const seat = b.view && b.view.seats.find((s) => s.id === seatId);
    return seat ? seat.colour : null;
  }

  function stationPlace(key) {
    for (const ocean of shapes.oceans) if (ocean.stations[key]) return ocean.stations[key];
    return null;
  }

  // RULES.md J6: a pirate is a live seat owning no territory (it holds only ships).
  function pirates(view) {
    const landed = new Set(Object.values(view.territories || {}).map((t) => t.owner));
    return new Set((view.seats || []).filter((s) => s.alive && !landed.has(s.id)).map((s) => s.id));
  }

  function paint(view) {
    b.view = view;
    const pirateSeats = pirates(view);
    for (const [name, parts] of b.territories) {
      const t = view.territories[name] || {};
      const colour = t.owner ? seatColour(t.owner) : null;
      parts.shape.style.fill = colour || "";
      parts.shape.classList.toggle("owned", Boolean(colour));
      parts.shape.dataset.colour = colour || "";
      parts.armies.textContent = t.armies ?? "";
      parts.factory.style.display = t.factory ? "" : "none";
      const said = `${name}, ${t.owner ?? "nobody"}, ${t.armies ?? 0} arm${t.armies === 1 ? "y" : "ies"}${t.factory ? ", factory" : ""}`;
      parts.shape.setAttribute("aria-label", said);
      const symbol = (shapes.cards || {})[name]; // the symbol of this territory's Risk card
      parts.tip.textContent = symbol ? `${said}; card: ${symbol}` : said;
    }
    const ships = Object.values(view.ships || {}).sort((a, c) => String(a.id).localeCompare(String(c.id)));
    const nodes = [];
    b.shipPlaces = [];
    for (const ship of ships) {
      const place = stationPlace(ship.station);
      if (!place) continue;
      const pirate = pirateSeats.has(ship.owner);
      const title = shipTitle(ship, pirate);
      const g = svg("g", { class: `ship${pirate ? " pirate" : ""}`, "data-ship": ship.id,
        tabindex: 0, role: "button", "aria-label": title });
      const hull = svg("path", { d: "M -9 -3 L 9 -3 L 6 5 L -6 5 Z", class: "hull" });
      hull.style.fill = seatColour(ship.owner) || "#888";
      g.append(svg("circle", { r: 12, class: "ship-ring" }), hull, svg("text", { x: 0, y: -6, class: "crew" }, ship.armies));
      const captives = captiveCount(ship);
      // "+2" in red under the hull: captives aboard (the title says whose). Not "+2c", which
      // reads as a poker card code (and made the spectator test's leak check flag it).
      if (captives) g.append(svg("text", { x: 0, y: 15, class: "captives" }, `+${captives}`));
      if (pirate) g.append(svg("text", { x: 12, y: -4, class: "pirate-badge" }, "P"));
      g.append(svg("title", {}, title));
      const pick = () => onShipPick(ship.id);
      g.addEventListener("click", () => { if (!b.dragged) pick(); });
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
      if (b.shipMarks[ship.id]) g.classList.add(b.shipMarks[ship.id]);
      nodes.push(g);
      b.shipPlaces.push({ g, place });
    }
    b.ships.replaceChildren(...nodes);
    layoutShips();
  }

  // The ships at their stations, drawn at a size that reads on this screen (never smaller than
  // the map's own), each moved aside until it overlaps no ship placed before it: ships on one
  // station stand side by side, and ships of nearby stations never cover each other's crews.
  function layoutShips() {
    const s = shipScale(b.k);
    const w = SHIP_W * s, h = SHIP_H * s;
    const placed = [];
    for (const { g, place } of b.shipPlaces || []) {
      const [x, y] = freeSpot(place, w, h, placed);
      placed.push([x, y]);
      g.setAttribute("transform", `translate(${x} ${y}) scale(${s})`);
      g.dataset.x = String(x);
      g.dataset.y = String(y);
    }
  }

  // marks: {ship id: "source" | "target" | "picked" | "choice"}; kept across repaints
  function markShips(marksById) {
    b.shipMarks = { ...(marksById || {}) };
    for (const g of b.ships.querySelectorAll("g.ship")) {
      g.classList.remove(...MARKS);
      if (b.shipMarks[g.dataset.ship]) g.classList.add(b.shipMarks[g.dataset.ship]);
    }
  }

  // marks: {station: "choice" | "picked" | ...}; notes: {station: short text shown by it
  // (a sail's distance in boat lengths)}, also put in the dot's accessible name
  function markStations(marksByKey, notes) {
    b.stationMarks = { ...(marksByKey || {}) };
    b.stationNotes = { ...(notes || {}) };
    for (const [key, parts] of b.stations) {
      parts.dot.classList.remove(...MARKS);
      if (b.stationMarks[key]) parts.dot.classList.add(b.stationMarks[key]);
      const note = b.stationNotes[key];
      parts.note.textContent = note ?? "";
      parts.dot.setAttribute("aria-label", note ? `${parts.label}: ${note}` : parts.label);
    }
  }

  // marks: {name: "source" | "target" | "picked" | "choice"}: the panel's highlights
  function mark(marksByName) {
    for (const [name, parts] of b.territories) {
      parts.shape.classList.remove("source", "target", "picked", "choice");
      if (marksByName && marksByName[name]) parts.shape.classList.add(marksByName[name]);
    }
  }

  function setBox(box) {
    const min = b.home.w / 8;
    const bw = Math.min(b.home.w, Math.max(min, box.w));
    const bh = (bw * b.home.h) / b.home.w;
    const x = Math.min(b.home.x + b.home.w - bw, Math.max(b.home.x, box.x));
    const y = Math.min(b.home.y + b.home.h - bh, Math.max(b.home.y, box.y));
    b.box = { x, y, w: bw, h: bh };
    b.svg.setAttribute("viewBox", `${x} ${y} ${bw} ${bh}`);
    rescale();
  }

  // --k (board units per screen pixel) for the labels' CSS, "far" when the names do not fit,
  // and the ships laid out again at their new size.
  function rescale() {
    const r = root.getBoundingClientRect();
    if (!r.width || !r.height) return;
    const k = Math.max(b.box.w / r.width, b.box.h / r.height);
    const changed = Math.abs(k - b.k) > 0.01;
    b.k = k;
    root.style.setProperty("--k", k.toFixed(3));
    root.classList.toggle("far", k > NAMES_FIT);
    if (changed) layoutShips();
  }

  function zoom(factor, cx, cy) {
    const box = b.box;
    const px = cx ?? box.x + box.w / 2, py = cy ?? box.y + box.h / 2;
    setBox({ x: px - (px - box.x) * factor, y: py - (py - box.y) * factor, w: box.w * factor, h: box.h * factor });
  }

  // A point of the screen in board units (the SVG may be letterboxed inside its box).
  const toBoard = (clientX, clientY) => {
    const m = root.getScreenCTM();
    if (!m) return [b.box.x + b.box.w / 2, b.box.y + b.box.h / 2];
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  };
  root.addEventListener("wheel", (e) => {
    e.preventDefault();
    const [x, y] = toBoard(e.clientX, e.clientY);
    zoom(e.deltaY < 0 ? 0.8 : 1.25, x, y);
  }, { passive: false });

  // Pointers: one drags the board (a mouse, a pen or a finger); two fingers pinch to zoom
  // about their midpoint and pan with it. A tap (moved less than 5 px) is a pick.
  const pointers = new Map(); // pointerId -> {x, y}
  let drag = null;
  let pinch = null;
  const midpoint = () => {
    const [p, q] = [...pointers.values()];
    return { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2, d: Math.hypot(p.x - q.x, p.y - q.y) || 1 };
  };
  root.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) {
      drag = { x: e.clientX, y: e.clientY, box: { ...b.box }, id: e.pointerId };
      pinch = null;
      b.dragged = false;
    } else if (pointers.size === 2) {
      const m = midpoint();
      pinch = { d: m.d, box: { ...b.box }, at: toBoard(m.x, m.y) };
      drag = null;
      b.dragged = true; // a pinch is never a pick
    }
  });
  root.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch && pointers.size >= 2) {
      const m = midpoint();
      const factor = pinch.d / m.d;
      const w = pinch.box.w * factor, h = pinch.box.h * factor;
      const r = root.getBoundingClientRect();
      const fx = (m.x - r.left) / r.width, fy = (m.y - r.top) / r.height;
      setBox({ x: pinch.at[0] - fx * w, y: pinch.at[1] - fy * h, w, h });
      return;
    }
    if (!drag || drag.id !== e.pointerId) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!b.dragged && Math.hypot(dx, dy) < 5) return;
    if (!b.dragged && root.setPointerCapture) root.setPointerCapture(e.pointerId);
    b.dragged = true;
    const r = root.getBoundingClientRect();
    setBox({ ...drag.box, x: drag.box.x - (dx / r.width) * drag.box.w, y: drag.box.y - (dy / r.height) * drag.box.h });
  });
  const end = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) { drag = null; setTimeout(() => { b.dragged = false; }, 0); }
  };
  root.addEventListener("pointerup", end);
  root.addEventListener("pointercancel", end);
  if (typeof ResizeObserver === "function") new ResizeObserver(() => rescale()).observe(root);
  const c = opts.controls || {};
  if (c.zoomIn) c.zoomIn.addEventListener("click", () => zoom(0.8));
  if (c.zoomOut) c.zoomOut.addEventListener("click", () => zoom(1.25));
  if (c.reset) c.reset.addEventListener("click", () => setBox(b.home));

  rescale();
  return { svg: root, shapes, paint, mark, markShips, markStations, zoom, reset: () => setBox(b.home), stationPlace, svgElement: svg, parts: b,
    box: () => ({ ...b.box }), scale: () => b.k };
}
