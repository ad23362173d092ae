/* The start page: new game form and the list of games (refreshed live). */
"use strict";

(function () {
  const list = document.getElementById("player-list");
  const form = document.getElementById("new-game-form");
  const error = document.getElementById("new-game-error");

  document.getElementById("add-player").addEventListener("click", () => {
    const n = list.children.length + 1;
    if (n > 12) return;  // scorer.game.MAX_PLAYERS
    const input = el("input", { name: "player", placeholder: "Player " + n, "aria-label": "Player " + n,
      maxlength: "20", "data-testid": "player-input" });
    list.append(el("li", {}, input));
    input.focus();
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const players = [...form.querySelectorAll("input[name=player]")]
      .map((input) => input.value.trim()).filter(Boolean);
    const order = form.querySelector("input[name=order]:checked").value;
    const result = await api("POST", "/api/games", {
      players, solitaire: order === "solitaire", roll_off: order === "roll_off",
      first_finish: form.querySelector("input[name=first_finish]:checked").value,
    });
    if (result.ok) location.href = "/games/" + result.data.id;
    else error.textContent = result.data.error || "could not start the game";
  });

  const games = new EventSource("/stream/games");
  games.addEventListener("games", () => { if (!form.contains(document.activeElement)) location.reload(); });
})();
