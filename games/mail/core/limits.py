"""The size and shape a mail may have, checked on its raw bytes before anything parses it.

Pure: bytes in, a refusal (or ``None``) out. Why before parsing: the standard library's parser
and its header classes cost far more than the bytes suggest on a hostile shape (measured: 60,000
``To:`` addresses, 868 KB, took 21.6 s in ``as_bytes()`` and 24 s in ``read_mail``; 8,000 parts
1.5 s to parse; 400 nested ``multipart/mixed`` parts 0.35 s to parse and a ``RecursionError``
to serialise). Every rule here is one linear pass over the bytes, so refusing costs milliseconds,
and a mail within all of them parses and is read in well under 0.2 s of CPU (``bench/mail_cpu.py``).

The rules, each refused by name (``refusal``):

- ``MAX_MAIL_BYTES``: the whole message;
- ``MAX_HEADER_BYTES``: the top-level header section (up to the first blank line);
- ``MAX_FIELD_BYTES``: one header field of that section, its folded lines together;
- ``MAX_ADDRESS_BYTES``: the address fields (From, To, Cc, Bcc, Reply-To, Sender and the
  receiving servers' Delivered-To, X-Original-To, Envelope-To) together: about 100 addresses.
  The email package's address parser is superlinear in a field's length;
- ``MAX_DEPTH``: how deep ``multipart`` parts are nested, from the boundaries the mail declares
  (``boundary=``) and its delimiter lines (``--boundary`` opens or goes on, ``--boundary--``
  closes). An ordinary reply is 1-3 deep, a forwarded one with attachments 4-6;
- ``MAX_MULTIPARTS``: ``multipart/`` mentions in the whole mail, an upper bound on the
  containers however their boundaries are declared (RFC 2231 ``boundary*0=`` pieces included);
- ``MAX_DELIMITER_LINES``: lines beginning ``--``, an upper bound on the parts (each part
  begins with such a line), again however the boundaries are declared;
- ``MAX_EMBEDDED``: attached messages (``Content-Type: message/...``), each parsed as a mail of
  its own inside the mail;
- ``MAX_COMMENT_DEPTH``: how deep ``(comments)`` nest in one header field. The email package's
  header parser recurses once per parenthesis: a From of 5,000 ``(`` within every size limit
  ended in a ``RecursionError`` whose 1,000-frame traceback cost a loaded machine a second to
  log. Real mail nests them 0-2 deep.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email.utils import parseaddr

MAX_MAIL_BYTES = 256 * 1024
MAX_HEADER_BYTES = 64 * 1024
MAX_FIELD_BYTES = 16 * 1024
MAX_ADDRESS_BYTES = 8 * 1024
MAX_DEPTH = 10
MAX_MULTIPARTS = 30
MAX_DELIMITER_LINES = 200
MAX_EMBEDDED = 10
MAX_COMMENT_DEPTH = 10

ADDRESS_FIELDS = frozenset(
    {b"from", b"to", b"cc", b"bcc", b"reply-to", b"sender", b"delivered-to", b"x-original-to",
     b"envelope-to", b"resent-to", b"resent-cc", b"resent-from"}
)  # fmt: skip

_BOUNDARY = re.compile(rb'boundary[ \t]*=[ \t]*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))', re.I)
_MULTIPART = re.compile(rb"multipart/", re.I)
_EMBEDDED = re.compile(rb"^content-type:[ \t\r\n]*message/", re.I | re.M)
_COMMENT_SYNTAX = re.compile(rb'[()"\\]')


class MailRefused(ValueError):
    """A mail over one of the limits: never parsed. ``raw`` is the bytes as they came."""

    def __init__(self, reason: str, raw: bytes) -> None:
        super().__init__(reason)
        self.reason = reason
        self.raw = raw


@dataclass(frozen=True)
class Head:
    """What a cheap scan of the top-level header section finds, for a mail never parsed: whom
    to tell and which record to write (the raw values, unfolded; empty when absent)."""

    message_id: str
    sender: str
    subject: str


def refusal(raw: bytes) -> str | None:
    """Why ``raw`` is not read (the rule broken, by name), or ``None`` if it is within them all."""
    if len(raw) > MAX_MAIL_BYTES:
        return f"the mail is larger than {MAX_MAIL_BYTES // 1024} KB"
    head = header_section(raw)
    if len(head) > MAX_HEADER_BYTES:
        return f"the mail's header is larger than {MAX_HEADER_BYTES // 1024} KB"
    address_bytes = 0
    for name, value in fields(head):
        if len(value) > MAX_FIELD_BYTES:
            return (
                f"the mail's {name.decode('ascii', 'replace')} header is larger than "
                f"{MAX_FIELD_BYTES // 1024} KB"
            )
        if name.lower() in ADDRESS_FIELDS:
            address_bytes += len(value)
        if comment_depth(value) > MAX_COMMENT_DEPTH:
            return (
                f"the mail's {name.decode('ascii', 'replace')} header nests comments "
                f"'(...)' more than {MAX_COMMENT_DEPTH} deep"
            )
    if address_bytes > MAX_ADDRESS_BYTES:
        return (
            f"the mail's address headers (From, To, Cc, ...) are larger than "
            f"{MAX_ADDRESS_BYTES // 1024} KB together (about 100 addresses)"
        )
    lines = raw.split(b"\n")
    if nesting(raw, lines) > MAX_DEPTH:
        return f"the mail's MIME parts are nested more than {MAX_DEPTH} deep"
    if (count := len(_MULTIPART.findall(raw))) > MAX_MULTIPARTS:
        return f"the mail has {count} multipart sections; at most {MAX_MULTIPARTS} are read"
    if (count := len(_EMBEDDED.findall(raw))) > MAX_EMBEDDED:
        return f"the mail has {count} attached messages; at most {MAX_EMBEDDED} are read"
    if (count := sum(1 for line in lines if line.startswith(b"--"))) > MAX_DELIMITER_LINES:
        return (
            f"the mail has {count} lines beginning '--' (MIME parts begin so); "
            f"at most {MAX_DELIMITER_LINES}"
        )
    return None


def header_section(raw: bytes) -> bytes:
    """The top-level header section: up to the first blank line (the whole mail if none)."""
    ends = [i for i in (raw.find(b"\n\n"), raw.find(b"\r\n\r\n")) if i >= 0]
    return raw[: min(ends)] if ends else raw


def fields(head: bytes) -> list[tuple[bytes, bytes]]:
    """The header fields of ``head`` as (name, value), folded lines joined (CR/LF kept out)."""
    found: list[tuple[bytes, list[bytes]]] = []
    for line in head.split(b"\n"):
        line = line.rstrip(b"\r")
        if line[:1] in (b" ", b"\t"):
            if found:
                found[-1][1].append(line)
            continue
        name, colon, value = line.partition(b":")
        if colon:
            found.append((name.strip(), [value]))
    return [(name, b"".join(parts)) for name, parts in found]


def comment_depth(value: bytes) -> int:
    """How deep ``(comments)`` nest in a header value (RFC 5322 3.2.2): a ``(`` outside a quoted
    string opens one, ``)`` closes it, a backslash quotes the next character. One pass over the
    value's special characters only, stopping once past the limit."""
    depth = deepest = 0
    quoted = escaped = False
    skip_at = -1
    for match in _COMMENT_SYNTAX.finditer(value):
        at, char = match.start(), match.group()
        if escaped and at == skip_at:
            escaped = False
            continue
        escaped = False
        if char == b"\\":
            escaped, skip_at = True, at + 1
        elif char == b'"' and depth == 0:
            quoted = not quoted
        elif quoted:
            continue
        elif char == b"(":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_COMMENT_DEPTH:
                return deepest
        elif char == b")" and depth:
            depth -= 1
    return deepest


