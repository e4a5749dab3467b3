"""The pure core of correspondence rooms: no Django, values in and out.

- ``rolls``: the room's numbered dice (roll ``n`` of a room re-derives from its seed alone);
- ``timecontrol``: a turn's deadline, reminder, grace period and vacation arithmetic;
- ``transcript``: the journal as plain text;
- ``audit``: the check behind ``manage.py verify_room``;
- ``battles``: a battle request in the resolver's terms (``combat.battle_notation``).

``games.rooms`` loads rows, calls these and saves what they return.
"""
