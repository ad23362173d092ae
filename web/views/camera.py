"""The live annotated camera view: the latest overlay frame, as a still or an MJPEG stream."""

from __future__ import annotations

import time
from collections.abc import Iterator

from flask import Blueprint, Response, abort, render_template
from flask.typing import ResponseReturnValue

from web.views.common import table

bp = Blueprint("camera", __name__, url_prefix="/camera")

#: Frames per second of the MJPEG view (phones on Wi-Fi; the Pi's CPU is for vision).
MJPEG_FPS = 5
_BOUNDARY = "frame"


@bp.get("/")
def page() -> ResponseReturnValue:
    feed = table().camera
    return render_template("camera.html", feed=None if feed is None else feed.status())


@bp.get("/overlay.jpg")
def overlay() -> ResponseReturnValue:
    feed = table().camera
    frame = None if feed is None else feed.overlay_jpeg()
    if frame is None:
        abort(404, description="no camera frame yet")
    return Response(frame, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/live.mjpeg")
def live() -> ResponseReturnValue:
    feed = table().camera
    if feed is None:
        abort(404, description="no camera configured")

    def frames() -> Iterator[bytes]:
        last = None
        while feed.running or last is None:
            frame = feed.overlay_jpeg()
            if frame is not None and frame is not last:
                last = frame
                yield (f"--{_BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                       f"Content-Length: {len(frame)}\r\n\r\n").encode() + frame + b"\r\n"
            elif not feed.running:
                return
            time.sleep(1 / MJPEG_FPS)

    return Response(frames(), mimetype=f"multipart/x-mixed-replace; boundary={_BOUNDARY}")
