"""Benchmark: the CPU time one hostile mail costs the intake, against the ~0.2 s promised.

For each shape that stopped the intake or cost seconds (400 nested ``multipart/mixed`` parts,
60,000 ``To:`` addresses, 8,000 parts, a ``From`` that makes the email package's header parser
recurse, 20 lines of ``On On On ...``) and an ordinary Gmail reply: the CPU seconds (process
time, best of 3) of the limits check on the raw bytes (``games.mail.core.limits.refusal``), of
reading the mail (``reading.read_mail`` + ``reply_text``, for the mails within the limits), and
of the reply cutter alone on the text shapes. The service's own database work comes on top (a
row and, maybe, an answer mail: milliseconds). Asserts nothing; rows over 0.2 s are flagged.

    .venv/bin/python bench/mail_cpu.py
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's games and tests packages

from games.mail.core import limits, reading  # noqa: E402
from tests.games import mail_shapes  # noqa: E402

TO = "moves+1.0.1.0123456789abcdef0123@warboard.example.org"
HTML = b"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n"
BUDGET = 0.2


def best_of(work: Callable[[], Any], times: int = 3) -> float:
    best = float("inf")
    for _ in range(times):
        started = time.process_time()
        with contextlib.suppress(RecursionError, reading.UnreadableMail):  # its cost counts
            work()
        best = min(best, time.process_time() - started)
    return best


def read(raw: bytes) -> None:
    reading.reply_text(reading.read_mail(raw).text)


def main() -> None:
    gmail = (ROOT / "tests/games/data/mail/gmail_reply.eml").read_bytes()
    mails = {
        "ordinary Gmail reply": gmail.replace(b"%REPLY_TO%", TO.encode()),
        "400 nested multipart/mixed": mail_shapes.nested(TO),
        "60,000 To addresses": mail_shapes.many_recipients(TO),
        "8,000 parts": mail_shapes.many_parts(TO),
        "10 nested (the limit)": mail_shapes.nested(TO, depth=10),
        "200 parts (within)": mail_shapes.many_parts(TO, count=199),
        "100 To addresses (within)": mail_shapes.many_recipients(TO, count=100),
        "From with 5,000 '('": mail_shapes.deep_comment(TO),
        "From with 10 '(' (the limit)": mail_shapes.deep_comment(TO, depth=10),
        "250 KB of HTML (within)": mail_shapes.head(TO, "html", HTML)
        + b"\r\n"
        + b"<div><p>end</p><br>" * 12_500,
        "16 KB Subject of encoded words": mail_shapes.head(TO, "subject").replace(
            b"Subject: Re: your turn", b"Subject: " + b"=?utf-8?q?x?= " * 1150
        )
        + b"\r\nend\r\n",
        "8 KB Cc of quoted names": mail_shapes.head(
            TO, "cc", b"Cc: " + b'"a\\"b", ' * 900 + b"\r\n"
        )
        + b"\r\nend\r\n",
    }
    print(f"{'mail':32} {'bytes':>9} {'limits s':>9} {'read s':>9}  outcome")
    for name, raw in mails.items():
        check = best_of(lambda raw=raw: limits.refusal(raw))
        refused = limits.refusal(raw)
        if refused is None:
            cost = best_of(lambda raw=raw: read(raw))
            try:
                read(raw)
                outcome = "read"
            except RecursionError:
                outcome = "RecursionError: parked by the service"
            except reading.UnreadableMail as exc:
                outcome = f"ignored: {exc}"
        else:
            cost, outcome = 0.0, f"refused: {refused}"
        flag = "  OVER" if check + cost > BUDGET else ""
        print(f"{name:32} {len(raw):>9} {check:>9.4f} {cost:>9.4f}  {outcome}{flag}")
    text = mail_shapes.wrote_lines(20)
    cost = best_of(lambda: reading.reply_text(text))
    flag = "  OVER" if cost > BUDGET else ""
    print(f"{'20 lines of On On On (text)':32} {len(text):>9} {'':>9} {cost:>9.4f}  cut{flag}")


if __name__ == "__main__":
    main()
