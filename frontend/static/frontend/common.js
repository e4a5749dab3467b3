// Shared by the pages: the JSON API with the CSRF header, safe element building, who is signed in.
// Nothing here ever writes data as HTML: text goes in with textContent. No side effects on import:
// a page's own module calls what it needs (and Node imports this in the tests).

let csrf = null;

export async function csrfToken(refresh = false) {
  if (csrf === null || refresh) {
    const response = await fetch("/api/auth/csrf", { credentials: "same-origin" });
    csrf = (await response.json()).csrf_token;
  }
  return csrf;
}

// fetch a JSON endpoint; resolves to {ok, status, data} (data null for an empty body).
export async function api(method, url, body) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") headers["X-CSRFToken"] = await csrfToken();
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(url, {
      method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    return { ok: false, status: 0, data: { error: "network", message: String(err) } };
  }
  let data = null;
  if (response.status !== 204) {
    try { data = await response.json(); } catch { data = null; }
  }
  return { ok: response.ok, status: response.status, data };
}

// The one error shape ({error, message, field, ...}) as a line of text.
export function errorText(body, status) {
  const d = body || {};
  let text = d.message || d.detail || (status ? `HTTP ${status}` : "failed");
  if (d.error) text = `${d.error}: ${text}`;
  if (d.field) text += ` (field: ${d.field})`;
  if (Array.isArray(d.allowed) && d.allowed.length) text += ` — allowed: ${d.allowed.join(", ")}`;
  return text;
}

// el("td", {className: "num"}, "3", otherNode): strings become text nodes, never markup.
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null) continue;
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key in node) node[key] = value;
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function setText(id, text, className) {
  const node = document.getElementById(id);
  if (!node) return;
  node.textContent = text;
  if (className !== undefined) node.className = className;
}

// Who is signed in: resolves to the profile or null, and fills the header's #whoami.
let mePromise = null;
export function me() {
  if (mePromise === null) {
    mePromise = api("GET", "/api/auth/me").then((res) => (res.ok ? res.data : null));
  }
  return mePromise;
}

export function loginHref() {
  return `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
}

export function randomKey() {
  if (window.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = new Uint8Array(16); // not a secure context (plain http off localhost)
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function timeControlText(game) {
  const seconds = game.seconds_per_turn;
  if (game.time_control === "live" && seconds) return `live, ${Math.round(seconds / 60)} min per decision`;
  if (game.time_control === "correspondence" && seconds) {
    return `correspondence, ${Math.round(seconds / 86400)} days per decision`;
  }
  return game.time_control || "untimed";
}
