"""The game server: the part of Warboard that players talk to.

One package per feature under the one ``games`` app label: ``accounts``, ``play`` (live games:
the lobby, the action path, pushes, the driver, clocks, deadlines, chat, replays), ``rooms``
(correspondence rooms, over their pure ``rooms.core``), ``ratings``, ``tournaments`` and
``mail`` (moves and posts by mail, over ``mail.core``); ``competition`` is the pure rating and
pairing math. The rows of every feature are in ``models``; the shared web kernel (the error
shape, strict fields, throttles, the parser, error pages) is ``web`` and small shared helpers
are ``common``. Features meet through ``hooks`` (a finished game or room), never by importing
each other sideways; ``tasks``, ``urls``, ``routing``, ``admin`` and ``sweeper`` compose them.
Rules live in ``combat`` and ``risk.rules``; this app loads, calls and saves.
"""
