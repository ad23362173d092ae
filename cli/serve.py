"""`phase10 serve`: the live scorepad for the table's phones, with the configured camera."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
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


def run(args: argparse.Namespace) -> int:
    import segno

    from cli.dice_layout import household_dice
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
    deferred = _Deferred()
    try:  # listen first: a busy port fails before anything says "ready"
        server = make_server(deferred, config)
    except OSError as error:  # e.g. the port is in use by another program
        print(f"phase10 serve: error: cannot listen on {config.host} port {config.port} "
              f"({error.strerror or error}); nothing was started (is another scorepad "
              "running? try --port)", file=sys.stderr)
        return 2
    app = create_app(config, dice_set=household_dice(config.data_dir))
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
    print("scorepad stopped")
    return 0