def nesting(raw: bytes, lines: list[bytes] | None = None) -> int:
    """How deep the declared boundaries nest: a delimiter line of a boundary not yet open opens
    it inside the ones open; its closing line closes it and whatever was opened inside it."""
    declared = {a or b for a, b in _BOUNDARY.findall(raw)}
    if not declared:
        return 0
    open_: list[bytes] = []
    deepest = 0
    for line in raw.split(b"\n") if lines is None else lines:
        if not line.startswith(b"--"):
            continue
        token = line[2:].rstrip()
        if token.endswith(b"--") and token[:-2] in declared:
            if token[:-2] in open_:
                del open_[open_.index(token[:-2]) :]
        elif token in declared and token not in open_:
            open_.append(token)
            deepest = max(deepest, len(open_))
            if deepest > MAX_DEPTH:  # deep enough to refuse: no need to look further
                return deepest
    return deepest


def head_of(raw: bytes) -> Head:
    """From, Message-ID and Subject of ``raw`` read from its first bytes without a parser, for
    the answer and the record of a mail that is not read (never raises)."""
    values: dict[bytes, str] = {}
    for name, value in fields(header_section(raw)):
        key = name.lower()
        if key in (b"from", b"message-id", b"subject") and key not in values:
            values[key] = " ".join(value.decode("utf-8", "replace").split())[:998]
    try:  # the value is at most 998 characters: a parser's recursion cannot go far
        sender = parseaddr(values.get(b"from", ""))[1].strip().lower()
    except (RecursionError, ValueError, IndexError):
        sender = ""
    return Head(
        message_id=values.get(b"message-id", "") or f"<sha256:{hashlib.sha256(raw).hexdigest()}>",
        sender=sender if "@" in sender else "",
        subject=values.get(b"subject", ""),
    )
