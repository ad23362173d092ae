"""The `phase10` command line: `cli.main` dispatches to one module per subcommand.

Each command module has `COMMAND` (its name on the command line), `HELP` (its
line in `phase10 --help`), `add_parser(subparsers)` and `run(args) -> int`. A
module imports at its top only the standard library (and `web.network`, which
is), so listing the commands stays fast; what a command runs (OpenCV, Flask,
the scorer, the training options) is imported inside it. Training code, and
torch with it, is imported only when `phase10 train` or `train-locator` runs.
"""
