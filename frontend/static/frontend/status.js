// Shows the server's health and proves the websocket path with one ping.
function show(id, text, ok) {
  const el = document.getElementById(id);
  el.textContent = text;
  el.className = ok ? "ok" : "bad";
}

fetch("/healthz")
  .then((r) => r.json())
  .then((body) => show("health", `${body.status} (database ${body.database}, channel layer ${body.channel_layer}, version ${body.version})`, body.status === "ok"))
  .catch((err) => show("health", `unreachable: ${err}`, false));

const scheme = location.protocol === "https:" ? "wss" : "ws";
const socket = new WebSocket(`${scheme}://${location.host}/ws/ping/`);
socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "ping" })));
socket.addEventListener("message", (event) => {
  const reply = JSON.parse(event.data);
  if (reply.type === "pong") show("socket", reply.user ? `ok, signed in as ${reply.user}` : "ok", true);
  socket.close();
});
socket.addEventListener("error", () => show("socket", "failed", false));
