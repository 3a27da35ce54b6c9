"""Serving the page: the listening socket (waitress), the address to open from another phone, its QR code.

``listen`` binds the first free port from the one asked for (a second server of the same file takes
the next); ``share_address`` finds the address to print for the other phones; ``run`` serves until
Ctrl-C, then raises ``KeyboardInterrupt`` (waitress stops its threads first: the page holds no
request open, so it stops at once).

Against a phone (or anything else on the network) that wants to spoil the night, the server bounds what a request
may be and how long a connection may idle: a body over ``MAX_BODY`` is refused (413) before it is read, the request
line and headers over ``MAX_HEADERS`` (431), a connection without a request in progress is closed after
``IDLE_SECONDS``, and when ``CONNECTIONS`` are open a new one closes the one that has been idle longest (a
connection serving a request is never closed): a flood of idle connections can neither fill the server nor keep a
phone out.
"""

from __future__ import annotations

import errno
import ipaddress
import select
import socket
from typing import Any

from ..errors import Message, ServeError
from .security import MAX_BODY, MAX_HEADERS

__all__ = ["CONNECTIONS", "DEFAULT_PORT", "IDLE_SECONDS", "PORTS_TRIED", "bound_port", "listen", "qr_text", "run",
           "share_address"]

DEFAULT_PORT = 8177
PORTS_TRIED = 20
THREADS = 8
# open connections kept (beyond them the longest idle is closed), and the seconds a connection may idle
CONNECTIONS = 100
IDLE_SECONDS = 15
# the errors of an address this machine does not have (Windows numbers its own)
_NOT_HERE = {errno.EADDRNOTAVAIL, getattr(errno, "WSAEADDRNOTAVAIL", 10049)}
# a private address to ask the routing table about (nothing is sent to it)
PROBE = "10.254.254.254"


def _adjustments() -> dict[str, Any]:
    """waitress's settings: the bounds of a request and of a connection's idling (see the module's docstring)."""
    return {"threads": THREADS, "ident": "pinochle", "clear_untrusted_proxy_headers": True,
            "max_request_body_size": MAX_BODY, "max_request_header_size": MAX_HEADERS,
            "channel_timeout": IDLE_SECONDS, "cleanup_interval": 2, "connection_limit": CONNECTIONS + 20,
            # poll() takes any number of sockets (select() at most 1024); Windows has no poll()
            "asyncore_use_poll": hasattr(select, "poll")}


def listen(app: Any, host: str, port: int | None) -> Any:
    """A waitress server for ``app`` on ``host``: ``port``, or the first free one from ``DEFAULT_PORT``."""
    from waitress.server import create_server

    ports = [port] if port is not None else list(range(DEFAULT_PORT, DEFAULT_PORT + PORTS_TRIED))
    for candidate in ports:
        try:
            server = create_server(app, host=host, port=candidate, **_adjustments())
        except ValueError:
            raise ServeError(Message(f"cannot listen on {host!r}: not an address of this machine"),
                             parameter="host") from None
        except socket.gaierror:
            raise ServeError(Message(f"cannot listen on {host!r}: not an address of this machine "
                                     "(no address has that name)"),
                             parameter="host") from None
        except OSError as exc:
            if exc.errno in _NOT_HERE or getattr(exc, "winerror", None) in _NOT_HERE:
                raise ServeError(Message(f"cannot listen on {host!r}: not an address of this machine (its addresses: "
                                         "`hostname -I` on Linux, `ipconfig getifaddr en0` on macOS, `ipconfig` on "
                                         "Windows)"),
                                 parameter="host") from None
            if exc.errno not in (errno.EADDRINUSE, errno.EACCES) or candidate == ports[-1]:
                where = f"port {candidate}" if port is not None else f"ports {ports[0]}-{ports[-1]}"
                raise ServeError(Message(f"cannot listen on {host}, {where}: {exc.strerror or exc}"),
                                 parameter="port") from None
            continue
        _close_idle_first(server)
        return server
    raise AssertionError("unreachable")


