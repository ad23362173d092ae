/* Shared by every page: JSON calls with the table PIN, and drawing a die. */
"use strict";

const PIN_KEY = "phase10.pin";

function askPin() {
  const dialog = document.getElementById("pin-dialog");
  const input = document.getElementById("pin-input");
  input.value = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok" ? input.value.trim() : null);
    }, { once: true });
    dialog.showModal();
  });
}

/* Send a JSON request; on 401/403 ask for the PIN once and try again. Resolves to
   {ok, status, data}; never throws for HTTP errors (the caller shows data.error). */
function api(method, url, body) {
  return callApi(method, url, body === undefined ? undefined : JSON.stringify(body), "application/json");
}

/* Upload a form (a photo) the same way: the PIN sent, and asked for once on 401/403. */
function apiForm(url, form) {
  return callApi("POST", url, form, null);
}

async function callApi(method, url, payload, contentType) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const headers = contentType ? { "Content-Type": contentType } : {};
    const pin = localStorage.getItem(PIN_KEY);
    if (pin) headers["X-Table-Pin"] = pin;
    let response;
    try {
      response = await fetch(url, { method, headers, body: payload });
    } catch (err) {
      return { ok: false, status: 0, data: { error: "no connection to the scorepad" } };
    }
    let data = {};
    try { data = await response.json(); } catch (err) { data = { error: response.statusText }; }
    if (response.status === 403) localStorage.removeItem(PIN_KEY);  /* never resend a wrong PIN */
    if (response.status === 429) showPinLock(data.error, Number(response.headers.get("Retry-After")));
    if ((response.status === 401 || response.status === 403) && attempt === 0) {
      const entered = await askPin();
      if (!entered) return { ok: false, status: response.status, data };
      localStorage.setItem(PIN_KEY, entered);
      continue;
    }
    return { ok: response.ok, status: response.status, data };
  }
  return { ok: false, status: 403, data: { error: "wrong table PIN" } };
}

/* Say on the page that PINs are refused for a while (the table, or this phone, is
   locked after too many wrong PINs), and when they are taken again. */
function showPinLock(message, seconds) {
  const note = document.getElementById("pin-locked");
  if (!note || !message) return;
  const until = seconds > 0 ? new Date(Date.now() + seconds * 1000) : null;
  note.textContent = message + (until ? ` (until ${until.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })})` : "");
  note.hidden = false;
  if (seconds > 0) setTimeout(() => { note.hidden = true; }, seconds * 1000);
}

/* On every page: a table already locked says so before anyone taps. */
fetch("/api/config").then((reply) => reply.json()).then((config) => {
  if (config.pin_locked_s > 0) {
    const minutes = Math.ceil(config.pin_locked_s / 60);
    showPinLock(`The table is locked for ${minutes} minute${minutes === 1 ? "" : "s"} after too many wrong PINs: ` +
                "scores can be read, but nothing can change until then; then enter the PIN once.", config.pin_locked_s);
  }
}).catch(() => {});

/* Light or dark: the phone's setting until the switch is tapped, then this phone's choice. */
const THEME_KEY = "phase10.theme";
function currentTheme() {
  return document.documentElement.dataset.theme ||
    (window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
}
function drawThemeSwitch() {
  const button = document.getElementById("theme-switch");
  if (!button) return;
  const dark = currentTheme() === "dark";
  button.textContent = dark ? "Light" : "Dark";
  button.setAttribute("aria-label", dark ? "Switch to the light theme" : "Switch to the dark theme");
}
document.addEventListener("DOMContentLoaded", () => {
  const button = document.getElementById("theme-switch");
  if (!button) return;
  button.addEventListener("click", () => {
    const next = currentTheme() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    try { localStorage.setItem(THEME_KEY, next); } catch (e) { /* private mode: this visit only */ }
    drawThemeSwitch();
  });
  drawThemeSwitch();
});

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/* A die drawn in its colour AND labelled with its letter (for colour-blind players).
   A die the camera found but could not read has no face: it is drawn as "?". A die the
   camera was unsure of has a "?" mark; a face the ten dice cannot show with the others
   a "!" mark (both must be checked before scoring, but not a doubt no face the die
   could show would change the phase's score: its "?" is grey, "settled"). */
function dieElement(die, extra) {
  const opts = extra || {};
  if (die.unreadable) {
    const label = "a die the camera could not read";
    return el(opts.button ? "button" : "span",
      { class: "die unreadable", title: label, "aria-label": label, type: opts.button ? "button" : null,
        dataset: { unreadable: "yes", index: opts.index != null ? String(opts.index) : undefined } },
      el("span", { class: "face", text: "?" }));
  }
  const classes = ["die", "c-" + die.colour];
  if (die.wild) classes.push("wild");
  if (opts.used) classes.push("used");
  if (opts.unused) classes.push("unused");
  if (die.unsure) classes.push("unsure");
  if (die.settled) classes.push("settled");
  if (die.colour_doubt) classes.push("colour-doubt");
  if (die.impossible) classes.push("impossible");
  const label = `${die.value} ${die.colour_name}` +
    (opts.standsFor != null && die.wild ? `, wild for ${opts.standsFor}` : "") +
    (die.colour_doubt ? ", unsure of its colour" :
      die.settled ? ", unsure, but it cannot change the score" : die.unsure ? ", unsure" : "") +
    (die.impossible ? ", cannot show with the others" : "");
  return el(opts.button ? "button" : "span",
    { class: classes.join(" "), title: label, "aria-label": label, type: opts.button ? "button" : null,
      dataset: { notation: die.notation, index: opts.index != null ? String(opts.index) : undefined } },
    el("span", { class: "face", text: String(die.value) }),
    el("span", { class: "letter", text: die.colour }),
    opts.standsFor != null && die.wild ? el("span", { class: "stands", text: "=" + opts.standsFor }) : null,
    die.unsure ? el("span", { class: "unsure-mark", text: "?" }) : null,
    die.impossible ? el("span", { class: "impossible-mark", text: "!" }) : null);
}
