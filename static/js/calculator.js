/* Calculator: the breakdown and total as you type, worked out by the server's own rules
   (the form's data-preview: a GET answered with the breakdown alone). With no connection, by
   the game's scoring as the page was given it (#calc-scoring: games/scoring.py's table, which
   tests/unit/test_scoring_tables.py holds equal to the game's own), worked out here as
   scoring.worked_out does, for every game alike. Enter is the form's post, through the
   outbox. */

import { countOf } from "./forms.js";

// The counts the preview's reasons name (data-field) are marked, and no others: the player
// sees which count to fix, and a fixed one stops being marked as they type.
function markRefused(breakdown) {
  document.querySelectorAll("form.calculator [aria-invalid]").forEach((field) => field.removeAttribute("aria-invalid"));
  if (!breakdown) return;
  breakdown.querySelectorAll("[data-field]").forEach((reason) => {
    const field = document.getElementById(reason.dataset.field);
    if (field) field.setAttribute("aria-invalid", "true");
  });
}

// What a preview is never sent (calculator/routes.py, _preview).
const PRIVATE = ["csrf_token", "key", "reason"];

// The counts as the form holds them, read as the server reads them (a blank count is none, a
// box ticked is 1); null when one can't be: not a whole number, out of its bounds, a question
// not answered. The server says why once the connection is back.
export function countsIn(form, fields) {
  const data = new FormData(form);
  const digits = form.dataset.digits || "";
  const counts = {};
  for (const [key, least, most] of fields) {
    const name = "n_" + key;
    const given = data.get(name);
    let value;
    if (form.querySelector(`input[type=checkbox][name="${name}"]`)) value = given === null ? 0 : 1;
    else if (given === null) return null;
    else if (!given.trim()) value = 0;
    else value = countOf(given, digits);
    if (!(value >= least && value <= most)) return null;
    counts[key] = value;
  }
  return counts;
}

// A declared scoring worked out on counts read (games/scoring.py, worked_out): each line the
// first of its ways whose tests hold, lines scoring nothing left out unless the game keeps them.
export function workedOut(scoring, counts) {
  const at = (key) => counts[key] || 0;
  const rows = [];
  for (const ways of scoring.lines) {
    const way = ways.find((w) => w.when.every(([key, low, high]) => low <= at(key) && at(key) <= high));
    if (!way) continue;
    const points = way.points + (way.per ? way.each * at(way.per) : 0);
    if (!points && !scoring.keeps_zero) continue;
    let count = way.shows ? at(way.shows) : way.shows_value;
    if (way.tally.length) count = way.tally.reduce((sum, [key, values]) => sum + (values[at(key)] || 0), 0);
    rows.push({ label: way.label, count, points });
  }
  return { rows, total: rows.reduce((sum, row) => sum + row.points, 0) };
}

export function startCalculator(form) {
  let timer = null;
  // Only the answer to the latest counts is shown: an earlier one arriving late is stale.
  let asked = 0;
  const workOut = form.querySelector("button.work-out");
  if (workOut) workOut.hidden = true;
  const declared = document.getElementById("calc-scoring");
  const scoring = declared ? JSON.parse(declared.textContent) : null;
  // A number as the page writes it: below zero with the page's own minus (and marks).
  const written = (n) => (n < 0 ? scoring.minus[0] + String(-n) + scoring.minus[1] : String(n));
  // No connection: the counts stay as typed, and the breakdown is worked out here by the
  // game's scoring, said to be checked when the connection is back; counts it can't read
  // show no total.
  function offline() {
    const old = document.getElementById("breakdown");
    const said = document.getElementById("calc-offline");
    if (!old || !said) return;
    const fresh = said.content.firstElementChild.cloneNode(true);
    // The one breakdown of the page takes the id (the template's copy has none: ids are one
    // a page).
    fresh.id = "breakdown";
    fresh.dataset.offline = "1";
    const counts = scoring && countsIn(form, scoring.fields);
    if (counts) {
      const worked = workedOut(scoring, counts);
      fresh.querySelector("[data-when=unread]").remove();
      const body = fresh.querySelector("tbody");
      for (const row of worked.rows) {
        const tr = body.insertRow();
        if (!row.points) tr.className = "zero";
        for (const text of [row.label, written(row.count), written(row.points)]) tr.insertCell().textContent = text;
      }
      fresh.querySelector(".calc-total").textContent = written(worked.total);
      const enter = fresh.querySelector("button[name=intent][value=enter]");
      enter.textContent = enter.dataset.named.replace("%(total)s", () => written(worked.total));
    } else {
      fresh.querySelectorAll("[data-when=worked]").forEach((part) => part.remove());
    }
    old.replaceWith(fresh);
    markRefused(null);
  }
  function preview() {
    if (navigator.onLine === false) {
      offline();
      return;
    }
    const mine = ++asked;
    // The counts as typed, in the query of an idempotent GET: not the form's token and key,
    // nor the reason of a correction, which a preview doesn't read.
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (!PRIVATE.includes(name)) query.append(name, value);
    }
    fetch(form.dataset.preview + "?" + query, { cache: "no-store", credentials: "same-origin" })
      .then((r) => r.text())
      .then((html) => {
        // A later keystroke's answer is coming, or the page moved on (an answer shown).
        if (mine !== asked || !form.isConnected) return;
        const doc = new DOMParser().parseFromString(html, "text/html");
        const fresh = doc.getElementById("breakdown");
        const old = document.getElementById("breakdown");
        // An answer without a breakdown (a server error page) worked nothing out.
        if (!fresh) {
          offline();
          return;
        }
        if (old) old.replaceWith(fresh);
        markRefused(fresh);
      })
      .catch(() => {
        if (mine === asked && form.isConnected) offline();
      });
  }
  // A total shown for counts since changed is not the total of these: until the answer
  // comes, the total reads "…" and Enter says no number (it sends the counts, which the
  // server works out).
  function unsure() {
    const shown = document.getElementById("breakdown");
    const said = document.getElementById("calc-offline");
    if (!shown || shown.dataset.offline) return;
    shown.setAttribute("aria-busy", "true");
    const total = shown.querySelector(".calc-total");
    if (total) total.textContent = "…";
    const enter = shown.querySelector("button[name=intent][value=enter]");
    if (enter && said) enter.textContent = said.content.querySelector("button").textContent;
  }
  function soon(wait) {
    if (navigator.onLine === false) offline();
    else unsure();
    clearTimeout(timer);
    timer = setTimeout(preview, wait);
  }
  form.addEventListener("input", () => soon(150));
  form.addEventListener("change", () => soon(50));
  // A calculator the page has since replaced (an answer shown in its place) hears no more.
  window.addEventListener("offline", () => {
    if (form.isConnected) offline();
  });
  window.addEventListener("online", () => {
    if (form.isConnected) soon(0);
  });
  preview();
}
