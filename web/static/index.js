/* The start page: the new-game form and the list of games. The list follows the table
   live, redrawn in place: a game started on another phone, or a roll read by the camera,
   never reloads the page, so names being typed stay where they are. */
"use strict";

(function () {
  const list = document.getElementById("player-list");
  const form = document.getElementById("new-game-form");
  const error = document.getElementById("new-game-error");
  const gamesBox = document.getElementById("games");
  const PAGE = 10;  /* games shown per group before "Show more" (web.views.pages.LIST_PAGE) */
  const MAX_LIMIT = 200;  /* the most one request of the list returns (web.store.MAX_PAGE) */
  const initial = JSON.parse(document.getElementById("initial-games").textContent);
  /* each group is a query of GET /api/games: the first `shown` games of it, and its total */
  const groups = {
    playing: { title: "Playing now", query: "status=playing", shown: PAGE, page: initial.playing },
    finished: { title: "Finished", query: "status=finished", shown: PAGE, page: initial.finished },
    archived: { title: "Archived", query: "archived=1", shown: PAGE, page: null },
  };
  const archiveBox = document.getElementById("archived-games");

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
      const chosen = chosenGame();
      document.getElementById("card-options").hidden = chosen !== "cards";
      /* who starts and the First Finish Bonus are for several players of the dice game */
      for (const box of form.querySelectorAll(".dice-option")) box.hidden = chosen !== "dice";
      for (const item of [...list.children].slice(1)) item.hidden = chosen === "solitaire";
      document.getElementById("add-player").hidden = chosen === "solitaire";
      list.querySelector("input").placeholder = chosen === "solitaire" ? "Your name" : "Player 1";
    });
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const players = [...form.querySelectorAll("input[name=player]")]
      .filter((input) => !input.closest("li").hidden)
      .map((input) => input.value.trim()).filter(Boolean);
    const order = form.querySelector("input[name=order]:checked").value;
    const body = chosenGame() === "cards"
      ? { players, game: "cards", winner: form.querySelector("input[name=winner]:checked").value }
      : { players, solitaire: chosenGame() === "solitaire", roll_off: chosenGame() === "dice" && order === "roll_off",
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

  function describe(game) {
    return `Game ${game.id} (${game.players.join(", ")}` +
      (game.finished ? ", finished" : game.game === "cards" ? `, hand ${game.hand}` : `, round ${game.round}`) + ")";
  }

  function gameItem(game) {
    const totals = Object.entries(game.totals || {}).map(([name, total]) => `${name} ${total}`).join(" · ");
    const buttons = game.archived
      ? [el("button", { type: "button", class: "small", "data-testid": "restore-" + game.id, text: "Restore",
          onclick: () => restore(game) })]
      : [el("button", { type: "button", class: "small", "data-testid": "archive-" + game.id, text: "Archive",
          "aria-label": `Archive game ${game.id}`, onclick: () => archive(game) })];
    buttons.push(el("button", { type: "button", class: "small danger-quiet", "data-testid": "delete-" + game.id,
      text: "Delete", "aria-label": `Delete game ${game.id}`, onclick: () => askDelete(game) }));
    return el("li", { dataset: { gameId: String(game.id) } },
      el("a", { href: "/games/" + game.id },
        el("strong", { text: `Game ${game.id}` }),
        el("span", { class: "names", text: game.players.join(", ") +
          (game.solitaire ? " (solitaire)" : "") + (game.game === "cards" ? " (card game)" : "") }),
        el("time", { class: "when", datetime: game.updated, text: localTime(game.updated) }),
        outcome(game),
        el("span", { class: "totals", text: totals })),
      el("div", { class: "game-actions" }, ...buttons));
  }

  function group(key, titled) {
    const g = groups[key];
    if (!g.page || !g.page.games.length) return null;
    const more = g.page.total - g.page.games.length;
    return el("div", { class: "game-group", "data-testid": "games-" + key },
      titled ? el("h3", { text: `${g.title} (${g.page.total})` }) : null,
      el("ul", { class: "game-list" }, ...g.page.games.map(gameItem)),
      more > 0 ? el("button", { type: "button", class: "more", "data-testid": "more-" + key,
        text: `Show ${Math.min(more, PAGE)} more`,
        onclick: async () => { g.shown += PAGE; await load(key); drawGames(); } }) : null);
  }

  /* newest first (most recently played), games in progress apart from finished ones */
  function drawGames() {
    const count = groups.playing.page.total + groups.finished.page.total;
    const drawn = [group("playing", true), group("finished", true)].filter(Boolean);
    const archivedTotal = groups.archived.page ? groups.archived.page.total : initial.archived_total;
    const none = archivedTotal
      ? `No games playing or finished: ${archivedTotal === 1 ? "one is" : archivedTotal + " are"} under “Archived games” below.`
      : "No games yet: start one below.";
    gamesBox.replaceChildren(...(drawn.length ? drawn : [el("p", { class: "muted", "data-testid": "no-games", text: none })]));
    gamesBox.dataset.count = String(count);
    const archived = groups.archived.page;
    const shown = archived && archiveBox.open;  /* drawn only when opened: its count is enough */
    const list = shown ? group("archived", false) : null;
    document.getElementById("archived-list").replaceChildren(list ||
      el("p", { class: "muted", text: shown ? "No archived games." : "…" }));
    archiveBox.dataset.count = archived ? String(archived.total) : "";
  }

  /* the first `shown` games of a group, in requests of at most MAX_LIMIT */
  async function load(key) {
    const g = groups[key];
    const games = [];
    let total = 0;
    for (let offset = 0; offset < g.shown; offset += MAX_LIMIT) {
      const limit = Math.min(MAX_LIMIT, g.shown - offset);
      const result = await api("GET", `/api/games?${g.query}&offset=${offset}&limit=${limit}`);
      if (!result.ok) return false;
      games.push(...result.data.games);
      total = result.data.total;
      if (result.data.games.length < limit) break;
    }
    g.page = { games, total, offset: 0, limit: g.shown };
    return true;
  }

  async function refresh() {
    const keys = ["playing", "finished", "archived"];  /* the archive's count tells an empty list apart */
    await Promise.all(keys.map(load));
    drawGames();
  }

  /* archive: at once, with an Undo (restore) while the note shows */
  const toast = document.getElementById("games-toast");
  let undoGame = null;
  let toastTimer = null;
  function say(text, undoable) {
    document.getElementById("games-toast-text").textContent = text;
    document.getElementById("games-undo").hidden = !undoable;
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.hidden = true; undoGame = null; }, 15000);
  }
  function refused(result) {
    document.getElementById("games-error").textContent = result.data.error || "refused";
  }
  async function archive(game) {
    const result = await api("POST", `/api/games/${game.id}/archive`, {});
    if (!result.ok) { refused(result); return; }
    document.getElementById("games-error").textContent = "";
    undoGame = game;
    say(`${describe(game)} archived: find it under “Archived games”.`, true);
    await refresh();
  }
  async function restore(game) {
    const result = await api("POST", `/api/games/${game.id}/restore`, {});
    if (!result.ok) { refused(result); return false; }
    document.getElementById("games-error").textContent = "";
    await refresh();
    return true;
  }
  document.getElementById("games-undo").addEventListener("click", async () => {
    const game = undoGame;
    if (!game) return;
    if (await restore(game)) { undoGame = null; say(`Game ${game.id} is back in the list.`, false); }
  });

  /* delete: only after the dialog, which names the game, is confirmed */
  const deleteDialog = document.getElementById("delete-dialog");
  let deleting = null;
  function askDelete(game) {
    deleting = game;
    document.getElementById("delete-title").textContent = `Delete game ${game.id}?`;
    document.getElementById("delete-what").textContent = describe(game) +
      `, last played ${localTime(game.updated)}.`;
    deleteDialog.returnValue = "";
    deleteDialog.showModal();
  }
  deleteDialog.addEventListener("close", async () => {
    const game = deleting;
    deleting = null;
    if (!game || deleteDialog.returnValue !== "ok") return;
    const result = await api("DELETE", `/api/games/${game.id}`, {});
    if (!result.ok) { refused(result); return; }
    document.getElementById("games-error").textContent = "";
    if (undoGame && undoGame.id === game.id) undoGame = null;
    say(`${describe(game)} deleted.`, false);
    await refresh();
  });

  archiveBox.addEventListener("toggle", async () => {
    if (archiveBox.open) { await load("archived"); drawGames(); }
  });

  drawGames();
  const stream = new EventSource("/stream/games");
  stream.addEventListener("games", refresh);
  stream.addEventListener("open", () => { gamesBox.dataset.live = "yes"; refresh(); });
  stream.addEventListener("error", () => { gamesBox.dataset.live = "no"; });
})();
