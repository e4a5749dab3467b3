"""Live games' websockets (Channels): a game's socket, the lobby's and the ping, with routes."""
