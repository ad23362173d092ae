"""`phase10 qr URL`: draw the scorepad's address as a QR code in the terminal.

The installer ends with it, so the players at the table open the page by
pointing their phone's camera at the screen instead of typing an address.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

COMMAND = "qr"
HELP = "show a QR code of an address, for phones to scan"


#: File types segno can save, for --save.
SAVE_SUFFIXES = (".png", ".svg", ".pdf", ".eps", ".txt")


def checked_url(text: str) -> str:
    """The address if a phone can open it (http or https with a host), else a ValueError."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{text!r} is not a web address: expected e.g. http://phase10.local:8000")
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise ValueError(f"{text!r} has a bad port number") from None
    return text.strip()


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        COMMAND, help=HELP,
        description="Print a QR code of URL in the terminal (and optionally save it).",
    )
    parser.add_argument("url", help="the address, e.g. http://phase10.local:8000")
    parser.add_argument("--compact", action="store_true",
                        help="half-height drawing with block characters (needs a UTF-8 terminal)")
    parser.add_argument("--save", type=Path, metavar="FILE",
                        help=f"also save it to FILE ({', '.join(SAVE_SUFFIXES)}), e.g. to print")
    return parser


def run(args: argparse.Namespace) -> int:
    import segno

    url = checked_url(args.url)
    if args.save is not None and args.save.suffix.lower() not in SAVE_SUFFIXES:
        endings = ", ".join(SAVE_SUFFIXES)
        raise ValueError(f"--save {args.save}: expected a file ending in {endings}")
    code = segno.make(url, error="m", micro=False)
    code.terminal(out=sys.stdout, compact=args.compact)
    print(url)
    if args.save is not None:
        code.save(str(args.save), scale=8, border=4)
        print(f"saved {args.save}")
    return 0
