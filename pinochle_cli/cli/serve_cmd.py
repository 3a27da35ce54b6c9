"""``pinochle serve FILE``: the score page over a record file, for every phone at the table."""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import sys

import click

from ..errors import ServeError
from .chart_view import prints
from .common import CONTEXT_SETTINGS

INSTALL = 'pinochle serve needs its extra: pip install "pinochle-cli[serve]" (Flask, waitress, segno)'


def _check_extra() -> None:
    missing = [m for m in ("flask", "waitress", "segno") if importlib.util.find_spec(m) is None]
    if missing:
        raise ServeError(INSTALL)


# the addresses that listen on every interface, loopback included
EVERY = ("0.0.0.0", "::")
NOT_FOUND = ("(No network address of this machine was found, so its name is shown: if the phones cannot open "
             "it, give --host the machine's address; see `pinochle docs serve`.)")


def _colours() -> bool:
    """Whether stdout is a terminal that shows ANSI colours (not asked to go without: ``NO_COLOR``, ``TERM=dumb``;
    on Windows, the Windows Terminal)."""
    if not sys.stdout.isatty() or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return os.name != "nt" or "WT_SESSION" in os.environ


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


@click.command("serve", context_settings=CONTEXT_SETTINGS)
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False, exists=True))
@click.option("--host", metavar="ADDR", default=None,
              help="The address to listen on [default: 127.0.0.1, this machine only; with --share: every address].")
@click.option("--port", type=click.IntRange(0, 65535), default=None, metavar="N",
              help="The port (0: any free one) [default: the first free one from 8177].")
@click.option("--share", is_flag=True, help="Let the other phones on the network open the page: prints its address, "
              "a QR code of it and the PIN that lets a phone enter deals.")
def serve(path: str, host: str | None, port: int | None, share: bool) -> None:
    """A live score page over the record FILE, for every phone at the table.

    The page shows the match's title, the standing, a chart of the running totals and the deals,
    and updates by itself within a second when FILE changes (also when `record add` writes it).
    Deals are entered on the page with the same fields and checks as `record add`, undone and
    redone; every change is the same locked, atomic write, and names the version of the sheet it
    was made on: a form left open while the sheet changed is refused ("the sheet changed: here it
    is now"), a form sent twice is applied once. Off this machine (--share, or a --host that is not
    loopback) a phone must enter the PIN printed here before it may change the record; a phone
    that sends wrong PINs waits longer after each, the others do not. Ctrl-C stops the server.
    """
    _check_extra()
    from ..serve.app import create_app
    from ..serve.security import Guard, hosts_for, new_pin
    from ..serve.server import bound_port, listen, qr_text, run, share_address
    from ..serve.snapshot import read_snapshot

    read_snapshot(path)
    address = host or ("0.0.0.0" if share else "127.0.0.1")
    shown, found = share_address() if address in EVERY else (address, True)
    hosts = hosts_for(address, shown, loopback=_loopback(address) or address in EVERY)
    guard = Guard(None if _loopback(address) else new_pin(), hosts=hosts)
    server = listen(create_app(path, guard), address, port)
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{bound_port(server)}/"
    click.echo(f"Serving {path} at {url}")
    if not found:
        click.echo(NOT_FOUND)
    if guard.pin is not None:
        if share:
            click.echo("\n".join(qr_text(url, blocks=prints("█▀▄"), colours=_colours())))
        click.echo(f"PIN to enter deals: {guard.pin}")
    click.echo("Ctrl-C stops the server.")
    run(server)
