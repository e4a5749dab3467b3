"""Accounts: registration, the profile, API tokens (``services``), their HTTP API (``api``),
a script's websocket sign-in with a token (``socket_auth``) and the profile every new user gets
(``signals``)."""
