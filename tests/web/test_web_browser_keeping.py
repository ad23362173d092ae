"""What players expect to keep (issue 46), phone-sized in headless Chromium: a game's
export from its page, a backup downloaded and restored from /setup (a wrong file
refused), a player's statistics page, and the dark theme with its switch."""

from __future__ import annotations

import json

import pytest
from scorepad_helpers import MAKES, NEVER
from screen_audit import assert_readable

pytestmark = pytest.mark.browser


def finished_solitaire(client) -> int:
    game_id = client.post("/api/games", json={"players": ["Ann"], "solitaire": True}).json["id"]
    client.post(f"/api/games/{game_id}/fail", json={"player": "Ann", "roll": NEVER})
    for phase in range(1, 11):
        client.post(f"/api/games/{game_id}/score", json={"player": "Ann",
                                                           "roll": MAKES[phase][0]})
    return game_id


def test_a_game_is_exported_from_its_page(app, page, tmp_path):
    game_id = finished_solitaire(app.test_client())
    page.goto(f"{page.base_url}/games/{game_id}")
    with page.expect_download() as got:
        page.click("[data-testid=export-csv]")
    csv = (got.value.path()).read_text()
    assert csv.startswith("turn,round,player,phase,made,score,roll")
    with page.expect_download() as got:
        page.click("[data-testid=export-json]")
    assert json.loads(got.value.path().read_text())["format"] == "phase10-game"
    assert_readable(page, tmp_path / "export.png")


def test_a_backup_is_downloaded_and_restored_from_set_up(app, page, tmp_path):
    client = app.test_client()
    game_id = finished_solitaire(client)
    page.goto(page.base_url + "/setup")
    with page.expect_download() as got:
        page.click("[data-testid=backup-download]")
    saved = got.value.path().read_bytes()
    client.delete(f"/api/games/{game_id}")
    (tmp_path / "notes.json").write_text("Ann 34")
    page.set_input_files("[data-testid=restore-file]", str(tmp_path / "notes.json"))
    page.click("[data-testid=restore-submit]")
    page.wait_for_function("document.getElementById('restore-message').textContent.length")
    assert page.inner_text("[data-testid=restore-message]").startswith(
        "This file is not a scorepad backup: choose")
    assert client.get("/api/games").json["total"] == 0
    (tmp_path / "backup.json").write_bytes(saved)
    page.set_input_files("[data-testid=restore-file]", str(tmp_path / "backup.json"))
    page.click("[data-testid=restore-submit]")
    page.wait_for_function("document.getElementById('restore-message').textContent"
                           ".includes('restored')")
    assert page.inner_text("[data-testid=restore-message]") == "1 game restored."
    assert client.get(f"/api/games/{game_id}").json["is_over"] is True
    assert_readable(page, tmp_path / "backup.png")


def test_a_players_statistics_across_games(app, page, tmp_path):
    client = app.test_client()
    finished_solitaire(client)
    two = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.post(f"/api/games/{two}/score", json={"player": "Ann", "roll": MAKES[1][0]})
    stats = client.get("/api/players/ann/stats").json
    assert stats["games"] == 2 and stats["finished"] == 1 and stats["wins"] == 1
    assert stats["phases_failed"] == 1 and stats["average_per_phase"]["1"] == MAKES[1][1]
    page.goto(f"{page.base_url}/games/{two}")
    page.click("[data-testid=stats-link] >> text=Ann")
    page.wait_for_url("**/players/Ann")
    assert page.inner_text("[data-testid=stat-games]") == "2"
    assert page.inner_text("[data-testid=stat-wins]") == "1"
    assert page.inner_text("[data-testid=stat-best]") == str(
        client.get("/api/games/1").json["scorepad"]["columns"][0]["grand_total"])
    assert_readable(page, tmp_path / "stats.png")


def test_the_dark_theme_follows_the_phone_and_has_a_switch(app, new_tab, tmp_path):
    page = new_tab()
    page.emulate_media(color_scheme="dark")
    page.goto(page.base_url + "/")
    background = "getComputedStyle(document.querySelector('.card')).backgroundColor"
    assert page.evaluate(background) == "rgb(30, 35, 51)"  # dark paper
    switch = page.locator("[data-testid=theme-switch]")
    assert switch.inner_text() == "Light"
    assert_readable(page, tmp_path / "dark.png")
    switch.click()
    assert page.evaluate(background) == "rgb(251, 247, 234)"  # light paper, chosen
    page.reload()  # the choice stays on this phone
    assert page.evaluate(background) == "rgb(251, 247, 234)"
    assert page.locator("[data-testid=theme-switch]").inner_text() == "Dark"
