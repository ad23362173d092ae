"""End to end in a real headless Chromium on a phone-sized page: a whole short card game.

The game is started from the start page with the printed winner rule, every hand is
entered with the page's own buttons (Went out, the phase ticked, +5/+10/+25 taps), a
refused hand shows the server's reason, hand 1 is corrected and a hand undone; at the
end the winner and every cell of the sheet are checked against the scorer's own card
game fed the same hands, and the page never scrolls sideways on the phone.
"""

from __future__ import annotations

import pytest

from scorer import CardGame, HandResult

pytestmark = pytest.mark.browser

PHONE = (360, 740)


def wait_version(page, version: int) -> None:
    page.wait_for_function(f"document.getElementById('game').dataset.version === '{version}'")


def tap_cards(page, player: str, cards: tuple[int, ...]) -> None:
    """Count a player's cards left in hand with the +5/+10/+25 buttons, one tap per card."""
    page.click(f"[data-testid=clear-{player}]")
    for points in cards:
        page.click(f"[data-testid=add-{points}-{player}]")


def enter_hand(page, out: str, others: dict[str, tuple[bool, tuple[int, ...]]]) -> None:
    page.click(f"[data-testid=out-{out}]")
    for player, (made, cards) in others.items():
        box = page.locator(f"[data-testid=made-{player}]")
        if box.is_checked() != made:
            box.click()
        tap_cards(page, player, cards)


def test_a_whole_short_card_game_on_a_phone(new_tab):
    page = new_tab(*PHONE)
    page.goto(page.base_url + "/")
    inputs = page.locator("[data-testid=player-input]")
    inputs.nth(0).fill("Ann")
    inputs.nth(1).fill("Bob")
    page.click("[data-testid=game-cards]")
    assert page.is_visible("[data-testid=card-options]")
    page.click("[data-testid=winner-lowest_with_phase_10]")
    page.click("#start-game")
    page.wait_for_url("**/games/*")
    wait_version(page, 1)
    assert "completed phase 10" in page.inner_text("[data-testid=winner-rule]")
    assert page.inner_text("[data-testid=hand-title]") == "Record hand 1"

    # A hand with nobody out is refused, and the page says why.
    page.click("[data-testid=add-5-Ann]")
    page.click("[data-testid=add-10-Bob]")
    page.click("[data-testid=hand-save]")
    page.wait_for_function(
        "document.querySelector('[data-testid=hand-error]').textContent.includes('nobody has 0')")
    page.click("[data-testid=clear-Ann]")
    page.click("[data-testid=hand-save]")  # Ann's points left empty: asked for before sending
    assert "Enter Ann's points" in page.inner_text("[data-testid=hand-error]")

    engine = CardGame.new(["Ann", "Bob"], winner="lowest_with_phase_10")
    version = 1
    hand = 0
    while not engine.is_over:
        hand += 1
        bob_makes = hand % 3 == 0
        cards = (5, 10, 25) if hand % 2 else (5, 5)
        enter_hand(page, "Ann", {"Bob": (bob_makes, cards)})
        page.click("[data-testid=hand-save]")
        engine.play_hand([HandResult("Ann", True, 0), HandResult("Bob", bob_makes, sum(cards))])
        version += 1
        wait_version(page, version)
        if hand == 2:  # undo hand 2 and enter it again
            page.click("[data-testid=undo]")
            version += 1
            wait_version(page, version)
            assert page.inner_text("[data-testid=hand-title]") == "Record hand 2"
            enter_hand(page, "Ann", {"Bob": (bob_makes, cards)})
            page.click("[data-testid=hand-save]")
            version += 1
            wait_version(page, version)
        if hand == 3:  # hand 1 corrected: Bob laid down phase 1 after all, and held 10 more
            page.click("[data-testid=correct-hand-1]")
            assert page.inner_text("[data-testid=hand-title]") == "Correct hand 1"
            assert page.input_value("[data-testid=points-Bob]") == "40"
            page.click("[data-testid=made-Bob]")
            page.click("[data-testid=add-10-Bob]")
            page.click("[data-testid=hand-save]")
            engine.correct_hand(0, [HandResult("Ann", True, 0), HandResult("Bob", True, 50)])
            version += 1
            wait_version(page, version)
            assert page.inner_text("[data-testid=hand-title]") == "Record hand 4"

    assert page.is_visible("[data-testid=game-over]")
    assert page.is_hidden("[data-testid=hand-form]")
    assert engine.winners == ("Ann",)
    assert page.inner_text("[data-testid=winner]") == "Winner: Ann"
    for column in engine.scorepad.columns:
        total = page.locator(f"td[data-player='{column.player}'][data-row=grand_total]")
        assert total.inner_text().strip() == str(column.grand_total)
        for number, made_in in enumerate(column.phase_hands, start=1):
            cell = page.locator(f"td[data-player='{column.player}'][data-row='phase-{number}']")
            assert cell.inner_text().strip() == ("" if made_in is None else f"hand {made_in}")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    standings = page.locator("[data-testid=standings] li").all_inner_texts()
    assert standings[0].startswith("Ann")
