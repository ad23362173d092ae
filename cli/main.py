"""The `phase10` command line: a thin dispatcher over one module per subcommand.

Each subcommand lives in `cli.<module>` (see `cli/__init__.py` for what a module
has); adding a command means adding its module and one name below. Only the
chosen command builds its full parser: the others are listed in `--help` by
their `HELP` line, so `phase10 serve` never imports what `phase10 train` needs.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from importlib import metadata

#: Subcommand modules under cli, in the order `--help` lists them.
COMMANDS: tuple[str, ...] = (
    "score", "read", "teach", "doctor", "qr", "serve", "odds", "train", "train_locator",
    "eval_model",
)


def package_version() -> str:
    """The installed package's version (pyproject.toml's), or "unknown" when not installed."""
    try:
        return metadata.version("phase10-dice")
    except metadata.PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand the words name: the first that is not an option (the top-level
    options take no value), or None when there is none (`phase10 --help`)."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for these words (default: every command's full parser).

    With `argv`, only the command it names gets its arguments; the others are
    placeholders with their help line, so `--help` and "invalid choice" read the same.
    """
    chosen = None if argv is None else chosen_command(argv)
    parser = argparse.ArgumentParser(
        prog="phase10", description="Phase 10 Dice companion: scorer, camera reader, scorepad."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"cli.{name}")
        if argv is None or module.COMMAND == chosen:
            sub = module.add_parser(subparsers)
            sub.set_defaults(handler=module.run)
        else:
            subparsers.add_parser(module.COMMAND, help=module.HELP)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(words)
    args = parser.parse_args(words)
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
