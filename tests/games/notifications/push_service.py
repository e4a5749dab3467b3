"""A push service on 127.0.0.1 for the tests (no internet): it takes a push's POST as a real one
(Mozilla's autopush, Google's FCM) would, checks its VAPID signature and decrypts it with the
browser's private key, which the test made (``Browser``).

What the server must do to be accepted is what RFC 8292 (VAPID) and RFC 8291 (message
encryption) say: an ``Authorization: vapid t=<JWT>, k=<public key>`` header whose JWT is ES256-
signed by that key, with ``aud`` the endpoint's origin, an ``exp`` in the next 24 hours and a
``sub``; a body in ``aes128gcm`` encrypted to the subscription's key and auth secret.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """The browser's side of a subscription: its P-256 key pair and auth secret."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


@dataclass
class Push:
    """One push received: where, the checked VAPID claims and public key, the raw body."""

    path: str
    headers: dict[str, str]
    claims: dict[str, Any]
    vapid_key: str
    body: bytes


def check_vapid(header: str, origin: str) -> tuple[dict[str, Any], str]:
    """The claims and public key of a ``vapid t=..., k=...`` header; AssertionError when the
    signature, the audience or the expiry is wrong."""
    scheme, _, rest = header.partition(" ")
    assert scheme == "vapid", header
    parts = dict(part.strip().split("=", 1) for part in rest.split(","))
    token, key = parts["t"], parts["k"]
    head, payload, signature = token.split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    try:
        public.verify(der, f"{head}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature as error:
        raise AssertionError("the VAPID JWT's signature does not match its key") from error
    claims = json.loads(unb64url(payload))
    assert claims["aud"] == origin, claims
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims
    assert claims["sub"].startswith(("mailto:", "https:")), claims
    return claims, key


class PushService:
    """A threaded HTTP server; ``status`` per path (201 by default) is what it answers."""

    def __init__(self) -> None:
        self.pushes: list[Push] = []
        self.status: dict[str, int] = {}
        self.errors: list[str] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                try:
                    claims, key = check_vapid(self.headers["Authorization"], service.origin)
                    assert self.headers["Content-Encoding"] == "aes128gcm"
                    assert int(self.headers["TTL"]) > 0
                except (AssertionError, KeyError, ValueError) as error:
                    service.errors.append(f"{self.path}: {error!r}")
                    self.send_response(401)
                    self.end_headers()
                    return
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.pushes.append(Push(self.path, headers, claims, key, body))
                self.send_response(service.status.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                """Silent: the base class writes every request to stderr, into the test output."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        # serve_forever looks for shutdown() between polls: 0.05 s, not the default 0.5 s that
        # every test's teardown waited out.
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
