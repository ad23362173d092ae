"""`phase10 serve`: the live scorepad for the table's phones, with the configured camera."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from web.network import MDNS_NAME, is_loopback, lan_address

COMMAND = "serve"
HELP = "run the scorepad web app"


log = logging.getLogger(__name__)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        COMMAND, help=HELP,
        description="Serve the live scorepad on the local network (waitress: bounded "
                    "connections and threads, header and idle timeouts).",
    )
    parser.add_argument("--config", type=Path, help="TOML configuration file")
    parser.add_argument("--host", help="address to listen on (default 0.0.0.0: every interface)")
    parser.add_argument("--port", type=int, help="TCP port (default 8000)")
    parser.add_argument("--data-dir", type=Path, help="folder of the game database (default data)")
    parser.add_argument(
        "--camera", help='camera source: auto (default), none, demo, picamera, device:N, '
                         'video:PATH, images:DIR')
    parser.add_argument("--pin", help="table PIN required for every change to a game")
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    return parser


def _urls(host: str, port: int) -> list[str]:
    suffix = "" if port == 80 else f":{port}"
    if host in ("0.0.0.0", "::"):
        return [f"http://{lan_address()}{suffix}/", f"http://{MDNS_NAME}{suffix}/"]
    return [f"http://{host}{suffix}/"]


def _not_ready(environ: Any, start_response: Any) -> list[bytes]:
    """The server's app until the scorepad is built (no request is served before that)."""
    start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
    return [b"the scorepad is starting"]


class _Deferred:
    """The WSGI app the server is given before the scorepad is built: listening comes
    first, so a busy port fails before anything says "ready"."""

    def __init__(self) -> None:
        self.app: Any = _not_ready

    def __call__(self, environ: Any, start_response: Any) -> Any:
        return self.app(environ, start_response)


def _layout_environment(data_dir: Path) -> dict[str, str]:
    """This process's environment with the dice layout saved in the data folder named
    (LAYOUT_ENV), or not named when none is saved."""
    from scorer.layout_file import LAYOUT_ENV, LAYOUT_FILE_NAME

    environment = dict(os.environ)
    saved = (Path(data_dir) / LAYOUT_FILE_NAME).resolve()
    if saved.exists():
        environment[LAYOUT_ENV] = str(saved)
    else:
        environment.pop(LAYOUT_ENV, None)
    return environment


def _start_again(words: list[str], environment: dict[str, str]) -> None:
    """Replace this process with the same command under `environment` (same process id:
    a service manager sees no exit)."""
    os.execve(sys.executable, [sys.executable, "-m", "cli", *words], environment)


def _start_with_the_households_layout(data_dir: Path, words: list[str] | None) -> None:
    """Start this command (`words`, as given) again with the dice layout saved in the data
    folder named in the environment, when it is not already: the dice table is read once,
    at import, and reading the configuration imported it already. Returns when nothing is
    to change, or when the command's words are not known."""
    from scorer.layout_file import LAYOUT_ENV

    environment = _layout_environment(data_dir)
    if words is None or environment.get(LAYOUT_ENV) == os.environ.get(LAYOUT_ENV) or (
            LAYOUT_ENV not in environment):
        return
    print(f"  using the dice layout saved in {environment[LAYOUT_ENV]}", flush=True)
    _start_again(words, environment)


def run(args: argparse.Namespace) -> int:
    import segno

    from web.app import close_app, create_app
    from web.config import load_config
    from web.server import close_server, make_server

    if args.pin is not None and not args.pin.strip():
        raise ValueError("--pin is empty: give the table a PIN (--pin 1234), "
                         "or leave --pin out for a table without one")
    config = load_config(
        args.config, host=args.host, port=args.port, data_dir=args.data_dir,
        camera=args.camera, pin=args.pin,
    )
    _start_with_the_households_layout(config.data_dir, getattr(args, "words", None))
    deferred = _Deferred()
    try:  # listen first: a busy port fails before anything says "ready"
        server = make_server(deferred, config)
    except OSError as error:  # e.g. the port is in use by another program
        print(f"phase10 serve: error: cannot listen on {config.host} port {config.port} "
              f"({error.strerror or error}); nothing was started (is another scorepad "
              "running? try --port)", file=sys.stderr)
        return 2
    words = getattr(args, "words", None)
    restart_asked = threading.Event()

    def restart() -> None:
        """Stop serving; `run` then starts the command again (the dice layout changed)."""
        restart_asked.set()
        server.shutdown()

    app = create_app(config, restart=None if words is None else restart)
    deferred.app = app
    urls = _urls(config.host, server.port)
    camera = app.extensions["phase10"].camera
    print(f"Phase 10 scorepad on {' and '.join(urls)}")
    if is_loopback(config.host):
        print(f"  listening on {config.host} only: other phones cannot open it "
              "(use --host 0.0.0.0 to let them join)")
    print(f"  camera: {'none (enter rolls by hand)' if camera is None else camera.source}; "
          f"games in {config.database_path}")
    if not args.no_qr:
        segno.make(urls[0], error="m").terminal(out=sys.stdout, compact=True)
    sys.stdout.flush()

    def stop(signum: int, frame: Any) -> None:
        server.shutdown()

    signal.signal(signal.SIGTERM, stop)
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        close_app(app)  # ends the live streams first: their threads are then free
        close_server(server)
    if restart_asked.is_set() and words is not None:
        print("scorepad starting again (the dice layout changed)", flush=True)
        _start_again(words, _layout_environment(config.data_dir))
    print("scorepad stopped")
    return 0
