// /games: the lobby. Lists games (GET /api/games), creates one, joins, fills with bots, starts.
"use strict";

(() => {
  const { api, errorText, el, setText, timeControlText } = Warboard;
  let profile = null;

  function seatsText(game) {
    const taken = game.seats.filter((s) => s.position < game.seat_count);
    const names = taken.map((s) => `${s.name || s.player}${s.bot ? " (bot)" : ""}`);
    return `${taken.length}/${game.seat_count}${names.length ? ": " + names.join(", ") : ""}`;
  }

  function actionButton(label, onClick) {
    const button = el("button", { type: "button" }, label);
    button.addEventListener("click", async () => {
      button.disabled = true;
      await onClick();
      button.disabled = false;
    });
    return button;
  }

  async function lobbyCall(game, what) {
    const res = await api("POST", `/api/games/${game.id}/${what}`, what === "join" ? {} : undefined);
    if (res.ok) {
      setText("lobby-status", `Game ${game.id}: ${what} done.`, "ok");
      if (what === "start") location.assign(`/games/${game.id}`);
      else load();
    } else {
      setText("lobby-status", `Game ${game.id}: ${what} refused — ${errorText(res.data, res.status)}`, "bad");
    }
  }

  function row(game) {
    const me = profile ? profile.username : null;
    const mine = me !== null && game.seats.some((s) => s.player === me && s.position < game.seat_count);
    const free = game.seats.filter((s) => s.position < game.seat_count).length < game.seat_count;
    const creator = me !== null && game.creator === me;
    const buttons = [el("a", { href: `/games/${game.id}` }, game.status === "open" ? "Open" : "Watch / play")];
    if (game.status === "open" && profile) {
      if (!mine && free) buttons.push(actionButton("Join", () => lobbyCall(game, "join")));
      if (mine && !creator) buttons.push(actionButton("Leave", () => lobbyCall(game, "leave")));
      if (creator && free) buttons.push(actionButton("Fill with bots", () => lobbyCall(game, "bots")));
      if (creator && !free) buttons.push(actionButton("Start", () => lobbyCall(game, "start")));
    }
    const title = `#${game.id}${game.name ? " " + game.name : ""}${game.public ? "" : " (private)"}`;
    return el("tr", {},
      el("td", {}, el("a", { href: `/games/${game.id}` }, title)),
      el("td", {}, game.status + (game.result && game.result.winner ? `, won by ${game.result.winner}` : "")),
      el("td", {}, seatsText(game)),
      el("td", {}, timeControlText(game)),
      el("td", {}, game.creator),
      el("td", { className: "buttons" }, buttons));
  }

  async function load() {
    const wanted = document.getElementById("filter-status").value;
    const res = await api("GET", wanted ? `/api/games?status=${encodeURIComponent(wanted)}` : "/api/games");
    if (!res.ok) {
      setText("lobby-status", `Could not load the games: ${errorText(res.data, res.status)}`, "bad");
      return;
    }
    const games = res.data.games;
    document.getElementById("games-body").replaceChildren(...games.map(row));
    document.getElementById("games-empty").hidden = games.length > 0;
    setText("lobby-status", `${games.length} game${games.length === 1 ? "" : "s"}${profile ? "" : " — sign in to create or join one"}.`, "");
  }

  document.getElementById("filter-form").addEventListener("submit", (event) => {
    event.preventDefault();
    load();
  });

  document.getElementById("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!profile) {
      setText("create-result", "Sign in first.", "bad");
      return;
    }
    const f = event.target.elements;
    const options = { win: f.win.value };
    if (f.win.value === "round-limit") options.round_limit = Number(f.round_limit.value);
    const body = {
      name: f.name.value.trim(),
      seats: Number(f.seats.value),
      options,
      public: f.public.checked,
      time_control: f.time_control.value,
    };
    if (body.time_control === "live") body.minutes = Number(f.minutes.value);
    if (body.time_control === "correspondence") body.days = Number(f.days.value);
    const res = await api("POST", "/api/games", body);
    if (!res.ok) {
      setText("create-result", `Not created: ${errorText(res.data, res.status)}`, "bad");
      return;
    }
    const game = res.data;
    const result = document.getElementById("create-result");
    result.className = "ok";
    result.replaceChildren(`Created game #${game.id}`,
      game.public ? "" : ` (private; invite token ${game.invite_token})`, ". ",
      el("a", { href: `/games/${game.id}` }, "Open it"));
    load();
  });

  document.getElementById("private-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = event.target.elements;
    const id = Number(f.game.value);
    const res = await api("POST", `/api/games/${id}/join`, { invite: f.invite.value.trim() });
    if (res.ok) {
      location.assign(`/games/${id}`);
    } else {
      setText("private-result", `Not joined: ${errorText(res.data, res.status)}`, "bad");
    }
  });

  Warboard.me().then((p) => {
    profile = p;
    load();
  });
})();
