"""A taught die whose face looks typed wrong, on /setup in a real headless Chromium,
phone-sized (issue 15): shown with its picture, the face it was confirmed as and the one
it looks like; one tap puts it right, and it is read with again. Also: a face's taught
pictures, one forgotten; the message after a confirmed roll; and, without a camera, the
page working the list out as it opens."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from profile_helpers import open_with_profile, slipped_profile
from scorepad_helpers import make_config

from scorer import Die
from vision.profile.profile import DiceProfile
from vision.read.pipeline import DiceReader
from web.app import close_app, create_app
from web.profile_service import PROFILE_DIR

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def slipped() -> tuple:
    return slipped_profile(DiceReader(threads=1))


@pytest.fixture
def app(request, tmp_path, slipped) -> Iterator[Flask]:
    """The scorepad with the slipped profile: with a (fake) camera, or, parametrised
    "photos", without one and before any photo (no reader loaded)."""
    if getattr(request, "param", "camera") == "photos":
        slipped[0].save(tmp_path / "data" / PROFILE_DIR)
        application = create_app(make_config(tmp_path))
    else:
        application = open_with_profile(tmp_path, slipped[0])
    yield application
    close_app(application)


def test_a_die_typed_wrong_is_shown_and_put_right_with_one_tap(app, page, slipped, tmp_path):
    profile, slip = slipped
    red = str(Die(slip.value, "R"))
    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#teach[data-ready=yes]")
    box = page.locator("[data-testid=teach-left-out]")
    assert box.is_visible()
    item = page.locator("#teach-left-out-list li")
    assert item.count() == 1
    assert (item.get_attribute("data-confirmed"), item.get_attribute("data-looks-like")) == (
        str(slip), red)
    assert item.locator("img.teach-crop").get_attribute("src").startswith("data:image/png")
    assert [button.inner_text() for button in item.locator("button").all()] == [
        f"It is {red}", f"It is {slip}", "Forget it"]
    page.screenshot(path=str(tmp_path / "left-out-phone.png"), full_page=True)

    item.locator(f"button[data-face='{red}']").click()
    page.wait_for_selector("[data-testid=teach-left-out]", state="hidden")
    assert page.locator("#teach-left-out-list li").count() == 0
    assert page.locator(f"#teach-faces li[data-notation='{red}']").get_attribute(
        "data-count") == str(profile.dice.count(Die(slip.value, "R")) + 1)
    saved = DiceProfile.load(tmp_path / "data" / PROFILE_DIR)
    assert saved.dice.count(slip) == profile.dice.count(slip) - 1 and len(saved) == 30
    page.reload()
    page.wait_for_selector("#teach[data-ready=yes]")
    assert not page.locator("[data-testid=teach-left-out]").is_visible()


def test_the_pictures_of_a_face_are_shown_and_one_can_be_forgotten(app, page, slipped, tmp_path):
    profile = slipped[0]
    face = next(die for die in profile.dice if profile.dice.count(die) >= 2)
    count = profile.dice.count(face)
    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#teach[data-ready=yes]")
    page.click(".teach-faces-box summary")
    page.click(f"#teach-faces li[data-notation='{face}'] .die")
    box = page.locator("[data-testid=teach-face-examples]")
    page.wait_for_selector(f"[data-testid=teach-face-examples][data-face='{face}']")
    assert box.locator("img.teach-crop").count() == count
    assert page.inner_text("#teach-face-title") == f"{face}: {count} pictures learnt"
    box.screenshot(path=str(tmp_path / "face-pictures.png"))

    box.locator("button[data-action=forget]").first.click()
    page.wait_for_function(
        f"document.querySelectorAll('#teach-face-list img').length === {count - 1}")
    assert page.locator(f"#teach-faces li[data-notation='{face}']").get_attribute(
        "data-count") == str(count - 1)
    saved = DiceProfile.load(tmp_path / "data" / PROFILE_DIR)
    assert len(saved) == len(profile) - 1 and saved.dice.count(face) == count - 1


def test_confirming_a_roll_says_when_a_taught_die_looks_typed_wrong(app, page):
    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#teach[data-ready=yes]")
    page.click("[data-testid=teach-read]")
    page.wait_for_function("document.querySelectorAll('#teach-dice li').length === 10")
    page.click("[data-testid=teach-confirm]")
    page.wait_for_selector("#teach[data-examples='40']")
    assert page.inner_text("[data-testid=teach-message]") == (
        "Learnt 10 dice: roll again and read the next roll. "
        "1 taught die looks typed wrong: check above.")
    assert page.locator("#teach-left-out-list li").count() == 1


@pytest.mark.parametrize("app", ["photos"], indirect=True)
def test_without_a_camera_the_page_works_out_the_dice_left_out_when_it_opens(app, page):
    assert app.test_client().get("/api/profile").json["left_out_checked"] is False
    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#teach[data-ready=yes]")
    assert page.locator("[data-testid=teach-left-out]").is_visible()
    assert page.locator("#teach-left-out-list li").count() == 1
    assert page.inner_text("[data-testid=teach-message]") == ""
