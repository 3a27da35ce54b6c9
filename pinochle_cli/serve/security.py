"""What keeps the page safe on a shared network: the PIN and the cookie that proves it, the token every form
carries, the checks of a post's origin and of every request's Host (against DNS rebinding: a page of
another site whose name is pointed at this machine), and the limits on what a request may send.

Wrong PINs are counted per client address (``Guesses``): after ``PIN_FREE`` wrong PINs from one address, that
address waits before its next try, twice as long after each further wrong one (up to ``PIN_PAUSE_MAX``), while
the right PIN from any other phone is taken at once: a guesser slows itself down and locks no one else out.

Nothing here knows the web framework: the app passes headers, cookies and fields in and acts on
the answers. Every secret comes from ``secrets``; every comparison is in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

__all__ = ["CSRF_COOKIE", "LOCAL_NAMES", "MAX_BODY", "MAX_FIELD", "MAX_FIELDS", "MAX_HEADERS", "PIN_COOKIE",
           "PIN_FREE", "PIN_PAUSE_MAX", "Guard", "Guesses", "fields_ok", "host_name", "hosts_for", "json_fields",
           "new_pin"]

# a deal's form is well under a kilobyte
MAX_BODY = 16 * 1024
# the request line and headers together
MAX_HEADERS = 16 * 1024
MAX_FIELD = 200
MAX_FIELDS = 40
# wrong PINs one client address may send before it waits; its first wait, doubled after each wrong PIN, up to the last
PIN_FREE = 3
PIN_PAUSE_FIRST = 1.0
PIN_PAUSE_MAX = 300.0
# the client addresses remembered (the oldest forgotten first)
PIN_CLIENTS = 4096
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
class _Client:
    wrong: int = 0
    # monotonic time before which this client's next PIN is not looked at
    until: float = 0.0


class Guesses:
    """Wrong PINs counted per client address: each client's own growing wait (``PIN_FREE`` free tries, then
    ``PIN_PAUSE_FIRST`` seconds doubled after each wrong PIN, at most ``PIN_PAUSE_MAX``); ``clock``: for tests."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.clients: OrderedDict[str, _Client] = OrderedDict()
        self.lock = threading.Lock()

    def wait(self, client: str) -> float:
        """Seconds ``client`` must still wait before a PIN of its is looked at (0: none)."""
        with self.lock:
            found = self.clients.get(client)
            return 0.0 if found is None else max(0.0, found.until - self.clock())

    def wrong(self, client: str) -> None:
        with self.lock:
            found = self.clients.pop(client, None) or _Client()
            found.wrong += 1
            if found.wrong >= PIN_FREE:
                pause = min(PIN_PAUSE_MAX, PIN_PAUSE_FIRST * 2 ** (found.wrong - PIN_FREE))
                found.until = self.clock() + pause
            self.clients[client] = found
            while len(self.clients) > PIN_CLIENTS:
                self.clients.popitem(last=False)

    def right(self, client: str) -> None:
        with self.lock:
            self.clients.pop(client, None)


@dataclass
class Guard:
    """One server's secrets: its PIN (None: no PIN needed, on this machine only) and the key of its cookies."""

    pin: str | None
    # the names a request's Host may give (without the port)
    hosts: frozenset[str] = LOCAL_NAMES
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    guesses: Guesses = field(default_factory=Guesses)

    def _sign(self, what: str) -> str:
        return hmac.new(self.key, what.encode(), hashlib.sha256).hexdigest()

    # ----------------------------------------------------------------- the PIN

    def writer_cookie(self) -> str:
        """The cookie value of a phone that entered the PIN (good while this server runs)."""
        return self._sign(f"writer:{self.pin}")

    def may_change(self, cookies: Mapping[str, str]) -> bool:
        return self.pin is None or _same(cookies.get(PIN_COOKIE), self.writer_cookie())

    def check_pin(self, typed: str, client: str = "") -> tuple[str, float]:
        """``ok``, ``wrong`` or ``wait`` (this client address sent too many wrong PINs: its PIN is not looked at
        for the seconds given), and the seconds this client must wait before its next try."""
        waiting = self.guesses.wait(client)
        if waiting > 0:
            return "wait", waiting
        if self.pin is not None and _same(typed.strip(), self.pin):
            self.guesses.right(client)
            return "ok", 0.0
        self.guesses.wrong(client)
        return "wrong", self.guesses.wait(client)

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


def fields_ok(form: Mapping[str, str], names: Sequence[str] = ()) -> str | None:
    """What is wrong with a form's fields (too many, one given twice, one too long), or None; ``names``: every
    field name as sent, repeats included."""
    if len(form) > MAX_FIELDS or len(names) > MAX_FIELDS:
        return f"more than {MAX_FIELDS} fields"
    twice = sorted({n for n in names if list(names).count(n) > 1})
    if twice:
        return f"the field {twice[0][:40]!r} is given more than once"
    for name, value in form.items():
        if len(name) > MAX_FIELD or len(value) > MAX_FIELD:
            return f"the field {name[:40]!r} is longer than {MAX_FIELD} characters"
    return None


# a Host header: a name of letters, digits, dots, dashes and underscores, an IPv4 address or an IPv6 one in
# brackets, then perhaps a port of 1 to 5 digits
_HOST = re.compile(r"(?P<name>[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::(?P<port>[0-9]{1,5}))?")


def host_name(header: str | None) -> str | None:
    """The name in a Host header (``name``, ``name:port``, ``[v6]:port``), lowercase, without a final dot;
    None for a header that is not one (a character a name cannot hold, a port that is not one)."""
    if not header:
        return None
    found = _HOST.fullmatch(header.strip())
    if found is None or (found["port"] is not None and not 0 < int(found["port"]) < 65536):
        return None
    name = found["name"].lower()
    name = name[1:-1] if name.startswith("[") else name
    return name.rstrip(".") or None


def hosts_for(address: str, shown: str | None, *, loopback: bool, also: tuple[str, ...] = ()) -> frozenset[str]:
    """The names a Host may give for a server listening on ``address``: the address itself, the address
    printed for the other phones (``shown``), ``also`` (e.g. this machine's name), and this machine's own
    names where ``loopback`` (a loopback address, or every address)."""
    names = {address, *([shown] if shown else []), *also}
    found = {n for n in (host_name(name if ":" not in name else f"[{name}]") for name in names) if n}
    return frozenset(found | (LOCAL_NAMES if loopback else set()))


def json_fields(data: bytes) -> dict[str, str] | str:
    """A JSON body's fields (one object of strings and numbers, each key once), or what is wrong with it."""

    def once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:
            raise ValueError(f"the key {twice[0][:40]!r} is given more than once")
        return dict(pairs)

    try:
        doc = json.loads(data.decode("utf-8"), object_pairs_hook=once)
    except (ValueError, RecursionError) as exc:
        return f"not JSON: {exc}" if not isinstance(exc, RecursionError) else "not JSON: nested too deeply"
    if not isinstance(doc, dict) or not all(isinstance(v, (str, int)) and not isinstance(v, bool)
                                            for v in doc.values()):
        return "a JSON body is one object of strings and numbers"
    return {k: str(v) for k, v in doc.items()}
