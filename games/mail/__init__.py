"""Moves and posts by mail: mail in (``intake``: one service for the webhook and
``manage.py fetch_mail``; ``webhook``: anymail's inbound route, guarded, and its signal
receiver) over a pure core (``core``: the signed reply address, the limits, reading a reply).
"""
