"""``manage.py fetch_mail``: read replies from a mailbox, for operators without a mail provider.

Two sources, each mail handed to the one inbound service (``games.mail.intake.receive_mail``), as
the anymail webhook does:

- ``--maildir PATH``: a Maildir (e.g. what a local MTA or fetchmail delivers to). Each message
  in ``new/`` is read and then moved to ``cur/`` marked seen (``S``), so the next run skips it;
  a message the service *parks* (over a size or shape limit, or its processing failed: see
  ``games.mail.intake``) goes to the Maildir++ folder ``.Quarantine`` instead (its own ``cur/``),
  for an operator to look at, and the run goes on with the next. The files are moved by name (the
  Maildir way: a rename), never parsed here: ``mailbox``'s ``get_message`` would parse each mail
  before the service's limits are checked.
- IMAP (``--imap URL`` or ``MAIL_IMAP_URL``): ``imaps://user:password@host[:port]/FOLDER``
  (``imap://`` for plain IMAP with STARTTLS when the server offers it; folder ``INBOX`` when left
  out; user and password percent-encoded). The UNSEEN messages are fetched with ``BODY.PEEK[]``
  and flagged ``\\Seen`` once processed, so a run that crashes half-way reads the rest again
  (the service recognises a mail it already processed by its Message-ID); a parked one is
  flagged ``\\Flagged`` too.

Each mail on its own: the service never raises for a mail's sake. If it raises all the same,
the database cannot be written (not even to park the mail): the run stops there, the mail and
the rest stay unread for the next run, and the command exits with an error.

Run it from cron or a systemd timer (every minute is plenty for correspondence play). Prints one
line per mail and a total.
"""

from __future__ import annotations

import contextlib
import imaplib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.mail.intake import InboundResult, receive_mail

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


#: The Maildir++ folder parked mails are moved to.
QUARANTINE = ".Quarantine"


def read_maildir(path: Path) -> Iterator[tuple[str, InboundResult]]:
    """Process the messages in ``path``'s ``new/`` (up to ``BATCH``, oldest name first); each
    moves to ``cur/``, or to the quarantine folder's ``cur/`` when the service parked it."""
    if not (path / "new").is_dir():
        raise CommandError(f"{path} is not a Maildir (it has no new/ folder)")
    names = sorted(p.name for p in (path / "new").iterdir() if not p.name.startswith("."))
    for name in names[:BATCH]:
        source = path / "new" / name
        try:
            raw = source.read_bytes()
        except FileNotFoundError:  # taken by another run at the same moment
            continue
        try:
            result = receive_mail(raw)
        except Exception as exc:
            raise CommandError(
                f"{name}: the mail could not be processed nor parked ({type(exc).__name__}: "
                f"{exc}); it and the mails after it stay in new/ for the next run"
            ) from exc
        folder = _quarantine(path) if result.outcome == "parked" else path
        with contextlib.suppress(FileNotFoundError):
            source.rename(folder / "cur" / f"{name.split(':', 1)[0]}:2,S")
        yield name, result


def _quarantine(path: Path) -> Path:
    """The Maildir's quarantine folder (Maildir++: ``.Quarantine`` with its own ``new``,
    ``cur`` and ``tmp``, and a ``maildirfolder`` file), made on first use."""
    folder = path / QUARANTINE
    for sub in ("new", "cur", "tmp"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "maildirfolder").touch()
    return folder


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
        for uid in (number.decode() for number in uids):
            _, fetched = client.uid("FETCH", uid, "(BODY.PEEK[])")
            raw = next((part[1] for part in fetched if isinstance(part, tuple)), None)
            if raw is None:
                continue
            result = receive_mail(raw)  # raises only when the database is down: stop here
            flags = "(\\Seen \\Flagged)" if result.outcome == "parked" else "(\\Seen)"
            client.uid("STORE", uid, "+FLAGS", flags)
            yield f"imap uid {uid}", result
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            client.logout()
