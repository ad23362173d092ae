"""This machine's address on the local network, for the printed and the on-page QR codes."""

from __future__ import annotations

import socket
from typing import Final

#: The name the Pi announces on the local network (see deploy/).
MDNS_NAME: Final[str] = "phase10.local"
_LOOPBACK: Final[tuple[str, ...]] = ("127.", "localhost", "[::1]", "::1")
#: Listening addresses that mean "every interface".
EVERY_INTERFACE: Final[tuple[str, ...]] = ("0.0.0.0", "::", "")


def lan_address() -> str:
    """The address other devices reach this one at (no packet is sent), else 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or address, with or without a port) is this machine only."""
    return host.startswith(_LOOPBACK)


def shareable_url(host_url: str, host: str, listen_host: str = "0.0.0.0") -> str:
    """The page's address for other phones.

    A page opened at a loopback host (127.0.0.1, localhost) gets the address the
    server listens on instead: the LAN address when it listens on every interface,
    else the one address it listens on (phones can't open the Pi's 127.0.0.1). A
    server that listens on loopback only cannot be reached from another phone at
    all; its own address is kept rather than advertise one it does not answer on.
    """
    if not is_loopback(host) or is_loopback(listen_host):
        return host_url
    port = host.rsplit(":", 1)[1] if host.count(":") == 1 else None
    address = lan_address() if listen_host in EVERY_INTERFACE else listen_host
    if ":" in address:
        address = f"[{address}]"
    return f"http://{address}{':' + port if port else ''}/"
