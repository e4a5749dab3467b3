"""What a player wrote on top of a reply: the quoted thread and the signature cut off, in one
pass over the lines (linear in the text's length, whatever it holds).

Why our own: the maintained parsers were tried and each costs time growing faster than the
text on hostile input. ``mail-parser-reply`` (MIT, used here before) matches "On ... wrote:" with
``On\\s(?:.+?\\s?.+?)\\s?wrote:`` and a negative look-ahead of the same shape, and its disclaimer
pattern has nested lazy repeats: 20 lines of ``On On On ...`` took 0.5-2.4 s. ``quotequail``
(MIT, closeio) is line-based but has two-wildcard patterns such as
``^Op (.*) heeft (.*?)(?: het volgende)? geschreven:$`` (20 lines of ``Op heeft heeft ...``:
0.34 s), needs lxml and does not cut signatures. Here each line is tested with ``startswith``,
``endswith`` and anchored patterns without nested or adjacent repeats, so each test is linear in
the line, and a line is looked at with at most its next one.

The cuts, the first that matches ending the player's text (a line's leading ``>`` quote marks
and spaces are ignored for the headers, so a quoted header cuts too):

- a reply header: a line beginning ``On `` that ends with ``wrote:``, by itself or joined with
  the next line (Gmail wraps a long one: ``On ... Warboard <`` / ``warboard@...> wrote:``);
- a separator: ``-----Original Message-----`` or ``---- Forwarded message ----``, or a line of
  32 or more ``_`` or ``-`` (Outlook's);
- an Outlook header block: a ``From:`` / ``Sent:`` / ``Date:`` / ``To:`` / ``Subject:`` /
  ``Cc:`` line followed by another;
- a signature: ``--`` (the ``-- `` separator), ``__``, ``Sent from my ...``, ``Get Outlook for``,
  and, after the first line, a sign-off (``Regards,``, ``Best regards``, ``Kind regards``,
  ``Thanks,``, ``Thank you,``, ``Best,``, ``All the best``) or a disclaimer (``CAUTION:``,
  ``Disclaimer:``, ``Confidential:``, ...).

Each line comes back stripped of surrounding white space, as the parser used before gave it.
"""

from __future__ import annotations

import re

_SEPARATOR = re.compile(
    r"-{3,} ?(?:original message|forwarded message|weitergeleitete nachricht) ?-{3,}", re.I
)
_RULE = re.compile(r"[_-]{32,}")
_HEADER = re.compile(r"\*?(?:from|sent|date|to|subject|cc):", re.I)
_SIGN_OFFS = (
    "regards,", "best regards", "kind regards", "thanks,", "thank you,", "best,", "all the best",
)  # fmt: skip
_DISCLAIMERS = (
    "caution:", "disclaimer:", "confidential:", "confidentiality:", "privileged notice:",
    "confidential notice:", "important notice:", "private notice:", "sensitive notice:",
)  # fmt: skip
_SIGNATURE_STARTS = ("sent from my ", "get outlook for ")


def own_text(text: str) -> str:
    """The lines of ``text`` above the first quote header, separator or signature, stripped."""
    lines = [line.strip() for line in text.replace("\r\n", "\n").split("\n")]
    bare = [line.lstrip("> ") for line in lines]  # quote marks off, for the headers
    kept: list[str] = []
    written = False  # a sign-off on the very first line is what the player wrote
    for index, line in enumerate(lines):
        following = bare[index + 1] if index + 1 < len(bare) else ""
        if _ends_here(bare[index], following, first=not written) or _signature(line):
            break
        kept.append(line)
        written = written or bool(line)
    return "\n".join(kept).strip()


def _ends_here(line: str, following: str, *, first: bool) -> bool:
    """Whether the player's text ends before ``line`` (quote marks off) for a header or a
    separator; ``following`` is the next line, for a wrapped header."""
    lower = line.lower()
    if lower.startswith("on ") and (
        lower.endswith("wrote:") or f"{lower} {following.lower()}".endswith(" wrote:")
    ):
        return True
    if _SEPARATOR.fullmatch(line) or _RULE.fullmatch(line):
        return True
    if _HEADER.match(line) and _HEADER.match(following):
        return True
    return not first and lower.startswith(_SIGN_OFFS + _DISCLAIMERS)


def _signature(line: str) -> bool:
    """Whether ``line`` (stripped, quote marks kept) begins a signature."""
    lower = line.lower()
    return line in ("--", "__") or lower.startswith(_SIGNATURE_STARTS)
