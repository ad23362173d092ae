"""The scorepad web app, its SQLite store and the `phase10` command line."""
