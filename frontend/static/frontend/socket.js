// The game page's websocket (/ws/games/<id>/): connect, reconnect with a backoff, keep presence
// fresh with a ping, send. It knows nothing of the messages' meaning: each parsed message goes to
// onMessage, each change of the connection's state to onConnection(text, live).

const PING_MS = 50000; // keeps presence fresh
const NO_SUCH_GAME = 4404;
const REFUSED = 4401;

export class GameSocket {
  // url: the socket's address; onMessage(message); onConnection(text, live); onNoSuchGame().
  constructor(url, { onMessage, onConnection, onNoSuchGame }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onConnection = onConnection;
    this.onNoSuchGame = onNoSuchGame;
    this.socket = null;
    this.retries = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.stopped = false; // an unknown game or a refused token: no reconnecting
    this.text = "connecting";
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && !this.socket && !this.stopped) {
        clearTimeout(this.retryTimer);
        this.retries = 0;
        this.connect();
      }
    });
  }

  get live() {
    return this.text === "live";
  }

  setConnection(text) {
    this.text = text;
    this.onConnection(text, this.live);
  }

  // A whole state arrived: the connection works, the next drop starts the backoff afresh.
  healthy() {
    this.retries = 0;
  }

  // No more reconnecting (the game does not exist, or the server refused us).
  stop() {
    this.stopped = true;
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  connect() {
    if (this.stopped) return;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    this.setConnection(this.retries ? `reconnecting (attempt ${this.retries + 1})` : "connecting");
    socket.addEventListener("open", () => {
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
      this.setConnection("live");
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      this.socket = null;
      if (event.code === NO_SUCH_GAME) this.onNoSuchGame();
      if (event.code === REFUSED || event.code === NO_SUCH_GAME) this.stopped = true;
      if (this.stopped) { this.setConnection("closed"); return; }
      const delay = Math.min(30000, 1000 * 2 ** this.retries) * (0.75 + Math.random() / 2);
      this.retries += 1;
      this.setConnection(`disconnected, retrying in ${Math.round(delay / 1000)} s`);
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }
}
