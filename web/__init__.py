"""The scorepad web app and its SQLite store (the `phase10` command line is in `cli`)."""
