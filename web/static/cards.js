/* The card game's page: record a hand in one go (phase made? and the points, counted with
   +5/+10/+25 so nobody adds in their head), correct an earlier hand, and follow the sheet
   live over server-sent events. */
"use strict";

(function () {
  const root = document.getElementById("game");
  const gameId = root.dataset.gameId;
  const base = "/api/games/" + gameId;
  const $ = (id) => document.getElementById(id);
  let state = JSON.parse($("initial-state").textContent);
  let busy = false;
  let editing = null;  /* the index of the hand being corrected, or null for the next hand */
  let drawnFor = null;  /* the version (and hand) the entry rows were drawn for */

  const phaseLabel = (n) => state.scorepad.phases[n - 1].label;

  /* ---------- the entry rows ---------- */

  function playerRow(player, phase, result) {
    const made = el("input", { type: "checkbox", "data-testid": "made-" + player });
    made.checked = Boolean(result && result.made);
    const points = el("input", { type: "number", inputmode: "numeric", min: "0", step: "5",
      "aria-label": `${player}'s points`, "data-testid": "points-" + player, placeholder: "points" });
    if (result) points.value = String(result.points);
    const row = el("div", { class: "hand-row", dataset: { player } });
    const mark = () => row.classList.toggle("is-out", points.value === "0");
    points.addEventListener("input", mark);
    const add = (value) => {
      points.value = String((Number(points.value) || 0) + value);
      mark();
    };
    row.append(
      el("div", { class: "who" }, el("strong", { text: player }),
        el("span", { class: "muted", text: `Phase ${phase}: ${phaseLabel(phase)}` })),
      el("label", { class: "made" }, made, ` Laid down phase ${phase}`),
      el("div", { class: "points" }, points,
        ...state.card_values.map((card) => el("button", {
          type: "button", class: "add", title: `a card ${card.label}: ${card.points} points`,
          "data-testid": `add-${card.points}-${player}`, text: "+" + card.points,
          onclick: () => add(card.points) }))),
      el("div", { class: "card-buttons" },
        el("button", { type: "button", "data-testid": "out-" + player, text: "Went out",
          onclick: () => { points.value = "0"; made.checked = true; mark(); } }),
        el("button", { type: "button", "data-testid": "clear-" + player, text: "Clear",
          onclick: () => { points.value = ""; mark(); } })));
    mark();
    return row;
  }

  function drawEntry(force) {
    const key = `${state.version}:${editing}`;
    if (!force && drawnFor === key) return;
    drawnFor = key;
    const record = editing === null ? null : state.hands[editing];
    const phases = Object.fromEntries(state.scorepad.columns.map((c) => [c.player, c.current_phase]));
    const rows = state.is_over && !record ? [] : state.players;  /* no next hand after the end */
    $("hand-rows").replaceChildren(...rows.map((player) => {
      if (record) {
        const result = record.results.find((r) => r.player === player);
        return playerRow(player, result.phase, result);
      }
      return playerRow(player, phases[player], null);
    }));
    const title = record ? `Correct hand ${record.number}` : `Record hand ${state.hand}`;
    $("hand-title").textContent = title;
    $("hand-save").textContent = record ? `Save the correction of hand ${record.number}` : title;
    $("hand-cancel").hidden = !record;
    $("hand-error").textContent = "";
    $("hand-form").hidden = state.is_over && !record;
  }

  /* a refusal ("Enter Ann's points") goes as soon as the hand is changed */
  for (const kind of ["input", "click"]) {
    $("hand-rows").addEventListener(kind, () => { $("hand-error").textContent = ""; });
  }

  function readHand() {
    const hand = [];
    for (const row of $("hand-rows").children) {
      const player = row.dataset.player;
      const text = row.querySelector("input[type=number]").value.trim();
      if (text === "") throw new Error(`Enter ${player}'s points: tap the cards left in hand, or Went out.`);
      hand.push({ player, made: row.querySelector("input[type=checkbox]").checked, points: Number(text) });
    }
    return hand;
  }

  /* ---------- the sheet ---------- */

  function drawSheet() {
    const pad = state.scorepad;
    const columns = pad.columns;
    const best = columns.length ? Math.min(...columns.map((c) => c.grand_total)) : null;
    const head = el("tr", {}, el("th", { class: "corner", scope: "col", text: "Phase" }),
      ...columns.map((c) => el("th", { scope: "col", title: c.player, dataset: { player: c.player } },
        c.player, c.finished ? el("span", { class: "tick", title: "phase 10 completed", text: " ✓" }) : null)));
    const phaseRows = pad.phases.map((phase) => el("tr", { dataset: { row: "phase-" + phase.number } },
      el("th", { scope: "row" }, el("span", { class: "num", text: phase.number }), " ", phase.label),
      ...columns.map((c) => {
        const hand = c.phase_hands[phase.number - 1];
        const now = !state.is_over && c.current_phase === phase.number;
        return el("td", { class: hand !== null ? "made-here" : (now ? "now" : null), "data-testid": "cell",
          dataset: { player: c.player, row: "phase-" + phase.number },
          title: hand !== null ? `made in hand ${hand}` : (now ? "the phase to make now" : null),
          text: hand !== null ? `hand ${hand}` : "" });
      })));
    const handRows = state.hands.map((record) => el("tr", { class: "hand-points", dataset: { row: "hand-" + record.number } },
      el("th", { scope: "row", text: `Hand ${record.number}` }),
      ...columns.map((c) => el("td", { "data-testid": "cell", dataset: { player: c.player, row: "hand-" + record.number },
        text: record.went_out.includes(c.player) ? "out · 0" : String(c.hand_points[record.index]) }))));
    const total = el("tr", { class: "total", dataset: { row: "grand_total" } },
      el("th", { scope: "row", text: "Total (lowest wins)" }),
      ...columns.map((c) => el("td", { class: c.grand_total === best && state.hands.length ? "leader" : null,
        "data-testid": "cell", dataset: { player: c.player, row: "grand_total" }, text: String(c.grand_total) })));
    $("scorepad").replaceChildren(el("thead", {}, head), el("tbody", {}, ...phaseRows, ...handRows, total));
  }

  function drawHands() {
    $("hand-list").replaceChildren(...state.hands.map((record) => el("li", { "data-testid": "hand-" + record.number },
      `Hand ${record.number}: ${record.went_out.join(", ")} went out; ` +
        record.results.filter((r) => r.made).map((r) => `${r.player} made phase ${r.phase}`).join(", ") || "",
      el("button", { type: "button", "data-testid": "correct-hand-" + record.number, text: "Correct",
        onclick: () => { editing = record.index; drawEntry(true); $("hand-form").scrollIntoView(); } }))));
  }

  function drawStatus() {
    if (state.is_over) {
      $("status-line").textContent = "Game over";
    } else {
      $("status-line").replaceChildren(el("strong", { text: `Hand ${state.hand}` }),
        el("span", { class: "muted", text: " · the lowest total wins" }));
    }
    $("game-over").hidden = !state.is_over;
    if (!state.is_over) return;
    const winners = state.winners;
    $("winner-line").textContent = (winners.length > 1 ? "Winners: " : "Winner: ") + winners.join(" & ");
    const sorted = [...state.scorepad.columns].sort((a, b) => a.grand_total - b.grand_total);
    $("standings").replaceChildren(...sorted.map((c) => el("li", { class: winners.includes(c.player) ? "winner" : null },
      el("span", { text: c.player + (c.finished ? " (phase 10 completed)" : ` (on phase ${c.current_phase})`) }),
      el("span", { text: String(c.grand_total) }))));
  }

  function draw(force) {
    if (editing !== null && editing >= state.hands.length) editing = null;
    drawStatus();
    drawEntry(force);
    drawSheet();
    drawHands();
    $("undo").disabled = state.version <= 1;
    root.dataset.version = String(state.version);
    document.title = `Card game ${state.id} · Phase 10`;
  }

  /* ---------- actions ---------- */

  async function send(method, url, body) {
    if (busy) return null;
    busy = true;
    try {
      const result = await api(method, url, body);
      if (result.ok) {
        $("hand-error").textContent = "";
        $("conn").textContent = "";
        editing = null;
        /* every change to a card game is a new version, and the stream brings each: a
           reply that lands after a newer one (another phone's hand) must not take it back */
        if (result.data.version >= state.version) state = result.data;
        draw(true);
      } else {
        if (result.status === 0) setOnline(false);
        $("hand-error").textContent = result.data.error || "refused";
      }
      return result;
    } finally { busy = false; }
  }

  $("hand-form").addEventListener("submit", (event) => {
    event.preventDefault();
    let hand;
    try { hand = readHand(); } catch (err) { $("hand-error").textContent = err.message; return; }
    if (editing === null) send("POST", base + "/hand", { hand, version: state.version });
    else send("PUT", `${base}/hands/${editing}`, { hand, version: state.version });
  });
  $("hand-cancel").addEventListener("click", () => { editing = null; drawEntry(true); });
  $("undo").addEventListener("click", () => {
    if (confirm("Undo the last change to the score sheet?")) send("POST", base + "/undo", { version: state.version });
  });

  /* ---------- live updates ---------- */

  function setOnline(online) {
    $("offline").hidden = online;
    root.dataset.online = online ? "yes" : "no";
    for (const id of ["hand-form", "undo"]) $(id).inert = !online;
  }

  function follow() {
    const source = new EventSource("/stream/games/" + gameId);
    source.addEventListener("state", (event) => {
      state = JSON.parse(event.data);
      draw(false);  /* the rows being typed stay unless the game moved on */
    });
    source.addEventListener("open", () => { $("conn").textContent = ""; root.dataset.live = "yes"; setOnline(true); });
    source.addEventListener("error", () => {
      root.dataset.live = "no";
      $("conn").textContent = "reconnecting…";
      if (source.readyState !== EventSource.OPEN) setOnline(false);
    });
  }

  draw(true);
  follow();
})();
