"""End to end in a real headless Chromium: a whole two-player game played through the page.

Rolls are entered by hand (the notation box and the tap-to-build picker), turns
taken and failed, one undone; at the end every cell of the sheet on the page
is checked against the scorer's own game engine fed the same turns.
"""

from __future__ import annotations

import pytest
from scorepad_helpers import MAKES, NEVER

from scorer import Game, parse_roll

pytestmark = pytest.mark.browser

SHEET_ROWS = {  # data-row of the page -> the engine column's value as the page prints it
    "five_phase_bonus": lambda c: str(c.five_phase_bonus or ""),
    "five_phase_total": lambda c: str(c.five_phase_total),
    "first_finish_bonus": lambda c: str(c.first_finish_bonus or ""),
    "grand_total": lambda c: str(c.grand_total),
    **{f"phase-{n}": (lambda c, n=n: "" if c.phase_scores[n - 1] is None
                      else str(c.phase_scores[n - 1])) for n in range(1, 11)},
}


def wait_version(page, version: int) -> None:
    page.wait_for_function(f"document.getElementById('game').dataset.version === '{version}'")


def settled(page) -> None:
    """The hint (open since turn 0) has its text: it no longer grows and moves the buttons
    under a click on a busy machine."""
    page.wait_for_function("document.getElementById('hint').hidden || "
                           "document.getElementById('hint-text').textContent !== '…'")


def enter_roll(page, notation: str) -> None:
    page.fill("[data-testid=notation-input]", notation)
    page.click("[data-testid=notation-submit]")
    page.wait_for_function(
        f"document.getElementById('game').dataset.roll === '{parse_roll(notation)}'")
    settled(page)


def tap_roll(page, notation: str) -> None:
    """Build the roll with the picker: a colour, then the numbers of that colour."""
    for die in parse_roll(notation).dice:
        page.click(f"#picker .swatch[data-colour={die.colour}]")
        page.click(f"#picker .value[data-value='{'W' if die.is_wild() else die.value}']")
    page.click("[data-testid=built-use]")
    page.wait_for_function(
        f"document.getElementById('game').dataset.roll === '{parse_roll(notation)}'")
    settled(page)


def test_a_full_two_player_game_through_the_page(page):
    page.goto(page.base_url + "/")
    inputs = page.locator("[data-testid=player-input]")
    inputs.nth(0).fill("Ann")
    inputs.nth(1).fill("Bob")
    page.click("#start-game")
    page.wait_for_url("**/games/*")
    wait_version(page, 1)
    assert page.is_visible("[data-testid=notation-input]")  # no camera: hand entry is open

    engine = Game.new(["Ann", "Bob"])
    version = 1
    turn = 0
    undo_done = False
    while not engine.is_over:
        player, phase = engine.active_player, engine.active_phase
        assert page.inner_text("[data-testid=status]").startswith(player)
        makes = player == "Ann" or turn % 4 != 1
        notation = MAKES[phase][0] if makes else NEVER
        (tap_roll if turn == 0 else enter_roll)(page, notation)
        headline = page.inner_text("[data-testid=verdict-headline]")
        if turn == 0:  # the odds advisor's hint opens with one tap
            page.click("#hint summary")
            page.wait_for_function(
                "document.querySelector('[data-testid=hint]').textContent.includes('Phase 1')")
        if makes:
            assert headline == f"Makes Phase {phase} for {MAKES[phase][1]} points"
            page.click("[data-testid=take-score]")
            engine.score_turn(player, parse_roll(notation))
        else:
            assert headline == f"Does not make Phase {phase}"
            assert page.is_disabled("[data-testid=take-score]")
            page.click("[data-testid=fail-turn]")
            engine.fail_turn(player, parse_roll(notation))
        version += 1
        wait_version(page, version)
        if not undo_done and turn == 3:  # take a turn back, then play it again
            page.click("[data-testid=undo]")
            version += 1
            wait_version(page, version)
            assert page.inner_text("[data-testid=status]").startswith(player)
            enter_roll(page, notation)
            page.click("[data-testid=take-score]" if makes else "[data-testid=fail-turn]")
            version += 1
            wait_version(page, version)
            undo_done = True
        turn += 1

    assert page.is_visible("[data-testid=game-over]")
    assert page.inner_text("[data-testid=winner]") == "Winner: " + " & ".join(engine.winners)
    for column in engine.scorepad.columns:
        for row, printed in SHEET_ROWS.items():
            cell = page.locator(f"td[data-player='{column.player}'][data-row='{row}']")
            assert cell.inner_text().strip() == printed(column), (column.player, row)
    standings = page.locator("[data-testid=standings] li").all_inner_texts()
    assert standings[0].startswith(engine.winners[0])


def test_fixing_a_typed_roll_keeps_its_roll_number(page):
    """Issue 11: re-typing a roll to fix a typo is not the next roll of the turn."""
    page.goto(page.base_url + "/")
    inputs = page.locator("[data-testid=player-input]")
    inputs.nth(0).fill("Ann")
    inputs.nth(1).fill("Bob")
    page.click("#start-game")
    page.wait_for_url("**/games/*")
    assert page.is_hidden("[data-testid=notation-fix]")
    enter_roll(page, "8R 8B 8G 10O 5G 7R WR WB 1G 3B")  # the last die mistyped
    assert page.inner_text("[data-testid=roll-number]") == "Roll 1/3"
    assert page.inner_text("[data-testid=notation-fix]") == "Fix roll 1"
    assert page.inner_text("[data-testid=notation-submit]") == "Roll 2"

    page.fill("[data-testid=notation-input]", MAKES[1][0])
    page.click("[data-testid=notation-fix]")
    page.wait_for_function(f"document.getElementById('game').dataset.roll === '{MAKES[1][0]}'")
    assert page.inner_text("[data-testid=roll-number]") == "Roll 1/3"

    page.fill("[data-testid=notation-input]", NEVER)
    page.press("[data-testid=notation-input]", "Enter")  # Enter: the next roll
    page.wait_for_function(f"document.getElementById('game').dataset.roll === '{NEVER}'")
    assert page.inner_text("[data-testid=roll-number]") == "Roll 2/3"

    for die in parse_roll(MAKES[1][0]).dice:  # the picker fixes too (all ten dice)
        page.click(f"#picker .swatch[data-colour={die.colour}]")
        page.click(f"#picker .value[data-value='{str(die)[:-1]}']")
    page.click("[data-testid=built-fix]")
    page.wait_for_function(f"document.getElementById('game').dataset.roll === '{MAKES[1][0]}'")
    assert page.inner_text("[data-testid=roll-number]") == "Roll 2/3"
    assert page.is_visible("[data-testid=built-use]")
