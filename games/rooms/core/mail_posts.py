"""A reply to a room's mail read into journal posts: pure, lines in, posts out.

The reading (decided, and shown in the README's rooms section):

- a line starting with ``battle `` is a battle request in the room's notation
  (``battle 3 inf 1 art vs 2 inf``, ``battle wif 18 vs 6 blitz``); the word ``battle`` is taken
  off and the rest goes to the resolver's notation as it would from the site;
- ``challenge <entry number> <text>`` challenges that entry (``challenge 12 Karelia had 2
  fighters``; ``#12`` is read as ``12``); the text is required, as on the site;
- ``end turn`` (any case, any spacing) ends the side's turn;
- every other non-blank line that does not start with ``#`` belongs to the move note: they
  are joined, in their order and with their line breaks, into ONE note, posted first (a player
  writes what they did, then asks for the battles it led to, then ends the turn).

The posts come out in that order: the note, then the battle, challenge and end-turn lines in
the order written. Words are matched case-insensitively (a phone capitalises the first word).
A ``challenge`` line without a number or a text is a post that is refused when its turn comes
(``Post.refusal``), so the lines before it are still applied and the answer names the word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["note", "battle", "challenge", "end_turn", "refused"]

_BATTLE = re.compile(r"^battle\s+(?P<rest>.+)$", re.IGNORECASE)
_CHALLENGE = re.compile(r"^challenge(?:\s+(?P<rest>.*))?$", re.IGNORECASE)
_END_TURN = re.compile(r"^end\s+turn$", re.IGNORECASE)
_ENTRY = re.compile(r"^#?(\d{1,9})$")


@dataclass(frozen=True)
class Post:
    """One post a reply asks for: its kind, the line as written and what the service needs."""

    kind: Kind
    line: str
    text: str = ""
    entry: int | None = None
    #: For ``refused``: why the line cannot be read (the word at fault named).
    refusal: str = ""


def read_posts(text: str) -> list[Post]:
    """The posts the reply ``text`` (quoted thread already cut) asks for, in the order they
    are applied: the note first, then the other lines as written."""
    note: list[str] = []
    posts: list[Post] = []
    for raw in text.split("\n"):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        post = _command(line)
        if post is None:
            note.append(line)
        else:
            posts.append(post)
    if note:
        joined = "\n".join(note)
        posts.insert(0, Post("note", joined, text=joined))
    return posts


def _command(line: str) -> Post | None:
    """The post of a command line; ``None`` for a line of the note."""
    if _END_TURN.match(line):
        return Post("end_turn", line)
    battle = _BATTLE.match(line)
    if battle is not None:
        return Post("battle", line, text=battle["rest"].strip())
    challenge = _CHALLENGE.match(line)
    if challenge is None:
        return None
    words = (challenge["rest"] or "").split(None, 1)
    if not words:
        return Post("refused", line, refusal="'challenge' needs the entry's number and a text")
    number = _ENTRY.match(words[0])
    if number is None:
        return Post(
            "refused",
            line,
            refusal=f"word 2 {words[0]!r}: expected the number of the entry challenged",
        )
    if len(words) < 2 or not words[1].strip():
        return Post("refused", line, refusal="a challenge needs a text after the entry's number")
    return Post("challenge", line, text=words[1].strip(), entry=int(number[1]))
