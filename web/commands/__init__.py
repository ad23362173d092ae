"""One module per `phase10` subcommand: each has `add_parser(subparsers)` and `run(args)`.

Modules import their heavy dependencies inside `run`, so `phase10 --help` stays fast.
"""
