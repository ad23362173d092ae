"""The `phase10` command line: a thin dispatcher over one module per subcommand.

Each subcommand lives in `web.commands.<name>` with `add_parser(subparsers)` and
`run(args) -> int`; adding a command means adding its module and one name below.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from importlib import metadata

#: Subcommand modules under web.commands, in the order `--help` lists them.
COMMANDS: tuple[str, ...] = (
    "score", "read", "doctor", "qr", "serve", "odds", "train", "train_locator", "eval_model",
)


def package_version() -> str:
    """The installed package's version (pyproject.toml's), or "unknown" when not installed."""
    try:
        return metadata.version("phase10-dice")
    except metadata.PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="phase10", description="Phase 10 Dice companion: scorer, camera reader, scorepad."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"web.commands.{name}")
        sub = module.add_parser(subparsers)
        sub.set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except ValueError as error:  # the scorer's and config's errors name the bad input
        print(f"phase10 {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
