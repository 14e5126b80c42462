/* Scorekeeper: the few things JavaScript makes better. Every page works without it.
   Each module does one job; they talk through events on the document, and this wires them
   (docs/live.md, "The page's script"). */

import { enhance, startFullScreen, startNewMatch } from "./forms.js";
import { fetchNow, followLive, tellZone } from "./live.js";
import { startOffline } from "./offline.js";
import { drawOutbox, startOutbox } from "./outbox.js";

// The screen kept awake (awake.js) once it has come: it and Share (share.js) are fetched after
// the page has loaded, as neither is needed to show the sheet or to take an entry (the switch
// is hidden until then, the link downloads the picture), so on a slow connection they do not
// hold up its first paint; with no connection, the service worker has them.
let awake = null;

function later() {
  import("./awake.js").then((module) => {
    awake = module;
    awake.stayAwake();
  }, () => {});
  import("./share.js").then((share) => share.startShare(), () => {});
}

// What a page's content needs once drawn, whether loaded or an answer shown in its place.
function start(root) {
  enhance(root);
  followLive();
  // The calculator's module only where there is a calculator (its page asks for it at once):
  // every other page, a first visit on a slow connection most of all, goes without its bytes.
  const calc = root.querySelector("form.calculator");
  // Not to be had (no connection, and the worker lost it): the form still posts as it is.
  if (calc) import("./calculator.js").then((calculator) => calculator.startCalculator(calc), () => {});
  drawOutbox();
  if (awake) awake.stayAwake();
}

// A part the live sheet swapped in: its fields made up as the page's were.
document.addEventListener("scorekeeper:drawn", (event) => enhance(event.detail.root));
// An answer to a post took the page's place (the outbox).
document.addEventListener("scorekeeper:shown", (event) => start(event.detail.root));

const newMatch = document.querySelector("form.new-match");
if (newMatch) startNewMatch(newMatch);
const toldZone = tellZone();
start(document);
// This page was drawn in UTC, before the server knew the phone's zone: drawn again in it.
if (toldZone) fetchNow();
startFullScreen();
// A group's TV: nothing pushes between matches, so it reads its standings again each minute
// and draws them in place (a whole page reloaded blinks the room's screen white).
const board = document.querySelector("[data-refresh]");
if (board) {
  setInterval(async () => {
    try {
      const answer = await fetch(location.href, { headers: { Accept: "text/html" } });
      if (!answer.ok) return;
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      const fresh = page.querySelector("[data-refresh]");
      if (fresh) board.replaceChildren(...fresh.childNodes);
    } catch {
      // No network just now: the next minute tries again.
    }
  }, parseInt(board.dataset.refresh, 10) * 1000);
}
startOutbox();
startOffline();
if (document.readyState === "complete") later();
else window.addEventListener("load", later);
