"""The server's VAPID key pair (RFC 8292): push services accept a push only if it is signed with
the private key whose public half the browser subscribed with (``applicationServerKey``).

``VAPID_PRIVATE_KEY`` (a PEM, or the raw 32-byte key in base64url) sets it. Without it, as in
the embedded default, a key is made once and kept in ``VAPID_KEY_FILE`` (under the var folder,
mode 0600), written the way the secret key is (a private temporary file hard-linked into place),
so two processes starting together agree on one key. The key must not change afterwards:
every subscription is bound to it, and a new key silently orphans them all.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import os
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings


def b64url(data: bytes) -> str:
    """base64url without padding, as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def private_key() -> ec.EllipticCurvePrivateKey:
    """The server's P-256 private key (configured, or made once and kept)."""
    return _load(settings.VAPID_PRIVATE_KEY, str(settings.VAPID_KEY_FILE))


def public_key() -> str:
    """The public key as the browser's ``applicationServerKey`` takes it: the uncompressed
    point in base64url."""
    point = (
        private_key()
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return b64url(point)


def subject() -> str:
    """The ``sub`` claim: how a push service's operator reaches this server's (a mailto: or
    https: URL; ``VAPID_SUBJECT``, by default the site's sender address)."""
    configured = str(settings.VAPID_SUBJECT).strip()
    if configured:
        return configured
    sender = str(settings.DEFAULT_FROM_EMAIL).strip().rstrip(">").rpartition("<")[2]
    return f"mailto:{sender}"


@functools.cache
def _load(configured: str, path: str) -> ec.EllipticCurvePrivateKey:
    if configured.strip():
        return parse_private_key(configured)
    return parse_private_key(load_or_create_pem(Path(path)))


def parse_private_key(text: str) -> ec.EllipticCurvePrivateKey:
    """A P-256 private key from a PEM or from the raw 32-byte scalar in base64url."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(text.encode(), password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
            raise ValueError("VAPID_PRIVATE_KEY must be a P-256 (prime256v1) EC key")
        return key
    raw = b64url_decode(text)
    if len(raw) != 32:
        raise ValueError("VAPID_PRIVATE_KEY: a PEM, or 32 bytes in base64url")
    return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())


def load_or_create_pem(path: Path) -> str:
    """The PEM kept in ``path``, made there (mode 0600) the first time."""
    if path.exists():
        return path.read_text()
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=".vapid.")  # mode 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(pem)
        with contextlib.suppress(FileExistsError):  # another process won the race: use its key
            os.link(tmp_name, path)
    finally:
        os.unlink(tmp_name)
    return path.read_text()
