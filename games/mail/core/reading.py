"""A MIME reply read into what the move service needs: who, to which address, which lines.

Pure: bytes in, values out. ``read_mail`` parses the message with the standard library
(``email`` with the modern policy): the text/plain part in its own charset (``format=flowed``
soft line breaks undone), or, for an
HTML-only message, the HTML turned into text (``html.parser``; quoted ``<blockquote>``s and
scripts/styles dropped, block elements become line breaks). ``reply_text`` cuts what the player
wrote from the quoted thread and their signature (``quoting``: Gmail's
"On ... wrote:", Outlook's "-----Original Message-----" and "From:/Sent:" blocks, Apple Mail's
quoted header, "Sent from my iPhone", "-- " signatures), in time linear in the text.
``move_lines`` keeps the lines that can be moves.

Limits (decided: no mail can pin a core or fill memory): the service refuses a message over
any of ``games.mail.core.limits`` (its size, its header's, its nesting, ...) before parsing it; the
body text is cut at ``MAX_TEXT_CHARS``; a line longer than ``MAX_LINE_CHARS`` is refused as
a move; at most ``MAX_MOVES`` move lines are taken from one mail (the answer says the rest were
not read).
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from games.mail.core import quoting

MAX_TEXT_CHARS = 20_000
#: HTML read into text at most (the HTML parser costs ~0.5 µs a character: 256 KB took 0.14 s).
MAX_HTML_CHARS = 64_000
MAX_LINE_CHARS = 1000  # an opening 'arrange' names every territory of the seat
MAX_MOVES = 40

#: Headers that may carry the address the mail was sent to: To and Cc as the sender wrote them,
#: the others as the receiving server or the mail provider adds them (a Bcc, an alias).
RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To", "Bcc")


class UnreadableMail(ValueError):
    """Bytes that are not a mail we can act on (no sender, nothing to read)."""


@dataclass(frozen=True)
class InboundMail:
    #: The Message-ID with its angle brackets; for a mail without one, ``<sha256:...>`` of its
    #: bytes (the same bytes delivered twice are then still one mail).
    message_id: str
    #: The From address, lower-cased, without the display name.
    sender: str
    recipients: tuple[str, ...]
    subject: str
    #: The body as text (text/plain, or the HTML part turned into text).
    text: str


def read_mail(raw: bytes) -> InboundMail:
    """The parts of ``raw`` (a whole RFC 5322 message) the move service uses."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    sender = parseaddr(str(message.get("From", "")))[1].strip().lower()
    if "@" not in sender:
        raise UnreadableMail("the mail has no From address")
    message_id = " ".join(str(message.get("Message-ID", "")).split())
    if not message_id:
        message_id = f"<sha256:{hashlib.sha256(raw).hexdigest()}>"
    recipients: list[str] = []
    for header in RECIPIENT_HEADERS:
        values = [str(v) for v in message.get_all(header, [])]
        recipients += [addr.strip().lower() for _, addr in getaddresses(values) if "@" in addr]
    return InboundMail(
        message_id=message_id[:998],
        sender=sender,
        recipients=tuple(dict.fromkeys(recipients)),
        subject=" ".join(str(message.get("Subject", "")).split()),
        text=body_text(message)[:MAX_TEXT_CHARS],
    )


def body_text(message: EmailMessage) -> str:
    """The text of the message: its text/plain body, else its HTML body as text, else ''."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    content = _decoded(part).replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_subtype() == "html":  # the player's text is on top: the start will do
        return html_to_text(content[:MAX_HTML_CHARS])
    if str(part.get_param("format", "")).lower() == "flowed":
        return unflow(content, delsp=str(part.get_param("delsp", "")).lower() == "yes")
    return content


def unflow(text: str, *, delsp: bool = False) -> str:
    """``format=flowed`` text (RFC 3676: Apple Mail, Thunderbird) with its soft line breaks
    undone: a line ending in a space goes on on the next line (the space dropped too with
    ``DelSp=yes``), so a long move wrapped by the mail client is one line again. The signature
    separator ``-- `` is not a soft break; a space-stuffed line loses its first space."""
    lines: list[str] = []
    carried = ""
    for line in text.split("\n"):
        if line.startswith(" "):
            line = line[1:]
        if line.endswith(" ") and line != "-- ":
            carried += line[:-1] if delsp else line
            continue
        lines.append(carried + line)
        carried = ""
    if carried:
        lines.append(carried)
    return "\n".join(lines)


def _decoded(part: Message) -> str:
    """The part's text in its declared charset; an unknown or wrong charset is read as UTF-8
    with replacement characters rather than refused (the moves are ASCII anyway)."""
    try:
        return str(part.get_content())  # type: ignore[attr-defined]
    except (LookupError, UnicodeDecodeError):
        payload = part.get_payload(decode=True)
        return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""


class _TextFromHtml(HTMLParser):
    """HTML to plain lines: block elements end a line; quotes, scripts and styles vanish."""

    BLOCKS = frozenset(
        {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "pre", "table",
         "ul", "ol", "section", "article", "header", "footer"}
    )  # fmt: skip
    HIDDEN = frozenset({"script", "style", "head", "title", "blockquote"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.hidden += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data.replace("\xa0", " "))


def html_to_text(html: str) -> str:
    """The visible text of ``html``, one line per block, quoted blocks left out."""
    parser = _TextFromHtml()
    parser.feed(html)
    parser.close()
    lines = ("".join(parser.parts)).split("\n")
    text = "\n".join(" ".join(line.split()) for line in lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def reply_text(text: str) -> str:
    """What the player wrote on top: the quoted thread and their signature cut off
    (``quoting.own_text``, linear in the text). The text is cut at ``MAX_TEXT_CHARS`` and each
    line at one character more than a move may have (a line that long is refused as a move)."""
    text = "\n".join(line[: MAX_LINE_CHARS + 1] for line in text[:MAX_TEXT_CHARS].split("\n"))
    return quoting.own_text(text)


_BULLET = re.compile(r"^(?:[-*\u2022]\s+|>\s*)")


def move_lines(text: str) -> list[str]:
    """The lines of ``text`` that can be moves: blank lines and ``#`` comments dropped, a
    leading list bullet (``- ``, ``* ``, as in the "your turn" mail's list) taken off, and a
    line ending with a comma joined to the next (mail clients wrap a long ``arrange`` line,
    and the notation's lists are comma-separated)."""
    lines: list[str] = []
    carried = ""
    for raw_line in text.split("\n"):
        line = _BULLET.sub("", raw_line.strip()).strip()
        if not line or line.startswith("#"):
            continue
        line = f"{carried} {line}" if carried else line
        if line.endswith(","):
            carried = line
            continue
        carried = ""
        lines.append(line)
    if carried:
        lines.append(carried)
    return lines
