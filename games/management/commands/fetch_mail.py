"""``manage.py fetch_mail``: read replies from a mailbox, for operators without a mail provider.

Two sources, each mail handed to the one inbound service (``inbound_mail.receive_mail``), as
the anymail webhook does:

- ``--maildir PATH``: a Maildir (``mailbox.Maildir``; e.g. what a local MTA or fetchmail
  delivers to). Each message in ``new/`` is read and then moved to ``cur/`` marked seen (``S``),
  so the next run skips it.
- IMAP (``--imap URL`` or ``MAIL_IMAP_URL``): ``imaps://user:password@host[:port]/FOLDER``
  (``imap://`` for plain IMAP with STARTTLS when the server offers it; folder ``INBOX`` when left
  out; user and password percent-encoded). The UNSEEN messages are fetched with ``BODY.PEEK[]``
  and flagged ``\\Seen`` once processed, so a run that crashes half-way reads the rest again
  (the service recognises a mail it already processed by its Message-ID).

Run it from cron or a systemd timer (every minute is plenty for correspondence play). Prints one
line per mail and a total.
"""

from __future__ import annotations

import contextlib
import imaplib
import mailbox
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services.inbound_mail import InboundResult, receive_mail

#: Messages one run reads at most (the rest wait for the next run).
BATCH = 200


class Command(BaseCommand):
    help = "Read move replies from a Maildir or an IMAP mailbox and apply them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--maildir", type=Path, help="A Maildir to read (new/ -> cur/).")
        parser.add_argument(
            "--imap", default="", help="imaps://user:password@host[:port]/FOLDER (MAIL_IMAP_URL)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["maildir"] is not None:
            results = self._report(read_maildir(options["maildir"]))
        else:
            url = options["imap"] or settings.MAIL_IMAP_URL
            if not url:
                raise CommandError("give --maildir PATH, or --imap URL (or set MAIL_IMAP_URL)")
            results = self._report(read_imap(url))
        self.stdout.write(f"{results} mail(s) processed")

    def _report(self, results: Iterator[tuple[str, InboundResult]]) -> int:
        count = 0
        for name, result in results:
            count += 1
            line = f"{name}: {result.outcome}"
            if result.applied:
                line += f", applied {len(result.applied)}"
            if result.refusal:
                line += f" ({result.refusal})"
            self.stdout.write(line)
        return count


def read_maildir(path: Path) -> Iterator[tuple[str, InboundResult]]:
    """Process the messages in ``path``'s ``new/``; each moves to ``cur/`` once processed."""
    if not (path / "new").is_dir():
        raise CommandError(f"{path} is not a Maildir (it has no new/ folder)")
    box = mailbox.Maildir(path, factory=None, create=False)
    for key in sorted(box.iterkeys())[:BATCH]:
        message = box.get_message(key)
        if message.get_subdir() != "new":
            continue
        result = receive_mail(box.get_bytes(key))
        message.set_subdir("cur")
        message.add_flag("S")
        box[key] = message
        yield key, result


def read_imap(url: str) -> Iterator[tuple[str, InboundResult]]:
    """Process the UNSEEN messages of the folder in ``url``; each is flagged seen once done."""
    parts = urlsplit(url)
    if parts.scheme not in ("imap", "imaps") or not parts.hostname:
        raise CommandError("the IMAP URL is imaps://user:password@host[:port]/FOLDER")
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    client: imaplib.IMAP4
    if parts.scheme == "imaps":
        client = imaplib.IMAP4_SSL(parts.hostname, parts.port or 993, timeout=60)
    else:
        client = imaplib.IMAP4(parts.hostname, parts.port or 143, timeout=60)
        if "STARTTLS" in client.capabilities:
            client.starttls()
    try:
        client.login(unquote(parts.username or ""), unquote(parts.password or ""))
        status, _ = client.select(folder)
        if status != "OK":
            raise CommandError(f"the IMAP folder {folder!r} cannot be opened")
        _, data = client.uid("SEARCH", "UNSEEN")
        uids = (data[0] or b"").split()[:BATCH]
        for uid in uids:
            _, fetched = client.uid("FETCH", uid, "(BODY.PEEK[])")
            raw = next((part[1] for part in fetched if isinstance(part, tuple)), None)
            if raw is None:
                continue
            result = receive_mail(raw)
            client.uid("STORE", uid, "+FLAGS", "(\\Seen)")
            yield f"imap uid {uid.decode()}", result
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            client.logout()
