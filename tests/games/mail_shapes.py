"""Hostile mails, generated (no fixture files): the shapes that stopped the intake or cost
seconds of CPU, each addressed like a reply so that nothing but its shape stops it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

SENDER = b"Alice <alice@example.org>"
MIXED = b'Content-Type: multipart/mixed; boundary="p"\r\n'


def head(to: str, message_id: str, extra: bytes = b"") -> bytes:
    return (
        b"From: " + SENDER + b"\r\nTo: " + to.encode() + b"\r\nSubject: Re: your turn\r\n"
        b"Message-ID: <" + message_id.encode() + b"@mail.example.org>\r\n" + extra
    )


def nested(to: str, depth: int = 400) -> bytes:
    """``depth`` multipart/mixed parts, each inside the one before (27 KB at 400)."""
    opening = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
        for i in range(depth)
    )
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
    return (
        head(to, f"nested-{depth}", b"MIME-Version: 1.0\r\n")
        + opening
        + b"Content-Type: text/plain\r\n\r\nend\r\n"
        + closing
    )


def many_recipients(to: str, count: int = 60_000) -> bytes:
    """``count`` addresses in To besides ``to`` (868 KB and more at 60,000)."""
    others = b", ".join(b"player%d@example.net" % i for i in range(count))
    return head(to + ", " + others.decode(), f"recipients-{count}") + b"\r\nend\r\n"


def many_fields(to: str, count: int, size: int) -> bytes:
    """``count`` extra header fields of ``size`` bytes each."""
    fields = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"x" * size) for i in range(count))
    return head(to, f"fields-{count}", fields) + b"\r\nend\r\n"


def many_parts(to: str, count: int = 8000) -> bytes:
    """One multipart/mixed with ``count`` small text parts."""
    parts = b"".join(b"--p\r\nContent-Type: text/plain\r\n\r\nend\r\n" for _ in range(count))
    return (
        head(to, f"parts-{count}", b"MIME-Version: 1.0\r\n" + MIXED)
        + b"\r\n"
        + parts
        + b"--p--\r\n"
    )


def deep_comment(to: str, depth: int = 5000) -> bytes:
    """A From whose display name opens ``depth`` comments: within every size limit (5 KB); the
    email package's header parser recurses once per parenthesis (a ``RecursionError``), so
    ``limits.MAX_COMMENT_DEPTH`` refuses it before parsing."""
    mail = head(to, f"comment-{depth}").replace(b"From: " + SENDER, b"From: " + b"(" * depth)
    return mail + b"\r\nend\r\n"


def wrote_lines(count: int = 20) -> str:
    """``count`` lines of 1000 characters of ``On On On ...``: the reply parser's header pattern
    backtracks on each."""
    return "\n".join([("On " * 334)[:1000]] * count)


def cpu_seconds(work: Callable[[], Any]) -> tuple[float, Any]:
    """The CPU time (this process) ``work()`` takes, and what it returned."""
    started = time.process_time()
    result = work()
    return time.process_time() - started, result
