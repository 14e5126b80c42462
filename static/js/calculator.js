/* Calculator: the breakdown and total as you type, worked out by the server's own rules
   (the form's data-preview: a GET answered with the breakdown alone). Enter is the form's
   post, through the outbox. */

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

export function startCalculator(form) {
  let timer = null;
  // Only the answer to the latest counts is shown: an earlier one arriving late is stale.
  let asked = 0;
  const workOut = form.querySelector("button.work-out");
  if (workOut) workOut.hidden = true;
  // No connection: the counts stay as typed, and the breakdown says the total is worked
  // out when the connection is back, rather than show one the server did not work out.
  function offline() {
    const old = document.getElementById("breakdown");
    const said = document.getElementById("calc-offline");
    if (!old || !said || old.dataset.offline) return;
    const fresh = said.content.firstElementChild.cloneNode(true);
    // The one breakdown of the page takes the id (the template's copy has none: ids are one
    // a page).
    fresh.id = "breakdown";
    fresh.dataset.offline = "1";
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
