"""What keeps the page safe on a shared network: the PIN and the cookie that proves it, the token every form
carries, the checks of a post's origin and of every request's Host (against DNS rebinding: a page of
another site whose name is pointed at this machine), and the limits on what a request may send.

Nothing here knows the web framework: the app passes headers, cookies and fields in and acts on
the answers. Every secret comes from ``secrets``; every comparison is in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

__all__ = ["CSRF_COOKIE", "LOCAL_NAMES", "MAX_BODY", "MAX_FIELD", "MAX_FIELDS", "PIN_COOKIE", "PIN_TRIES", "Guard",
           "fields_ok", "host_name", "hosts_for", "new_pin"]

# a deal's form is well under a kilobyte
MAX_BODY = 16 * 1024
MAX_FIELD = 200
MAX_FIELDS = 40
# wrong PINs allowed in a row before the PIN is refused for PIN_PAUSE seconds
PIN_TRIES = 5
PIN_PAUSE = 60.0
PIN_DIGITS = 6
CSRF_COOKIE = "pinochle_form"
PIN_COOKIE = "pinochle_writer"
# the names of this machine itself, good in a Host header wherever the server listens on loopback
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def _same(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and hmac.compare_digest(a.encode(), b.encode())


@dataclass
class Guard:
    """One server's secrets: its PIN (None: no PIN needed, on this machine only) and the key of its cookies."""

    pin: str | None
    # the names a request's Host may give (without the port)
    hosts: frozenset[str] = LOCAL_NAMES
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    _wrong: int = 0
    _paused_until: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _sign(self, what: str) -> str:
        return hmac.new(self.key, what.encode(), hashlib.sha256).hexdigest()

    # ----------------------------------------------------------------- the PIN

    def writer_cookie(self) -> str:
        """The cookie value of a phone that entered the PIN (good while this server runs)."""
        return self._sign(f"writer:{self.pin}")

    def may_change(self, cookies: Mapping[str, str]) -> bool:
        return self.pin is None or _same(cookies.get(PIN_COOKIE), self.writer_cookie())

    def check_pin(self, typed: str) -> str:
        """``ok``, ``wrong`` or ``paused`` (too many wrong PINs in a row: no PIN is taken for a minute)."""
        with self._lock:
            if time.monotonic() < self._paused_until:
                return "paused"
            if self.pin is not None and _same(typed.strip(), self.pin):
                self._wrong = 0
                return "ok"
            self._wrong += 1
            if self._wrong >= PIN_TRIES:
                self._wrong = 0
                self._paused_until = time.monotonic() + PIN_PAUSE
            return "wrong"

    def host_ok(self, header: str | None) -> bool:
        """The Host a request names is this server's (any port): a page of another site, its name pointed at
        this machine, names its own."""
        name = host_name(header)
        return name is not None and name in self.hosts

    # ----------------------------------------------------------------- the forms

    @staticmethod
    def new_form_cookie() -> str:
        return secrets.token_urlsafe(24)

    def form_token(self, form_cookie: str) -> str:
        """The token a form carries: tied to the browser's own form cookie, which another site cannot read."""
        return self._sign(f"form:{form_cookie}")

    def form_ok(self, cookies: Mapping[str, str], token: str | None) -> bool:
        cookie = cookies.get(CSRF_COOKIE)
        return cookie is not None and _same(token, self.form_token(cookie))

    @staticmethod
    def same_origin(headers: Mapping[str, str], host: str | None) -> bool:
        """A post's Origin (or, without one, its Referer) names this server's host; a post that names neither
        is judged by its form token alone."""
        source = headers.get("Origin") or headers.get("Referer")
        if not source or source == "null":
            return source is None
        return host is not None and urlsplit(source).netloc.lower() == host.lower()


def fields_ok(form: Mapping[str, str]) -> str | None:
    """What is wrong with a form's fields (too many, one too long), or None."""
    if len(form) > MAX_FIELDS:
        return f"more than {MAX_FIELDS} fields"
    for name, value in form.items():
        if len(name) > MAX_FIELD or len(value) > MAX_FIELD:
            return f"the field {name[:40]!r} is longer than {MAX_FIELD} characters"
    return None


def host_name(header: str | None) -> str | None:
    """The name in a Host header (``name``, ``name:port``, ``[v6]:port``), lowercase, without a final dot;
    None for a header that is not one."""
    if not header:
        return None
    try:
        name = urlsplit(f"//{header.strip()}").hostname
    except ValueError:
        return None
    return name.rstrip(".") if name else None


def hosts_for(address: str, shown: str | None, *, loopback: bool, also: tuple[str, ...] = ()) -> frozenset[str]:
    """The names a Host may give for a server listening on ``address``: the address itself, the address
    printed for the other phones (``shown``), ``also`` (e.g. this machine's name), and this machine's own
    names where ``loopback`` (a loopback address, or every address)."""
    names = {address, *([shown] if shown else []), *also}
    found = {n for n in (host_name(name if ":" not in name else f"[{name}]") for name in names) if n}
    return frozenset(found | (LOCAL_NAMES if loopback else set()))
