/* Pages with no connection. The service worker (/sw.js, scorekeeper/tables/sw.js) keeps every
   page this phone opens and, with no connection, shows the kept copy, marked with when it was
   kept (<html data-kept>). Such a page says so above everything, "As of 21:14, no
   connection", in the phone's language and time zone, until the live part it fetches comes
   back from the server: then the sheet is live again and the note goes. Its forms get fresh
   keys: a kept page shown twice must not post two entries under one key. A live sheet's kept
   copy follows each live part fetched, so a reload offline shows the sheet as this phone last
   saw it.

   Heard: "scorekeeper:current" (live.js), the live part answered by the server, with its
   HTML when it changed (detail.html); "scorekeeper:shown" (outbox.js), the server's answer
   to a post in the page's place. */

import { say } from "./forms.js";

const PAGES_CACHE = "scorekeeper-pages";

// The page's address as the worker keeps it (no #fragment).
function here() {
  return location.href.split("#")[0];
}

function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The kept copy shown: said, with its time as the page writes times, and its forms made new.
function showKept(at) {
  document.body.classList.add("kept");
  const note = document.getElementById("kept-note");
  if (note) {
    const time = new Intl.DateTimeFormat(document.documentElement.lang, { hour: "numeric", minute: "2-digit", numberingSystem: "latn" }).format(new Date(at));
    note.textContent = say("as_of", { time });
    note.hidden = false;
  }
  document.querySelectorAll("form input[name=key]").forEach((key) => {
    key.value = newKey();
    key.defaultValue = key.value;
  });
}

function live() {
  if (!document.documentElement.dataset.kept) return;
  delete document.documentElement.dataset.kept;
  document.body.classList.remove("kept");
  const note = document.getElementById("kept-note");
  if (note) note.hidden = true;
}

// The kept copy of this sheet takes the live part just fetched, as the page did.
function keepLatest(html) {
  if (!window.caches || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
  caches
    .open(PAGES_CACHE)
    .then((cache) =>
      cache.match(here()).then((kept) => {
        if (!kept) return null;
        return kept.text().then((text) => {
          const page = new DOMParser().parseFromString(text, "text/html");
          const fresh = new DOMParser().parseFromString(html, "text/html");
          const keptLive = page.getElementById("live");
          const freshLive = fresh.getElementById("live");
          if (!keptLive || !freshLive) return null;
          keptLive.innerHTML = freshLive.innerHTML;
          for (const name of ["version", "etag"]) {
            if (freshLive.dataset[name]) keptLive.dataset[name] = freshLive.dataset[name];
          }
          const keptEntry = page.getElementById("entry");
          const freshEntry = fresh.getElementById("entry");
          if (keptEntry && freshEntry) keptEntry.replaceWith(page.importNode(freshEntry, true));
          page.documentElement.dataset.kept = String(Date.now());
          const type = kept.headers.get("Content-Type") || "text/html; charset=utf-8";
          return cache.put(here(), new Response("<!doctype html>\n" + page.documentElement.outerHTML, { headers: { "Content-Type": type } }));
        });
      })
    )
    .catch(() => {
      /* the copy stays as it was: best effort */
    });
}

export function startOffline() {
  const kept = document.documentElement.dataset.kept;
  if (kept) showKept(Number(kept));
  document.addEventListener("scorekeeper:current", (event) => {
    live();
    if (event.detail && event.detail.html) keepLatest(event.detail.html);
  });
  // The server's answer to a post took the page's place (outbox.js): live again too.
  document.addEventListener("scorekeeper:shown", live);
  const worker = document.body.dataset.worker;
  if (!worker || !("serviceWorker" in navigator)) return;
  // After the page's own files: on a slow connection the worker's fetching its release's
  // files must not hold up the first page.
  const register = () => navigator.serviceWorker.register(worker, { scope: "/" }).catch(() => {});
  // The page the worker was installed from came before it: asked to keep it once it is in
  // charge (an unchanged sheet is a 304 for the server).
  if (!navigator.serviceWorker.controller) {
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      navigator.serviceWorker.controller.postMessage({ keep: here() });
    });
  }
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
  // A worker already running but not in charge of this page (it activated while the page's
  // own request was on its way): the page asks it to take charge, so offline it is kept.
  navigator.serviceWorker.ready.then((registration) => {
    if (!navigator.serviceWorker.controller && registration.active) {
      registration.active.postMessage({ claim: true });
    }
  });
}
