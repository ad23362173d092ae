/* "Teach it your dice" on /setup: read the dice (the camera's frame or a photo), show
   each die's picture with its face, fix a wrong one with a tap, confirm; the progress
   and the examples per face come from GET /api/profile. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const section = $("teach");
  const dialog = $("teach-dialog");
  let reading = null;  /* the last reading: {token, dice: [...]} */
  let faces = [];      /* the face each die will be learnt as (notation, or null: left out) */
  let fixed = [];      /* whether the players changed that die's face */
  let editing = null;
  let pickValue = null;
  let pickColour = null;

  const capital = (text) => text ? text.charAt(0).toUpperCase() + text.slice(1) : "";
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

  function say(id, text, cls) {
    $(id).textContent = capital(text || "");
    if (cls !== undefined) $(id).className = cls;
  }

  function dieOf(notation) {
    const colour = notation.slice(-1);
    const value = notation.slice(0, -1);
    const swatch = dialog.querySelector(`#teach-colours .swatch[data-colour="${colour}"]`);
    return { notation, value, colour, wild: value === "W",
             colour_name: swatch ? swatch.title : colour };
  }

  /* " (3 from corrections, 12 rolls scored)": what play taught, when it taught anything. */
  function learntInPlay(data) {
    const parts = [];
    if (data.from_corrections) parts.push(`${data.from_corrections} from corrections`);
    if (data.from_scored_rolls) parts.push(`${plural(data.from_scored_rolls, "roll", "rolls")} scored`);
    return parts.length ? ` (${parts.join(", ")})` : "";
  }

  function showSummary(data) {
    say("teach-progress", `${plural(data.rolls_confirmed, "roll", "rolls")} confirmed · ` +
      `${data.faces_seen} of the ${data.faces_total} faces seen · ` +
      `${plural(data.examples, "die picture", "die pictures")} learnt` +
      learntInPlay(data) +
      `. Each of your ten dice has six faces, ${data.faces_total} in all: the more of them ` +
      "it has seen, the better it reads your dice.");
    section.dataset.examples = String(data.examples);
    say("teach-layout", data.layout.message);
    $("teach-layout").dataset.disagrees = data.layout.disagrees ? "yes" : "no";
    say("profile-error", data.error || "");
    showLayout(data.dice_layout);
    showLeftOut(data.left_out || []);
    $("teach-learn").checked = Boolean(data.learn_from_corrections);
    $("teach-faces").replaceChildren(...data.faces.map((face) => el("li",
      { class: face.count ? null : "none", dataset: { notation: face.notation, count: String(face.count) } },
      dieElement(face, { button: true }), el("span", { text: `× ${face.count}` }))));
    if (shownFace) showFaceExamples(shownFace);
  }

  /* the pictures of one face, each to be forgotten (one that shows another face) */
  let shownFace = null;
  async function showFaceExamples(notation) {
    const result = await api("GET", `/api/profile/examples?face=${encodeURIComponent(notation)}`);
    if (!result.ok) { say("teach-error", result.data.error || "not shown"); return; }
    shownFace = notation;
    const pictures = result.data.examples;
    $("teach-face-examples").hidden = false;
    $("teach-face-examples").dataset.face = notation;
    $("teach-face-title").textContent = pictures.length
      ? `${notation}: ${plural(pictures.length, "picture", "pictures")} learnt`
      : `${notation}: no picture learnt yet`;
    $("teach-face-list").replaceChildren(...pictures.map((picture) => el("li",
      { dataset: { key: picture.key } },
      el("img", { class: "teach-crop", src: picture.crop, alt: `A taught ${notation}` }),
      picture.left_out ? el("span", { class: "teach-note", text: "left out" }) : null,
      el("button", { type: "button", class: "quiet", dataset: { action: "forget" }, text: "Forget" }))));
  }
  $("teach-faces").addEventListener("click", (event) => {
    const die = event.target.closest(".die");
    if (die) showFaceExamples(die.dataset.notation);
  });
  $("teach-face-list").addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-action=forget]");
    if (!button) return;
    button.disabled = true;
    say("teach-error", "");
    const key = button.closest("li").dataset.key;
    const result = await api("DELETE", `/api/profile/examples/${encodeURIComponent(key)}`, {});
    if (result.ok) showSummary(result.data);
    else { say("teach-error", result.data.error || "not forgotten"); button.disabled = false; }
  });

  /* taught dice the reader leaves out (a face typed wrong?): put each right, keep it, or forget it */
  function showLeftOut(leftOut) {
    $("teach-left-out").hidden = !leftOut.length;
    $("teach-left-out-list").replaceChildren(...leftOut.map((die) => el("li",
      { dataset: { key: die.key, confirmed: die.confirmed.notation, looksLike: die.looks_like.notation } },
      el("img", { class: "teach-crop", src: die.crop, alt: `A taught die confirmed as ${die.confirmed.notation}` }),
      el("span", { class: "teach-left-out-faces" }, "Confirmed as ", dieElement(die.confirmed),
         ", looks like ", dieElement(die.looks_like)),
      el("span", { class: "row" },
        el("button", { type: "button", class: "primary", dataset: { action: "fix", face: die.looks_like.notation },
                       text: `It is ${die.looks_like.notation}` }),
        el("button", { type: "button", dataset: { action: "fix", face: die.confirmed.notation },
                       text: `It is ${die.confirmed.notation}` }),
        el("button", { type: "button", class: "quiet", dataset: { action: "forget" },
                       text: "Forget it" })))));
  }
  $("teach-left-out-list").addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const item = button.closest("li");
    const url = `/api/profile/examples/${encodeURIComponent(item.dataset.key)}`;
    item.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    say("teach-error", "");
    const result = button.dataset.action === "fix"
      ? await api("PUT", url, { face: button.dataset.face })
      : await api("DELETE", url, {});
    if (result.ok) showSummary(result.data);
    else {
      say("teach-error", result.data.error || "not changed");
      item.querySelectorAll("button").forEach((b) => { b.disabled = false; });
    }
  });

  /* the household's dice layout: the check's message, the table to save, a proposal */
  let layoutShown = null;
  function showLayout(layout) {
    if (!layout || !$("layout-box")) return;
    say("layout-message", layout.message);
    $("layout-box").dataset.inUse = layout.in_use;
    $("layout-printed").disabled = layout.in_use === "printed" && !layout.saved;
    const text = layout.proposal ? layout.proposal.text : (layout.saved || layout.text);
    if (text !== layoutShown) {  /* keep what the players are typing unless the table changed */
      $("layout-text").value = text;
      layoutShown = text;
    }
    if (layout.proposal) $("layout-box").open = true;
  }

  function drawReading() {
    const list = $("teach-dice");
    list.replaceChildren();
    if (!reading) return;
    reading.dice.forEach((die, index) => {
      const face = faces[index];
      const shown = face ? dieOf(face) : { unreadable: true };
      const note = face === null ? (die.unreadable ? "tap to say" : "left out")
        : fixed[index] ? "fixed" : die.unsure ? "unsure" : `${Math.round(die.confidence * 100)} %`;
      list.append(el("li", { class: [fixed[index] ? "fixed" : "", face === null && !die.unreadable ? "skipped" : ""].join(" ").trim() || null,
                             dataset: { index: String(index), notation: face || "" } },
        die.crop ? el("img", { class: "teach-crop", src: die.crop, alt: `Die ${index + 1} as the camera saw it` }) : null,
        dieElement(shown, { button: true, index }),
        el("span", { class: "teach-note", text: note })));
    });
    $("teach-confirm").disabled = !faces.some((face) => face);
  }

  function showReading(data) {
    reading = data.token ? data : null;
    faces = data.dice.map((die) => die.unreadable ? null : die.notation);
    fixed = data.dice.map(() => false);
    say("teach-message", data.message, data.dice.length ? "teach-message" : "teach-message none");
    $("teach-actions").hidden = !reading;
    const overlay = $("teach-overlay");
    if (data.overlay) { overlay.src = data.overlay; overlay.hidden = false; } else overlay.hidden = true;
    drawReading();
  }

  async function read(call) {
    say("teach-error", "");
    say("teach-message", "Reading…", "teach-message");
    const result = await call();
    if (!result.ok) {
      say("teach-message", "");
      say("teach-error", result.data.error || "the reading failed");
      return;
    }
    showReading(result.data);
  }

  if ($("teach-read")) {
    $("teach-read").addEventListener("click", async () => {
      $("teach-read").disabled = true;
      await read(() => api("POST", "/api/profile/reading", {}));
      $("teach-read").disabled = false;
    });
  }
  $("teach-photo-button").addEventListener("click", () => $("teach-photo").click());
  $("teach-photo").addEventListener("change", async () => {
    const file = $("teach-photo").files[0];
    if (!file) return;
    const form = new FormData();
    form.append("photo", file);
    await read(() => apiForm("/api/profile/reading", form));
    $("teach-photo").value = "";
  });

  /* one tap on a die: pick its value and colour (the scorepad's picker) */
  function drawPick() {
    $("teach-preview").textContent = `${pickValue ?? "?"}${pickColour ?? "?"}`;
    $("teach-ok").disabled = pickValue == null || pickColour == null;
    dialog.querySelectorAll("#teach-values .value").forEach((b) => b.classList.toggle("selected", b.dataset.value === String(pickValue)));
    dialog.querySelectorAll("#teach-colours .swatch").forEach((b) => b.classList.toggle("selected", b.dataset.colour === pickColour));
  }
  $("teach-dice").addEventListener("click", (event) => {
    const target = event.target.closest(".die");
    if (!target || !reading) return;
    editing = Number(target.dataset.index);
    const face = faces[editing] || reading.dice[editing].notation;
    const die = face ? dieOf(face) : null;
    pickValue = die ? die.value : null;
    pickColour = die ? die.colour : null;
    const crop = reading.dice[editing].crop;
    $("teach-dialog-crop").hidden = !crop;
    if (crop) $("teach-dialog-crop").src = crop;
    drawPick();
    dialog.showModal();
  });
  dialog.querySelectorAll("#teach-values .value").forEach((b) => b.addEventListener("click", () => { pickValue = b.dataset.value; drawPick(); }));
  dialog.querySelectorAll("#teach-colours .swatch").forEach((b) => b.addEventListener("click", () => { pickColour = b.dataset.colour; drawPick(); }));
  dialog.addEventListener("close", () => {
    if (editing === null || !reading) return;
    if (dialog.returnValue === "ok") {
      faces[editing] = `${pickValue}${pickColour}`;
      fixed[editing] = faces[editing] !== reading.dice[editing].notation;
    } else if (dialog.returnValue === "skip") {
      faces[editing] = null;
      fixed[editing] = false;
    }
    editing = null;
    drawReading();
  });

  $("teach-confirm").addEventListener("click", async () => {
    if (!reading) return;
    $("teach-confirm").disabled = true;
    say("teach-error", "");
    const result = await api("POST", "/api/profile/confirm", { token: reading.token, dice: faces });
    if (!result.ok) {
      say("teach-error", result.data.error || "not learnt");
      $("teach-confirm").disabled = false;
      return;
    }
    showSummary(result.data);
    reading = null;
    $("teach-actions").hidden = true;
    $("teach-dice").replaceChildren();
    $("teach-overlay").hidden = true;
    const leftOut = (result.data.left_out || []).length;
    say("teach-message", `Learnt ${plural(result.data.taught, "die", "dice")}: roll again and read the next roll.` +
      (leftOut ? ` ${plural(leftOut, "taught die looks", "taught dice look")} typed wrong: check above.` : ""), "teach-message");
  });

  $("teach-learn").addEventListener("change", async () => {
    const wanted = $("teach-learn").checked;
    const result = await api("PUT", "/api/profile/settings", { learn_from_corrections: wanted });
    if (result.ok) showSummary(result.data);
    else { $("teach-learn").checked = !wanted; say("teach-error", result.data.error || "not changed"); }
  });

  $("teach-reset").addEventListener("click", async () => {
    if (!window.confirm("Forget every die the scorepad has learnt? Reading goes back to the model alone.")) return;
    const result = await api("DELETE", "/api/profile");
    if (result.ok) { showSummary(result.data); say("teach-message", "Forgotten: the scorepad reads with its model alone.", "teach-message"); }
    else say("teach-error", result.data.error || "not reset");
  });

  if ($("layout-box")) {
    $("layout-save").addEventListener("click", async () => {
      say("layout-error", "");
      const result = await api("PUT", "/api/profile/layout", { layout: $("layout-text").value });
      if (result.ok) showSummary(result.data);
      else say("layout-error", result.data.error || "not saved");
    });
    $("layout-printed").addEventListener("click", async () => {
      if (!window.confirm("Go back to the printed dice table?")) return;
      say("layout-error", "");
      const result = await api("DELETE", "/api/profile/layout");
      if (result.ok) { layoutShown = null; showSummary(result.data); }
      else say("layout-error", result.data.error || "not changed");
    });
  }

  window.addEventListener("pageshow", async () => {
    let result = await api("GET", "/api/profile");
    if (result.ok && !result.data.left_out_checked) {
      /* no reader has read with the profile since the start (no camera): load one */
      say("teach-message", "Checking the taught dice…", "teach-message");
      const checked = await api("POST", "/api/profile/check", {});
      say("teach-message", "");
      if (checked.ok) result = checked;
    }
    if (result.ok) showSummary(result.data);
    section.dataset.ready = "yes";
  });
})();
