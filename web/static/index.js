/* The start page: the new-game form and the list of games. The list follows the table
   live, redrawn in place: a game started on another phone, or a roll read by the camera,
   never reloads the page, so names being typed stay where they are. */
"use strict";

(function () {
  const list = document.getElementById("player-list");
  const form = document.getElementById("new-game-form");
  const error = document.getElementById("new-game-error");
  const gamesBox = document.getElementById("games");
  const PAGE = 10;  /* games shown per group before "Show more" */
  const shown = { playing: PAGE, finished: PAGE };
  let games = JSON.parse(document.getElementById("initial-games").textContent);

  document.getElementById("add-player").addEventListener("click", () => {
    const n = list.children.length + 1;
    if (n > 12) return;  // scorer.game.MAX_PLAYERS
    const input = el("input", { name: "player", placeholder: "Player " + n, "aria-label": "Player " + n,
      maxlength: "20", "data-testid": "player-input" });
    list.append(el("li", {}, input));
    input.focus();
  });

  /* the card game has its own options; the dice game's are hidden while it is chosen */
  const chosenGame = () => form.querySelector("input[name=game]:checked").value;
  for (const radio of form.querySelectorAll("input[name=game]")) {
    radio.addEventListener("change", () => {
      const cards = chosenGame() === "cards";
      document.getElementById("card-options").hidden = !cards;
      for (const box of form.querySelectorAll(".dice-option")) box.hidden = cards;
    });
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const players = [...form.querySelectorAll("input[name=player]")]
      .map((input) => input.value.trim()).filter(Boolean);
    const order = form.querySelector("input[name=order]:checked").value;
    const body = chosenGame() === "cards"
      ? { players, game: "cards", winner: form.querySelector("input[name=winner]:checked").value }
      : { players, solitaire: order === "solitaire", roll_off: order === "roll_off",
          first_finish: form.querySelector("input[name=first_finish]:checked").value };
    const result = await api("POST", "/api/games", body);
    if (result.ok) location.href = "/games/" + result.data.id;
    else error.textContent = result.data.error || "could not start the game";
  });

  /* this phone's own date and time, not UTC */
  function localTime(iso) {
    const when = new Date(iso);
    if (Number.isNaN(when.getTime())) return iso;
    return when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  }

  function outcome(game) {
    if (!game.finished && game.game === "cards") {
      return el("span", { class: "badge live" }, `Hand ${game.hand}`);
    }
    if (!game.finished) {
      return el("span", { class: "badge live" },
        `Round ${game.round}` + (game.active_player ? ` · ${game.active_player} to play` : ""));
    }
    if (game.solitaire) {
      const total = Object.values(game.totals || {})[0];
      return el("span", { class: "badge done" }, `Final score ${total}`);
    }
    const winners = game.winners || [];
    return el("span", { class: "badge done" }, (winners.length > 1 ? "Winners: " : "Winner: ") + winners.join(" & "));
  }

  function gameItem(game) {
    const totals = Object.entries(game.totals || {}).map(([name, total]) => `${name} ${total}`).join(" · ");
    return el("li", { dataset: { gameId: String(game.id) } },
      el("a", { href: "/games/" + game.id },
        el("strong", { text: `Game ${game.id}` }),
        el("span", { class: "names", text: game.players.join(", ") +
          (game.solitaire ? " (solitaire)" : "") + (game.game === "cards" ? " (card game)" : "") }),
        el("time", { class: "when", datetime: game.updated, text: localTime(game.updated) }),
        outcome(game),
        el("span", { class: "totals", text: totals })));
  }

  function group(key, title, items) {
    if (!items.length) return null;
    const more = items.length - shown[key];
    return el("div", { class: "game-group", "data-testid": "games-" + key },
      el("h3", { text: `${title} (${items.length})` }),
      el("ul", { class: "game-list" }, ...items.slice(0, shown[key]).map(gameItem)),
      more > 0 ? el("button", { type: "button", class: "more", "data-testid": "more-" + key,
        text: `Show ${Math.min(more, PAGE)} more`,
        onclick: () => { shown[key] += PAGE; drawGames(); } }) : null);
  }

  /* newest first (most recently played), games in progress apart from finished ones */
  function drawGames() {
    const sorted = [...games].sort((a, b) => (b.updated || "").localeCompare(a.updated || "") || b.id - a.id);
    const playing = sorted.filter((g) => !g.finished);
    const finished = sorted.filter((g) => g.finished);
    gamesBox.replaceChildren(...(sorted.length
      ? [group("playing", "Playing now", playing), group("finished", "Finished", finished)].filter(Boolean)
      : [el("p", { class: "muted", text: "No games yet." })]));
    gamesBox.dataset.count = String(sorted.length);
  }

  async function refresh() {
    const result = await api("GET", "/api/games");
    if (result.ok) { games = result.data.games; drawGames(); }
  }

  drawGames();
  const stream = new EventSource("/stream/games");
  stream.addEventListener("games", refresh);
  stream.addEventListener("open", () => { gamesBox.dataset.live = "yes"; refresh(); });
  stream.addEventListener("error", () => { gamesBox.dataset.live = "no"; });
})();
