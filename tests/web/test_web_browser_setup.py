"""The camera set-up page in a real headless Chromium, phone-sized: live picture, tray drawn
by dragging and saved, exposure lock reported as unsupported on the demo, a test reading."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakes import install_fake_picamera2
from flask import Flask
from scorepad_helpers import reading_of
from test_web_setup import SetupWatcher, jpeg, pi_app

from web.app import close_app

pytestmark = pytest.mark.browser


class LiveSetupWatcher(SetupWatcher):
    """Shows a real picture on the live view from the start."""

    def latest_overlay_jpeg(self) -> bytes | None:
        return jpeg(640, 480)


@pytest.fixture
def watcher() -> LiveSetupWatcher:
    return LiveSetupWatcher(reading_of("8R 8B 6G 10O 10G 7R WR 2B 1G 3R", unsure=(2,)))


@pytest.fixture
def app(camera_app: Flask) -> Flask:
    """The scorepad with this file's fake camera (its `watcher`)."""
    return camera_app


def drag(tab, start, end, box) -> None:
    """Press at `start`, move in steps to `end` (fractions of the picture), release."""
    tab.mouse.move(box["x"] + start[0] * box["width"], box["y"] + start[1] * box["height"])
    tab.mouse.down()
    tab.mouse.move(box["x"] + end[0] * box["width"], box["y"] + end[1] * box["height"], steps=8)
    tab.mouse.up()


def test_set_up_page_marks_and_saves_the_tray_by_dragging(app, watcher, page, tmp_path):
    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#stage[data-ready=yes]")
    live = page.locator("[data-testid=live-image]")
    assert live.is_visible() and live.get_attribute("src") == "/camera/live.mjpeg"
    page.wait_for_function("document.getElementById('live').naturalWidth === 640")
    assert page.inner_text("[data-testid=tray-state]").startswith("No tray saved")

    box = page.locator("#stage").bounding_box()
    drag(page, (0.2, 0.25), (0.8, 0.75), box)  # a rectangle across the picture
    drag(page, (0.8, 0.25), (0.9, 0.1), box)  # then its top-right corner further out
    page.click("[data-testid=save-tray]")
    page.wait_for_function(
        "document.getElementById('tray-state').textContent.startsWith('Saved')")
    expected = [(0.2, 0.25), (0.9, 0.1), (0.8, 0.75), (0.2, 0.75)]
    saved = watcher.trays[-1]
    assert saved is not None and len(saved) == 4
    for (x, y), (ex, ey) in zip(saved, expected, strict=True):
        assert abs(x - ex) < 0.02 and abs(y - ey) < 0.02
    assert app.test_client().get("/api/camera/settings").json["tray"] == saved

    state = page.inner_text("[data-testid=exposure-state]")
    assert "Not supported" in state and "demo" in state
    assert page.is_disabled("[data-testid=lock-exposure]")

    page.click("[data-testid=test-read]")
    page.wait_for_selector("[data-testid=test-overlay]:not([hidden])")
    assert page.inner_text("[data-testid=test-message]") == "10 dice found inside the tray region"
    assert page.locator("#test-dice .die").count() == 10
    assert page.locator("#test-dice li").nth(2).inner_text().endswith("60 %")
    page.screenshot(path=str(tmp_path / "setup-phone.png"), full_page=True)

    page.reload()  # the saved tray comes back from the server
    page.wait_for_selector("#stage[data-ready=yes]")
    page.wait_for_function(
        "document.getElementById('tray-state').textContent.startsWith('Saved')")


def touch_drag(tab, start, end, box) -> None:
    """A finger pressed at `start`, slid to `end` (fractions of the picture), lifted."""
    cdp = tab.context.new_cdp_session(tab)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})

    def at(point):
        return [{"x": box["x"] + point[0] * box["width"], "y": box["y"] + point[1] * box["height"]}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": at(start)})
    for step in range(1, 9):
        point = [start[i] + (end[i] - start[i]) * step / 8 for i in (0, 1)]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": at(point)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_corner_can_be_dragged_by_touch(app, watcher, page):
    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#stage[data-ready=yes]")
    box = page.locator("#stage").bounding_box()
    touch_drag(page, (0.05, 0.05), (0.3, 0.2), box)  # the top-left corner of the default
    page.click("[data-testid=save-tray]")
    page.wait_for_function(
        "document.getElementById('tray-state').textContent.startsWith('Saved')")
    (x, y), *rest = watcher.trays[-1]
    assert abs(x - 0.3) < 0.02 and abs(y - 0.2) < 0.02
    assert rest == [[0.95, 0.05], [0.95, 0.95], [0.05, 0.95]]


class TestOnThePiCamera:
    """vision's real TableWatcher and PiCameraSource over a fake picamera2."""

    @pytest.fixture
    def app(self, tmp_path, monkeypatch) -> Iterator[Flask]:
        install_fake_picamera2(monkeypatch)
        application, self.camera = pi_app(tmp_path)
        yield application
        close_app(application)

    def test_lock_now_and_unlock_from_the_page(self, app, page):
        page.goto(page.base_url + "/setup")
        page.wait_for_selector("#stage[data-ready=yes]")
        assert page.inner_text("[data-testid=exposure-state]").startswith("Locked: exposure 8.0 ms")
        self.camera.metadata = {"ExposureTime": 12500, "AnalogueGain": 3.25,
                                "ColourGains": (1.4, 2.0)}
        page.click("[data-testid=unlock-exposure]")
        page.wait_for_selector("#exposure-state[data-locked=no]")
        assert page.inner_text("[data-testid=exposure-state]").startswith("Automatic")
        page.click("[data-testid=lock-exposure]")
        page.wait_for_selector("#exposure-state[data-locked=yes]")
        assert page.inner_text("[data-testid=exposure-state]") == (
            "Locked: exposure 12.5 ms, gain 3.25, colour gains 1.40 / 2.00.")
        assert self.camera.controls[-1]["ExposureTime"] == 12500
