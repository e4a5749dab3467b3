"""Correspondence rooms: games played on the players' own boards, with a
numbered journal, the room's verifiable dice, disputes, results and a clock.

- ``access``: who may see a room (the 404 of a missing id for a private room);
- ``writing``: the room's row lock and the one place an entry is appended;
- ``setup``: creating a room and taking its sides;
- ``journal``: the posts (notes, battles, disputes, turns, vacations, the result), one
  transaction each under the room's row lock;
- ``reading``: what the API and the pages show (detail, journal pages, the transcript);
- ``clock``: the periodic check (reminders, vacations running out, timed-out turns);
- ``mail``: notices to everyone of disputes, rulings, timeouts and the result;
- ``verify``: ``manage.py verify_room``'s check of an ended room.

The arithmetic and the checks are pure, in ``games.rooms.core``.
"""
