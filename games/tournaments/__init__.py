"""Tournaments: staff run them, players register, rounds pair themselves.

``setup`` creates events and handles entries, withdrawals, removals and the start; ``pairing``
pairs a round into games or rooms; ``results`` records each game's or room's result, lets staff
enter one, completes rounds and names the champion; ``reading`` builds the standings,
crosstable and pages; ``mail`` tells players their pairings; ``log`` is the staff log. Every
format's rules are pure (``games.competition.formats``); these modules load, call and save,
each write under the tournament's row lock.
"""
