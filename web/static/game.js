/* The scorepad page: draws the game state and follows it live over server-sent events. */
"use strict";

(function () {
  const root = document.getElementById("game");
  const gameId = root.dataset.gameId;
  const base = "/api/games/" + gameId;
  const $ = (id) => document.getElementById(id);
  let state = JSON.parse($("initial-state").textContent);
  let config = { advice: false };
  let busy = false;
  /* One request at a time: while one is out, a tap on another action is not sent, and
     the page says so in data-busy (the browser tests wait on it, as a player waits). */
  function setBusy(flag) { busy = flag; root.dataset.busy = flag ? "yes" : "no"; }
  let streamStates = 0;  /* states received from the live stream so far */
  let drawnCamera = state.camera;  /* hand entry opens by itself only when this changes */

  /* ---------- drawing ---------- */

  const SHEET_ROWS = [
    ...[1, 2, 3, 4, 5].map((n) => ({ key: "phase-" + n, phase: n })),
    { key: "five_phase_bonus", label: "Five Phase Bonus", cls: "bonus" },
    { key: "five_phase_total", label: "Five Phase Total", cls: "subtotal" },
    ...[6, 7, 8, 9, 10].map((n) => ({ key: "phase-" + n, phase: n })),
    { key: "first_finish_bonus", label: "First Finish Bonus", cls: "bonus" },
    { key: "failed_turns", label: "Failed turns (−5 each)", cls: "penalty", solitaire: true },
    { key: "grand_total", label: "Grand Total", cls: "total" },
  ];

  function cellValue(column, row) {
    if (row.phase) {
      const score = column.phase_scores[row.phase - 1];
      return score === null ? "" : String(score);
    }
    if (row.key === "failed_turns") return column.failed_turns ? `−${5 * column.failed_turns}` : "";
    if (row.key === "five_phase_bonus" || row.key === "first_finish_bonus") {
      return column[row.key] ? String(column[row.key]) : "";
    }
    return String(column[row.key]);
  }

  function drawSheet() {
    const pad = state.scorepad;
    const table = $("scorepad");
    const phases = Object.fromEntries(pad.phases.map((p) => [p.number, p.label]));
    const head = el("tr", {}, el("th", { class: "corner", scope: "col", text: "Phase" }),
      ...pad.columns.map((c) => el("th", {
        scope: "col", class: c.player === state.active_player ? "active" : null,
        title: c.player, dataset: { player: c.player },
      }, c.player, c.finished ? el("span", { class: "tick", title: "all ten phases made", text: " ✓" }) : null)));
    const body = SHEET_ROWS.filter((row) => !row.solitaire || state.solitaire).map((row) => {
      const label = row.phase
        ? el("th", { scope: "row" }, el("span", { class: "num", text: row.phase }), " ", phases[row.phase])
        : el("th", { scope: "row", text: row.label });
      return el("tr", { class: row.cls || null, dataset: { row: row.key } }, label,
        ...pad.columns.map((c) => {
          const here = c.player === state.active_player;
          const classes = [];
          if (here) classes.push("active");
          if (here && row.phase && state.active_phase && row.phase === state.active_phase.number) classes.push("now");
          const played = row.phase ? turnsOf(c.player, row.phase).length > 0 : false;
          if (played) classes.push("editable");
          const title = row.key === "failed_turns" && c.failed_turns
            ? `${c.failed_turns} failed ${c.failed_turns === 1 ? "turn" : "turns"}, −5 each` : null;
          return el("td", { class: classes.join(" ") || null, dataset: { player: c.player, row: row.key },
            title: played ? `${c.player}, Phase ${row.phase}: tap to see or correct the turn` : title,
            role: played ? "button" : null, tabindex: played ? "0" : null,
            "data-testid": "cell" }, cellValue(c, row));
        }));
    });
    table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
    const active = table.querySelector("thead th.active");
    const scroller = table.parentElement;
    if (active && scroller.scrollWidth > scroller.clientWidth) {
      const label = table.querySelector("thead th.corner").offsetWidth;
      scroller.scrollLeft = Math.max(0, active.offsetLeft - label - 8);
    }
  }

  function turnsOf(player, phase) {
    return state.turns.filter((t) => t.player === player && t.phase === phase);
  }

  function drawStatus() {
    const line = $("status-line");
    if (state.is_over) {
      line.textContent = state.solitaire
        ? `Game over · final score ${state.scorepad.columns[0].grand_total}` : "Game over";
    } else if (state.roll_off_pending.length) {
      line.textContent = "Roll-off: " + state.roll_off_pending.join(", ") + " to roll one high die";
    } else {
      line.replaceChildren(el("strong", { text: state.active_player }),
        ` · Phase ${state.active_phase.number}: ${state.active_phase.label}`,
        el("span", { class: "muted", text: ` · round ${state.round}` }));
    }
  }

  function drawRollOff() {
    const panel = $("roll-off-panel");
    const pending = state.roll_off_pending || [];
    const throws = Object.entries(state.roll_off_throws || {}).filter(([, values]) => values.length);
    const settled = pending.length === 0 ? " → play order " + state.play_order.join(", ") : "";
    $("roll-off-throws").hidden = throws.length === 0;
    $("roll-off-throws").textContent = "Roll-off: " +
      throws.map(([player, values]) => player + " " + values.join(", ")).join(" · ") + settled;
    panel.hidden = state.is_over || pending.length === 0;
    const tied = pending.filter((player) => (state.roll_off_throws[player] || []).length > 0);
    const tie = $("roll-off-tie");
    tie.hidden = tied.length < 2;
    if (tied.length >= 2) {
      const value = state.roll_off_throws[tied[0]].slice(-1)[0];
      tie.textContent = `Tie: ${names(tied)} ${tied.length === 2 ? "both" : "all"} rolled ${value}. Roll again, just ${tied.length === 2 ? "you two" : "you " + tied.length}.`;
    }
    const values = [5, 6, 7, 8, 9, 10];
    const reading = state.current && state.current.dice.length === 1 && state.current.dice[0].value >= 5
      ? state.current.dice[0].value : null;
    $("roll-off-players").replaceChildren(...pending.map((player) => el("div", { class: "roll-off-row" },
      el("span", { class: "who", text: player }),
      ...values.map((v) => el("button", {
        type: "button", class: v === reading ? "value read" : "value", text: String(v),
        "data-testid": `roll-off-${player}-${v}`,
        onclick: () => act("roll-off", { player, value: v, ...seen() }),
      })))));
  }

  function drawGameOver() {
    const box = $("game-over");
    box.hidden = !state.is_over;
    $("turn-area").hidden = state.is_over || state.roll_off_pending.length > 0;
    if (!state.is_over) return;
    const winners = state.winners;
    if (state.solitaire) {  /* one player: a final score, not a winner */
      const column = state.scorepad.columns[0];
      $("winner-line").textContent = `Final score: ${column.grand_total} points`;
      $("standings").replaceChildren(el("li", {}, el("span", { class: "who", text: column.player }),
        el("span", { class: "pts", text: column.failed_turns
          ? `${column.failed_turns} failed ${column.failed_turns === 1 ? "turn" : "turns"}, −${5 * column.failed_turns}`
          : "no failed turns" })));
      return;
    }
    $("winner-line").textContent = (winners.length > 1 ? "Winners: " : "Winner: ") + winners.join(" & ");
    const columns = [...state.scorepad.columns].sort((a, b) => b.grand_total - a.grand_total);
    $("standings").replaceChildren(...columns.map((c) => el("li",
      { class: winners.includes(c.player) ? "winner" : null },
      el("a", { class: "who", href: "/players/" + encodeURIComponent(c.player), text: c.player }),
      el("span", { class: "pts", text: c.grand_total + " points" }))));
  }

  const names = (list) => list.length > 1 ? list.slice(0, -1).join(", ") + " and " + list[list.length - 1] : list.join("");

  /* After the first finish: who finished, who keeps rolling until they miss, who is out. */
  function drawFinish() {
    const banner = $("finish-banner");
    const columns = state.scorepad.columns;
    const finished = columns.filter((c) => c.finished).map((c) => c.player);
    const out = columns.filter((c) => c.out).map((c) => c.player);
    const still = columns.filter((c) => !c.finished && !c.out).map((c) => c.player);
    banner.hidden = state.solitaire || finished.length === 0;
    if (banner.hidden) return;
    const parts = [`${names(finished)} finished`];
    if (!state.is_over && still.length) {
      parts[0] += `: ${names(still)} ` + (still.length === 1 ? "keeps rolling until a miss" : "keep rolling until they miss");
    }
    if (out.length) parts.push(`${names(out)} ${out.length === 1 ? "is" : "are"} out`);
    banner.textContent = parts.join(". ") + ".";
  }

  const SOURCES = { camera: "read by the camera", photo: "read from a photo", hand: "entered by hand" };
  /* What a reading's flags tell the players about their camera or photo (the rest are
     shown on the dice themselves). */
  const FLAG_NOTES = {
    "out-of-focus": "the picture is out of focus: focus the camera for surer readings",
  };
  const MAX_NAMED = 4;  /* more faces than this, and the note does not list them */
  /* The faces a settled die was weighed as, in words: "red or orange" for a colour
     doubt, "5 red or 3 orange" where colour counts, else the numbers ("5 or 3"). */
  function likelyWords(faces, colourOnly, colourCounts) {
    const number = (face) => (face.wild ? "Wild" : String(face.value));
    const word = colourOnly ? (face) => face.colour_name
      : colourCounts ? (face) => `${number(face)} ${face.colour_name}` : number;
    const words = faces.map(word);
    return words.slice(0, -1).join(", ") + " or " + words[words.length - 1];
  }

  function rollSourceText(current) {
    const notes = (current.flags || []).map((flag) => FLAG_NOTES[flag]).filter(Boolean);
    return [SOURCES[current.source] || "entered by hand", ...notes].join("; ");
  }

  function drawRoll() {
    const current = state.current;
    const dice = $("dice");
    const verdictBox = $("verdict");
    $("roll-number").textContent = current ? `Roll ${current.roll_number}/${current.rolls_per_turn}` : "No roll yet";
    $("roll-source").textContent = current ? rollSourceText(current) : "";
    const take = $("take-score");
    if (!current) {
      dice.replaceChildren(el("p", { class: "muted", "data-testid": "no-roll", text: noRollText() }));
      verdictBox.replaceChildren();
      verdictBox.className = "verdict";
      take.disabled = true;
      take.textContent = "Take score";
      $("hint").hidden = true;
      return;
    }
    const verdict = current.verdict;
    dice.replaceChildren(...current.dice.map((die, index) => {
      const place = verdict && verdict.made ? verdict.placement[index] : null;
      return dieElement(die, {
        index, button: true, used: place !== null && place !== undefined,
        unused: verdict && verdict.made && !place, standsFor: place ? place.stands_for : null,
      });
    }));
    const notes = [];
    const unreadable = current.unreadable_count || 0;
    if (unreadable) {
      notes.push(el("p", { class: "warn", "data-testid": "unreadable-note", text:
        `The ${current.source === "photo" ? "photo" : "camera"} could not read ` +
        (unreadable === 1 ? "one die" : `${unreadable} dice`) +
        ": tap the ? and say what it shows. The roll cannot be scored until then." }));
    }
    if (!current.full && !unreadable) notes.push(el("p", { class: "muted", text: `${current.dice.length} of 10 dice` }));
    const settled = current.settled_count || 0;
    const colourOnly = settled > 0 && (current.colour_doubt_count || 0) === settled;
    if (settled && verdict) {
      const one = settled === 1;
      const seen = current.source === "photo" ? "photo" : "camera";
      const marked = one ? "one die (marked ?)" : `${settled} dice (marked ?)`;
      const outcome = "the roll " + (verdict.made ? `makes Phase ${verdict.phase} for ${verdict.score} points`
                                                  : `does not make Phase ${verdict.phase}`) + ", so the score stands";
      // One die the camera narrowed to a few faces: name them ("it shows 5 or 3").
      const likely = one ? (current.dice.find((die) => die.settled) || {}).likely : null;
      const why = colourOnly && !current.colour_counts
        ? `Colour does not count in Phase ${verdict.phase}, so the score stands`
        : likely && likely.length > 1 && likely.length <= MAX_NAMED
          ? `It ${colourOnly ? "is" : "shows"} ${likelyWords(likely, colourOnly, current.colour_counts)}: ` +
            `either way, ${outcome}`
          : `Whatever ${colourOnly ? (one ? "its colour" : "their colours")
                                   : (one ? "it" : "they") + (likely ? " most likely" : "") + (one ? " shows" : " show")}, ` +
            outcome;
      notes.push(el("p", { class: "muted", "data-testid": "settled-note", text:
        `The ${seen} was unsure of ` +
        (colourOnly ? `the colour of ${marked}, not of ${one ? "its number" : "their numbers"}. `
                    : `${marked}. `) +
        why + "; tap a die to correct it if you like." }));
    }
    if (verdict) {
      verdictBox.className = "verdict " + (verdict.made ? "made" : "not-made");
      const groups = verdict.groups.map((g) => el("li", {}, el("strong", { text: g.label + ": " }), g.text));
      verdictBox.replaceChildren(
        el("p", { class: "headline", "data-testid": "verdict-headline" },
          (unreadable ? "Without the ? dice: " : "") +
          (verdict.made ? `Makes Phase ${verdict.phase} for ${verdict.score} points` : `Does not make Phase ${verdict.phase}`)),
        ...[groups.length ? el("ul", { class: "groups" }, ...groups) : null, ...notes].filter(Boolean));
      const checked = diceChecked(verdict.made && !unreadable);  /* drawn made or not */
      take.disabled = !verdict.made || unreadable > 0 || !checked;
      take.textContent = verdict.made && !unreadable ? `Take ${verdict.score} points` : "Take score";
    } else {
      verdictBox.className = "verdict";
      verdictBox.replaceChildren(...notes);
      diceChecked(false);
      take.disabled = true;
    }
    drawHint();
  }

  /* Dice the camera was unsure of ("?") and faces the ten dice cannot show together ("!")
     are marked on the dice; before "Take N points" the players tap them to correct them,
     or tick that they checked them (the score then says "confirmed", which the server
     asks for). A new roll on the table needs a new tick. Returns whether scoring may go. */
  let checkedRoll = null;
  function diceChecked(scorable) {
    const current = state.current;
    const box = $("confirm-box");
    const key = current ? `${state.roll_id}:${current.notation}` : null;
    if (key !== checkedRoll) $("confirm-dice").checked = false;
    if (!current || !current.needs_confirmation) { box.hidden = true; return true; }
    const parts = [];
    const unsure = current.unsure_count - (current.settled_count || 0);
    const impossible = current.impossible_count;
    /* one die to check, and the faces the camera found it most likely shows instead */
    const asked = unsure === 1 ? current.dice.find((die) => die.unsure && !die.settled) : null;
    const faceWords = (face) => `${face.wild ? "Wild" : face.value} ${face.colour_name}`;
    const maybe = asked && asked.might_be && asked.might_be.length
      ? `, read as ${faceWords(asked)} but maybe ${asked.might_be.map(faceWords).join(" or ")}` : "";
    if (unsure) parts.push(`the ${current.source === "photo" ? "photo" : "camera"} was unsure of ` +
      (unsure === 1 ? `one die (marked ?)${maybe}` : `${unsure} dice (marked ?)`));
    if (impossible) parts.push(`the ten dice cannot show ${impossible === 1 ? "this face" : `these ${impossible} faces`} ` +
      "together (marked !), so one of them is probably read wrong");
    $("confirm-text").textContent = "Check the roll: " + parts.join("; ") +
      ". Tap a marked die to say what it really shows" +
      (scorable ? ", or tick below if the dice are right." : ".");
    $("confirm-label").hidden = !scorable;
    box.hidden = false;
    return $("confirm-dice").checked && checkedRoll === key;
  }
  $("confirm-dice").addEventListener("change", (event) => {
    checkedRoll = event.target.checked && state.current ? `${state.roll_id}:${state.current.notation}` : null;
    drawRoll();
  });

  function noRollText() {
    if ($("demo-roll")) return "Tap “Roll the demo dice”, or enter the roll by hand below.";
    if (!state.camera) return "Enter the roll by hand below.";
    return "Roll the dice in the tray, or enter the roll by hand below.";
  }

  /* The camera feeds one chosen game; without it, the roll is entered by hand. */
  function drawCamera() {
    const use = $("use-camera");
    if (use) {
      use.checked = state.camera;
      use.disabled = state.is_over;
    }
    const demo = $("demo-roll");
    if (demo) demo.hidden = state.is_over;
    if (state.camera !== drawnCamera) {
      drawnCamera = state.camera;
      $("hand-entry").open = !state.camera;
    }
  }

  /* A typed roll is either the next roll of the turn or a fix of the roll on the table. */
  function drawEntryButtons() {
    const number = state.current ? state.current.roll_number : 0;
    const last = Boolean(state.current) && number >= state.current.rolls_per_turn;
    const next = number ? `Roll ${number + 1}` : "Use";
    $("notation-next").textContent = next;
    $("built-use").textContent = number ? `Use as roll ${number + 1}` : "Use these dice";
    $("notation-next").hidden = last;
    $("built-use").hidden = last;
    for (const id of ["notation-fix", "built-fix"]) {
      $(id).hidden = !number;
      $(id).textContent = `Fix roll ${number}`;
    }
  }

  async function drawHint() {
    const hint = $("hint");
    if (!config.advice || !state.current || !state.active_phase || !state.current.full) { hint.hidden = true; return; }
    hint.hidden = false;
    const version = state.version + ":" + state.current.notation + ":" + state.current.roll_number;
    if (hint.dataset.version === version) return;
    hint.dataset.version = version;
    $("hint-text").textContent = "…";
    const result = await api("GET", base + "/advice");
    $("hint-text").textContent = result.ok ? result.data.text : (result.data.error || "no hint");
  }

  function draw() {
    drawStatus();
    drawRollOff();
    drawGameOver();
    drawFinish();
    drawCamera();
    drawRoll();
    drawEntryButtons();
    drawSheet();
    $("undo").disabled = !state.undo;
    $("undo").textContent = undoLabel();
    $("undo").title = state.undo ? `Undo ${state.undo}` : "nothing to undo";
    const last = state.turns[state.turns.length - 1];
    $("last-turn").textContent = last ? `Last turn: ${last.player}, Phase ${last.phase}, ` +
      (last.made ? `${last.score} points` : "no score") : "";
    root.dataset.version = String(state.version);
    root.dataset.roll = state.current ? state.current.notation : "";
    document.title = `Game ${state.id} · Phase 10 Dice`;
  }

  /* The button names what it undoes: a turn, a roll-off throw or a correction. */
  function undoLabel() {
    const what = state.undo || "";
    if (what.includes("roll-off throw")) return "Undo the last throw";
    if (what.startsWith("the correction")) return "Undo the correction";
    return "Undo last turn";
  }

  /* ---------- actions ---------- */

  function showError(message, httpStatus) {
    if (httpStatus === 0) setOnline(false);  /* the request never reached the server */
    if (message) message = message.charAt(0).toUpperCase() + message.slice(1);
    $("entry-error").textContent = message || "";
    const status = $("conn");
    status.textContent = message || "";
    status.classList.toggle("error", Boolean(message));
  }

  async function send(method, url, body) {
    if (busy) return null;
    setBusy(true);
    $("undone").hidden = true;
    const seen = streamStates;
    try {
      const result = await api(method, url, body);
      if (result.ok) { showError(""); adoptReply(result.data, seen); }
      else showError(result.data.error || "refused", result.status);
      return result;
    } finally { setBusy(false); }
  }

  function act(action, body) { return send("POST", `${base}/${action}`, body || {}); }

  function adopt(next) {
    if (next && typeof next.version === "number") { state = next; draw(); }
  }

  /* A reply's state, taken only if no state came from the live stream since the request
     went (`seen`, the stream's count then): the server sends every change down the
     stream, the request's own too, so a reply that lands after a newer state (a roll put
     on the table just after this action) must not take it back. */
  function adoptReply(next, seen) {
    if (streamStates === seen) adopt(next);
  }

  /* version and roll_id, as this phone shows them, go with every change: the server
     refuses it (409) if the game or the roll on the table moved on meanwhile */
  const seen = () => ({ version: state.version, roll_id: state.roll_id });
  const guard = () => ({ player: state.active_player, ...seen() });
  $("take-score").addEventListener("click", () => {
    const confirmed = Boolean(state.current && state.current.needs_confirmation && $("confirm-dice").checked);
    act("score", confirmed ? { ...guard(), confirmed: true } : guard());
  });
  /* ending the turn with a roll that makes the phase throws those points away: ask first */
  $("fail-turn").addEventListener("click", () => {
    const verdict = state.current && state.current.verdict;
    if (verdict && verdict.made && !confirm(`This roll makes Phase ${verdict.phase} for ${verdict.score} points. ` +
        `End ${state.active_player}'s turn without a score anyway?`)) return;
    act("fail", guard());
  });
  $("undo").addEventListener("click", async () => {
    const what = state.undo || "the last action on the score sheet";
    if (!confirm(`Undo ${what}?`)) return;
    const result = await act("undo", seen());
    if (result && result.ok) {
      $("undone").textContent = `Undone: ${what}.`;
      $("undone").hidden = false;
    }
  });

  if ($("use-camera")) $("use-camera").addEventListener("change", async (event) => {
    const wanted = event.target.checked;
    const result = await send("PUT", "/api/camera/game", { game: wanted ? Number(gameId) : null });
    if (!result || !result.ok) { event.target.checked = state.camera; return; }
    const seen = streamStates;
    const fresh = await api("GET", base);
    /* a state from the stream meanwhile (a camera roll, say) is newer than this reply */
    if (fresh.ok) adoptReply(fresh.data, seen);
  });
  if ($("demo-roll")) $("demo-roll").addEventListener("click", async () => {
    if (!state.camera) {  /* the demo dice roll for the game the camera feeds: this one */
      const chosen = await send("PUT", "/api/camera/game", { game: Number(gameId) });
      if (!chosen || !chosen.ok) return;
    }
    const result = await send("POST", base + "/demo-roll", {});
    if (result && result.ok) $("roll-source").textContent = `the demo dice are rolling (roll ${result.data.roll_number})…`;
  });

  /* Snap the dice: the phone's camera (or a picture chosen), read by the server; the
     roll goes on the table as the turn's next one, and the annotated photo shows here. */
  $("snap").addEventListener("click", () => $("photo-input").click());
  $("photo-input").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file || busy) return;
    setBusy(true);
    $("snap").disabled = true;
    $("photo-status").textContent = "Reading the photo…";
    const form = new FormData();
    form.append("photo", file, file.name || "photo.jpg");
    const seen = streamStates;
    try {
      const result = await apiForm(base + "/photo", form);
      const photo = result.data.photo;
      $("photo-result").hidden = !photo;
      if (photo) {
        $("photo-overlay").src = photo.overlay;
        $("photo-message").textContent = photo.message +
          (photo.unsure ? ` (${photo.unsure} unsure: tap a die to correct it)` : "");
      }
      if (result.ok) {
        showError("");
        $("photo-status").textContent = "";
        adoptReply(result.data, seen);
      } else {
        $("photo-status").textContent = result.data.error || "the photo could not be read";
        showError("", result.status);  /* said once, under the photo; offline still noticed */
      }
    } finally {
      setBusy(false);
      $("snap").disabled = false;
      event.target.value = "";  /* the same photo may be chosen again */
    }
  });

  /* PUT edits the roll on the table (same roll number); POST is the next roll. After the
     last roll of the turn there is no next one, so Enter fixes that roll. */
  function typedMethod(fix) {
    return fix || (state.current && state.current.roll_number >= state.current.rolls_per_turn) ? "PUT" : "POST";
  }

  $("notation-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("notation-input");
    const fix = event.submitter && event.submitter.id === "notation-fix";
    const result = await send(typedMethod(fix), base + "/roll", { roll: input.value, ...seen() });
    if (result && result.ok) input.value = "";
  });

  /* tap-to-build picker: a colour stays selected; each number tapped adds a die of it */
  let colour = document.querySelector("#picker .swatch.selected").dataset.colour;
  let built = [];
  function drawBuilt() {
    $("built").replaceChildren(...built.map((notation, index) => el("button", {
      type: "button", class: "chip c-" + notation.slice(-1), text: notation, title: "remove " + notation,
      onclick: () => { built.splice(index, 1); drawBuilt(); },
    })));
    $("built-use").disabled = built.length === 0;
    $("built-fix").disabled = built.length === 0;
  }
  document.querySelectorAll("#picker .swatch").forEach((button) => button.addEventListener("click", () => {
    colour = button.dataset.colour;
    document.querySelectorAll("#picker .swatch").forEach((b) => {
      b.classList.toggle("selected", b === button);
      b.setAttribute("aria-checked", b === button ? "true" : "false");
    });
  }));
  document.querySelectorAll("#picker .value").forEach((button) => button.addEventListener("click", () => {
    if (built.length < 10) built.push(button.dataset.value + colour);
    drawBuilt();
  }));
  $("built-clear").addEventListener("click", () => { built = []; drawBuilt(); });
  async function useBuilt(fix) {
    const result = await send(typedMethod(fix), base + "/roll", { roll: built.join(" "), ...seen() });
    if (result && result.ok) { built = []; drawBuilt(); }
  }
  $("built-use").addEventListener("click", () => useBuilt(false));
  $("built-fix").addEventListener("click", () => useBuilt(true));
  drawBuilt();

  /* one tap corrects a die: value and colour */
  const fixDialog = $("die-dialog");
  let fixIndex = null;
  let fixValue = null;
  let fixColour = null;
  function drawFix() {
    $("fix-preview").textContent = `${fixValue ?? "?"}${fixColour ?? "?"}`;
    $("fix-ok").disabled = fixValue == null || fixColour == null;
    fixDialog.querySelectorAll("#fix-values .value").forEach((b) => b.classList.toggle("selected", b.dataset.value === String(fixValue)));
    fixDialog.querySelectorAll("#fix-colours .swatch").forEach((b) => b.classList.toggle("selected", b.dataset.colour === fixColour));
  }
  $("dice").addEventListener("click", (event) => {
    const target = event.target.closest(".die");
    if (!target || !state.current) return;
    fixIndex = Number(target.dataset.index);
    const die = state.current.dice[fixIndex];
    fixValue = die.value;  /* null for a die the camera could not read: pick both */
    fixColour = die.colour;
    /* the faces the camera found it most likely shows instead: one tap picks one */
    const mightBe = die.might_be || [];
    $("fix-might-be").hidden = mightBe.length === 0;
    $("fix-might-be").replaceChildren(
      el("span", { class: "muted", text: "Or maybe: " }),
      ...mightBe.map((face) => el("button", {
        type: "button", class: `swatch c-${face.colour}`, "data-face": face.notation,
        title: `${face.value} ${face.colour_name}`,
        onclick: () => { fixValue = String(face.value); fixColour = face.colour; drawFix(); },
      }, face.notation)));
    drawFix();
    fixDialog.showModal();
  });
  fixDialog.querySelectorAll("#fix-values .value").forEach((b) => b.addEventListener("click", () => { fixValue = b.dataset.value; drawFix(); }));
  fixDialog.querySelectorAll("#fix-colours .swatch").forEach((b) => b.addEventListener("click", () => { fixColour = b.dataset.colour; drawFix(); }));
  fixDialog.addEventListener("close", () => {
    if (fixDialog.returnValue === "ok" && fixIndex !== null) {
      send("POST", `${base}/roll/dice/${fixIndex}`, { die: `${fixValue}${fixColour}`, ...seen() });
    }
  });

  /* tap a phase cell of the sheet: that player's turns on that phase, and a correction */
  const turnDialog = $("turn-dialog");
  let turnIndex = null;
  function openTurns(player, phase) {
    const turns = turnsOf(player, phase);
    if (!turns.length) return;
    turnIndex = null;
    $("turn-title").textContent = `${player}, Phase ${phase}`;
    $("turn-error").textContent = "";
    $("turn-edit").hidden = true;
    forgetPreview();
    $("turn-save").hidden = true;
    $("turn-list").replaceChildren(...turns.map((turn) => el("li", {},
      el("span", { text: `Round ${turn.round}: ` }), rollChips(turn.roll),
      el("span", { text: turn.made ? ` · made, ${turn.score} points` : " · no score" }), " ",
      el("button", { type: "button", class: "correct-turn", "data-testid": "correct-turn-" + turn.index,
        text: "Correct", onclick: () => {
          turnIndex = turn.index;
          $("turn-roll").value = turn.roll || "";
          turnDialog.querySelector(`input[name=turn-made][value=${turn.made ? "yes" : "no"}]`).checked = true;
          $("turn-edit").hidden = false;
          forgetPreview();
          $("turn-roll").focus();
        } }))));
    turnDialog.showModal();
  }
  $("scorepad").addEventListener("click", (event) => {
    const cell = event.target.closest("td.editable");
    if (cell) openTurns(cell.dataset.player, Number(cell.dataset.row.split("-")[1]));
  });
  $("scorepad").addEventListener("keydown", (event) => {
    const cell = event.target.closest("td.editable");
    if (cell && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      openTurns(cell.dataset.player, Number(cell.dataset.row.split("-")[1]));
    }
  });
  /* A correction is checked first: the server replays the game with it (changing nothing)
     and says which later turns change (phase, made or missed, points); only then is it
     confirmed, with the version the preview was worked out for. */
  let preview = null;
  function correction() {
    const made = turnDialog.querySelector("input[name=turn-made]:checked").value === "yes";
    return { turn: turnIndex, roll: $("turn-roll").value, made };
  }
  function forgetPreview() {
    preview = null;
    $("turn-preview").hidden = true;
    $("turn-preview").replaceChildren();
    $("turn-confirm").hidden = true;
    $("turn-save").hidden = turnIndex === null;
  }
  function outcomeText(o) {
    if (!o || o.phase == null) return "no turn";
    return `Phase ${o.phase}, ` + (o.made ? (o.score == null ? "made" : `made, ${o.score} points`) : "no score");
  }
  /* A roll as small coloured dice, value then colour letter apart (6 O, never "6O" read 60). */
  function rollChips(roll) {
    if (!roll) return el("span", { class: "muted", text: "no roll" });
    return el("span", { class: "roll-chips", "aria-label": roll }, ...roll.split(" ").map((notation) => {
      const letter = notation.slice(-1);
      const value = notation.slice(0, -1);
      return el("span", { class: "mini-die c-" + letter, title: notation },
        el("b", { text: value }), el("small", { text: letter }));
    }));
  }
  function drawPreview(found) {
    const lines = found.later.map((t) => el("li", { "data-testid": "preview-turn-" + t.index },
      el("strong", { text: `${t.player}, round ${t.after.round ?? t.before.round}: ` }),
      `${outcomeText(t.before)} → ${outcomeText(t.after)}`));
    const totals = Object.entries(found.totals).filter(([, t]) => t.before !== t.after)
      .map(([player, t]) => `${player} ${t.before} → ${t.after}`);
    $("turn-preview").replaceChildren(
      el("p", { text: `This turn: ${outcomeText(found.turn.before)} → ${outcomeText(found.turn.after)}.` }),
      found.later.length
        ? el("p", { class: "warn", text: found.later.length === 1
          ? "1 later turn changes:" : `${found.later.length} later turns change:` })
        : el("p", { "data-testid": "preview-none", text: "No later turn changes." }),
      found.later.length ? el("ul", { class: "changes" }, ...lines) : null,
      totals.length ? el("p", { text: "Grand Totals: " + totals.join(" · ") }) : null);
    $("turn-preview").hidden = false;
  }
  for (const input of [$("turn-roll"), ...turnDialog.querySelectorAll("input[name=turn-made]")]) {
    input.addEventListener("input", forgetPreview);
    input.addEventListener("change", forgetPreview);
  }
  $("turn-save").addEventListener("click", async () => {
    if (turnIndex === null) return;
    $("turn-error").textContent = "";
    const result = await api("POST", `${base}/correct/preview`, { ...correction(), version: state.version });
    if (!result.ok) { forgetPreview(); $("turn-error").textContent = result.data.error || "refused"; return; }
    preview = result.data;
    drawPreview(preview);
    $("turn-save").hidden = true;
    $("turn-confirm").hidden = false;
  });
  $("turn-confirm").addEventListener("click", async () => {
    if (turnIndex === null || !preview) return;
    const seen = streamStates;
    const result = await api("POST", `${base}/correct`, { ...correction(), version: preview.version, roll_id: state.roll_id });
    if (!result.ok) { forgetPreview(); $("turn-error").textContent = result.data.error || "refused"; return; }
    adoptReply(result.data, seen);
    turnDialog.close();
  });

  /* A new game for the same players, same options (seat order kept; a roll-off game
     starts with a roll-off again). */
  $("play-again").addEventListener("click", async () => {
    const body = { players: state.players, solitaire: state.solitaire,
      roll_off: !state.solitaire && Object.values(state.roll_off_throws || {}).some((t) => t.length > 0),
      first_finish: state.first_finish.rule };
    const result = await api("POST", "/api/games", body);
    if (result.ok) location.href = "/games/" + result.data.id;
    else $("play-again-error").textContent = result.data.error || "could not start the game";
  });

  /* ---------- live updates ---------- */

  /* Without the server nothing can be scored: say so plainly and switch the buttons off
     (inert) until the stream is back; the stream then sends the state afresh. */
  function setOnline(online) {
    $("offline").hidden = online;
    root.dataset.online = online ? "yes" : "no";
    for (const id of ["turn-area", "roll-off-panel", "undo", "scorepad"]) $(id).inert = !online;
  }

  function follow() {
    const source = new EventSource("/stream/games/" + gameId);
    source.addEventListener("state", (event) => {
      streamStates += 1;
      state = JSON.parse(event.data);
      draw();
    });
    /* the game was deleted (on another phone): say so, and stop listening for it */
    source.addEventListener("deleted", () => {
      source.close();
      $("deleted").hidden = false;
      root.dataset.live = "deleted";
      for (const id of ["turn-area", "roll-off-panel", "undo", "scorepad"]) $(id).inert = true;
    });
    source.addEventListener("open", () => { $("conn").textContent = ""; root.dataset.live = "yes"; setOnline(true); });
    source.addEventListener("error", () => {
      root.dataset.live = "no";
      $("conn").textContent = "reconnecting…";
      if (source.readyState !== EventSource.OPEN) setOnline(false);
    });
  }

  api("GET", "/api/config").then((result) => { if (result.ok) { config = result.data; drawHint(); } });
  draw();
  follow();
})();
