"""This machine's address on the local network, for the printed and the on-page QR codes."""

from __future__ import annotations

import socket
from typing import Final

#: The name the Pi announces on the local network (see deploy/).
MDNS_NAME: Final[str] = "phase10.local"
_LOOPBACK: Final[tuple[str, ...]] = ("127.", "localhost", "[::1]", "::1")


def lan_address() -> str:
    """The address other devices reach this one at (no packet is sent), else 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def shareable_url(host_url: str, host: str) -> str:
    """The page's address, with a loopback host replaced by the LAN address (phones can't
    open the Pi's 127.0.0.1)."""
    if not host.startswith(_LOOPBACK):
        return host_url
    port = host.rsplit(":", 1)[1] if host.count(":") == 1 else None
    return f"http://{lan_address()}{':' + port if port else ''}/"
