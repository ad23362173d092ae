/* Camera set-up: drag the tray's corners (or draw a rectangle) over the live picture,
   lock exposure, and try a reading. Corners are kept as fractions of the picture. */
"use strict";

const WHOLE = [[0.05, 0.05], [0.95, 0.05], [0.95, 0.95], [0.05, 0.95]];
const MIN_DRAG = 0.03;  // a rectangle smaller than this (as a fraction) is taken for a tap

const stage = document.getElementById("stage");
const polygon = document.getElementById("tray-polygon");
const cornerEls = Array.from(stage.querySelectorAll(".corner"));
let corners = WHOLE.map((p) => p.slice());
let saved = null;

const sentence = (text) => text ? text.charAt(0).toUpperCase() + text.slice(1) : "";

function show(id, text, cls) {
  const node = document.getElementById(id);
  node.textContent = sentence(text);
  if (cls !== undefined) node.className = cls;
}

function draw() {
  corners.forEach(([x, y], i) => {
    cornerEls[i].style.left = (x * 100) + "%";
    cornerEls[i].style.top = (y * 100) + "%";
  });
  polygon.setAttribute("points", corners.map(([x, y]) => `${x},${y}`).join(" "));
  const same = saved && saved.every((p, i) => p[0] === corners[i][0] && p[1] === corners[i][1]);
  stage.classList.toggle("saved", Boolean(same));
  stage.dataset.tray = JSON.stringify(corners);
  if (same) show("tray-state", "Saved: only dice inside the blue outline are read.");
  else if (saved) show("tray-state", "Changed, not saved yet.");
  else show("tray-state", "No tray saved: the whole picture is read. Mark the tray and save it.");
}

function fraction(event) {
  const box = stage.getBoundingClientRect();
  const clamp = (v) => Math.min(1, Math.max(0, v));
  return [clamp((event.clientX - box.left) / box.width), clamp((event.clientY - box.top) / box.height)];
}

const round = (v) => Math.round(v * 10000) / 10000;
let drag = null;  // {corner: i} or {from: [x, y]}

stage.addEventListener("pointerdown", (event) => {
  const corner = event.target.closest(".corner");
  stage.setPointerCapture(event.pointerId);
  drag = corner ? { corner: Number(corner.dataset.corner) } : { from: fraction(event) };
  if (corner) corner.classList.add("dragging");
  event.preventDefault();
});

stage.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const [x, y] = fraction(event).map(round);
  if (drag.corner !== undefined) {
    corners[drag.corner] = [x, y];
  } else {
    const [x0, y0] = drag.from.map(round);
    if (Math.abs(x - x0) < MIN_DRAG && Math.abs(y - y0) < MIN_DRAG) return;
    const [left, right] = [Math.min(x0, x), Math.max(x0, x)];
    const [top, bottom] = [Math.min(y0, y), Math.max(y0, y)];
    corners = [[left, top], [right, top], [right, bottom], [left, bottom]];
  }
  draw();
});

function endDrag() {
  drag = null;
  cornerEls.forEach((el) => el.classList.remove("dragging"));
}
stage.addEventListener("pointerup", endDrag);
stage.addEventListener("pointercancel", endDrag);

function showSettings(data) {
  saved = data.tray;
  if (saved) corners = saved.map((p) => p.slice());
  draw();
  const ex = data.exposure;
  const lock = document.getElementById("lock-exposure");
  const unlock = document.getElementById("unlock-exposure");
  lock.disabled = unlock.disabled = !ex.supported;
  let text;
  if (!ex.supported) {
    const source = data.camera ? data.camera.source : "this";
    text = data.camera && !data.camera.running
      ? "The camera is not running, so its exposure cannot be locked."
      : `Not supported: the ${source} camera has no exposure controls (only the Pi camera has them).`;
  } else if (ex.locked && ex.controls) {
    const c = ex.controls;
    const gains = (c.ColourGains || []).map((g) => Number(g).toFixed(2)).join(" / ");
    text = `Locked: exposure ${(c.ExposureTime / 1000).toFixed(1)} ms, gain ${Number(c.AnalogueGain).toFixed(2)}, colour gains ${gains}.`;
  } else {
    text = "Automatic: the camera adjusts brightness and colour by itself.";
  }
  document.getElementById("exposure-state").dataset.locked = ex.locked ? "yes" : "no";
  show("exposure-state", text);
}

async function call(method, url, body, errorId) {
  show(errorId, "");
  const result = await api(method, url, body);
  if (!result.ok) { show(errorId, result.data.error || "refused"); return null; }
  showSettings(result.data);
  return result.data;
}

document.getElementById("save-tray").addEventListener("click", () =>
  call("PUT", "/api/camera/tray", { points: corners }, "tray-error"));
document.getElementById("clear-tray").addEventListener("click", async () => {
  if (await call("DELETE", "/api/camera/tray", undefined, "tray-error")) {
    corners = WHOLE.map((p) => p.slice());
    draw();
  }
});
document.getElementById("lock-exposure").addEventListener("click", () =>
  call("POST", "/api/camera/exposure/lock", {}, "exposure-error"));
document.getElementById("unlock-exposure").addEventListener("click", () =>
  call("POST", "/api/camera/exposure/unlock", {}, "exposure-error"));

document.getElementById("test-read").addEventListener("click", async () => {
  const button = document.getElementById("test-read");
  button.disabled = true;
  show("test-message", "Reading…", "test-message");
  const result = await api("POST", "/api/camera/test-reading", {});
  button.disabled = false;
  const list = document.getElementById("test-dice");
  const image = document.getElementById("test-overlay");
  list.replaceChildren();
  if (!result.ok) {
    show("test-message", result.data.error || "the reading failed", "test-message none");
    image.hidden = true;
    return;
  }
  const data = result.data;
  show("test-message", data.message +
    (data.flags.length ? ` (${data.flags.join(", ")})` : ""),
    data.dice.length ? "test-message" : "test-message none");
  data.dice.forEach((die) => list.append(el("li", { class: die.unreadable ? "unreadable" : null },
    dieElement(die), el("span", { class: die.unreadable ? "warn" : "muted",
      text: die.unreadable ? "could not be read" : `${Math.round(die.confidence * 100)} %` }))));
  image.src = data.overlay;
  image.hidden = false;
});

window.addEventListener("pageshow", async () => {
  const result = await api("GET", "/api/camera/settings");
  if (result.ok) showSettings(result.data);
  stage.dataset.ready = "yes";
});
draw();