def _close_idle_first(server: Any) -> None:
    """Every listening socket of ``server`` makes its connections with ``_channel_class()``."""
    from waitress.server import BaseWSGIServer

    channel = _channel_class()
    for dispatcher in [server, *getattr(server, "map", {}).values()]:
        if isinstance(dispatcher, BaseWSGIServer):
            dispatcher.channel_class = channel


def _channel_class() -> type:
    """waitress's connection, which closes the connections idle longest once ``CONNECTIONS`` are open."""
    from waitress.channel import HTTPChannel

    class Channel(HTTPChannel):
        def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
            super().__init__(server, sock, addr, adj, map)
            # the server's loop makes and closes every connection: no other thread changes the map meanwhile
            channels = [c for c in list((map or {}).values()) if isinstance(c, HTTPChannel)]
            if len(channels) <= CONNECTIONS:
                return
            idle = sorted((c for c in channels if c is not self and not c.requests), key=lambda c: c.last_activity)
            for old in idle[:len(channels) - CONNECTIONS]:
                old.handle_close()

    return Channel


def bound_port(server: Any) -> int:
    return int(server.effective_port)


def run(server: Any) -> None:
    """Serve until Ctrl-C (waitress takes it and stops its threads), then raise ``KeyboardInterrupt``."""
    server.run()
    raise KeyboardInterrupt


def share_address() -> tuple[str, bool]:
    """This machine's address on the local network and True: its name's first non-loopback IPv4, else (the
    name resolves to loopback, as Debian's 127.0.1.1) the address of the interface that routes outward;
    where neither is found, its name and False."""
    name = socket.gethostname()
    try:
        found = [str(sockaddr[0]) for *_rest, sockaddr in socket.getaddrinfo(name, None, socket.AF_INET)]
    except OSError:
        found = []
    for address in [*found, _outward_address()]:
        if address is not None and _usable(address):
            return address, True
    return name, False


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def _outward_address() -> str | None:
    """The local address of the interface that routes toward a private network: "connecting" a UDP socket
    sends nothing, it only picks the route (no network needed)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((PROBE, 9))
            return str(probe.getsockname()[0])
    except OSError:
        return None


# black on white, whatever the terminal's own colours (256-colour codes: the basic white is grey on many terminals)
_DARK_ON_LIGHT = "\x1b[38;5;16;48;5;231m"
_RESET = "\x1b[0m"
# a module drawn as two spaces in its own colour, light (0) or dark (1)
_BACK = {0: "\x1b[48;5;231m", 1: "\x1b[48;5;16m"}


def qr_text(url: str, *, blocks: bool, colours: bool = False) -> list[str]:
    """A QR code of ``url`` to print: two rows a line in half blocks, or (``blocks`` False) ``##`` per dark
    module for a terminal without them.

    ``colours`` (a terminal that shows ANSI colours): dark modules black on white, set by the code itself, so that
    it reads the same on a light terminal and on a dark one. Without colours the terminal's own colours draw it:
    dark modules in the background colour, light ones in the text colour, which reads on a dark terminal
    (light text on dark) and shows inverted on a light one.
    """
    import segno

    matrix = [list(row) for row in segno.make(url, error="l", micro=False).matrix]
    border = 2
    size = len(matrix) + 2 * border
    light = [[0] * size for _ in range(border)]
    rows = light + [[0] * border + [int(bool(v)) for v in row] + [0] * border for row in matrix] + light
    if not blocks:
        if colours:
            return ["".join(_BACK[v] + "  " for v in row) + _RESET for row in rows]
        return ["".join("  " if v else "##" for v in row) for row in rows]
    rows.append([0] * size)
    if colours:
        # the text colour (black) draws the dark modules on the white background
        glyph = {(0, 0): " ", (0, 1): "▄", (1, 0): "▀", (1, 1): "█"}
    else:
        # dark modules print as spaces on a light block: the code reads on a dark terminal
        glyph = {(0, 0): "█", (0, 1): "▀", (1, 0): "▄", (1, 1): " "}
    lines = ["".join(glyph[(a, b)] for a, b in zip(rows[i], rows[i + 1], strict=True))
             for i in range(0, len(rows) - 1, 2)]
    return [_DARK_ON_LIGHT + line + _RESET for line in lines] if colours else lines
