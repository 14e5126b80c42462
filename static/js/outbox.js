/* The outbox. What a form posts is kept in the page's storage, with its key, from the tap
   until the server answers; the phone says it is kept and not yet sent, and sends it again
   when the connection is back or the page is opened again (its key makes a resend record
   once). An answer replaces the page as the browser would have; one that comes to a later
   page, or a refusal of a resend, is said above the page with what was typed, until tapped
   away: nothing typed goes silently.

   Heard: "scorekeeper:drawn" (live.js), the sheet fetched again: what is kept goes at once.
   Told: "scorekeeper:sending" and "scorekeeper:answered" around each post of the page shown
   (live.js holds its rings meanwhile), and "scorekeeper:shown" with the page's new content
   (detail.root) once an answer replaced it (main.js starts what it holds). */

import { say } from "./forms.js";

const OUTBOX = "scorekeeper.outbox";
// An answer this late is taken as never coming: the post stays kept and goes again.
const ANSWER_WITHIN = 20000;
const RESEND_EVERY = 10000;
// The keys of the posts on their way now: never sent twice at once.
const inFlight = {};
let resendTimer = null;

function tell(name, detail) {
  document.dispatchEvent(new CustomEvent("scorekeeper:" + name, { detail }));
}

// Only where the page's storage really keeps things (private modes that throw on writing
// don't): elsewhere a form posts as the browser does, as without JavaScript.
function outboxWorks() {
  try {
    localStorage.setItem(OUTBOX + ".check", "1");
    localStorage.removeItem(OUTBOX + ".check");
    return true;
  } catch (e) {
    return false;
  }
}

function kept() {
  try {
    return JSON.parse(localStorage.getItem(OUTBOX) || "[]");
  } catch (e) {
    return [];
  }
}

function keep(items) {
  try {
    localStorage.setItem(OUTBOX, JSON.stringify(items));
  } catch (e) {
    /* full: best effort */
  }
  mirror(items);
}

/* The page's storage is read and written at once, which the outbox's every step needs, but
   Chromium writes it to disk up to seconds later: a browser closed (or killed) just after a
   tap could lose the entry. So the outbox is mirrored in IndexedDB, written to disk as each
   write completes, and taken back from there when the page opens. */
const DATABASE = "scorekeeper";

function database() {
  return new Promise((resolve, reject) => {
    if (!window.indexedDB) {
      reject(new Error("no IndexedDB"));
      return;
    }
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("outbox");
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

let mirrored = Promise.resolve();

function mirror(items) {
  // One write after another, so the last kept is the last written.
  mirrored = mirrored
    .then(() => database())
    .then(
      (db) =>
        new Promise((resolve) => {
          const write = db.transaction("outbox", "readwrite");
          write.objectStore("outbox").put(items, "items");
          write.oncomplete = write.onerror = write.onabort = () => {
            db.close();
            resolve();
          };
        })
    )
    .catch(() => {
      /* no IndexedDB (a private mode): the page's storage alone */
    });
}

// What the mirror holds, or null where it holds nothing or cannot be read.
function mirroredItems() {
  return database()
    .then(
      (db) =>
        new Promise((resolve) => {
          const reading = db.transaction("outbox").objectStore("outbox").get("items");
          reading.onsuccess = () => {
            db.close();
            resolve(Array.isArray(reading.result) ? reading.result : null);
          };
          reading.onerror = () => {
            db.close();
            resolve(null);
          };
        })
    )
    .catch(() => null);
}

function update(item) {
  const items = kept().filter((other) => other.key !== item.key);
  if (item.state !== "gone") items.push(item);
  items.sort((a, b) => a.at - b.at);
  keep(items);
  drawOutbox();
}

function post(form, submitter) {
  const fields = [];
  new FormData(form).forEach((value, name) => fields.push([name, String(value)]));
  if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
  const points = form.querySelector("input[name=points]");
  const key = (form.querySelector("input[name=key]") || {}).value || String(Date.now()) + Math.random();
  const item = {
    key,
    url: form.action,
    fields,
    // The form's name for itself, and the number typed (as typed: digits are no words), set
    // apart left to right (Unicode's isolates), so beside an Arabic name -5 still reads "-5".
    what: form.dataset.outbox + (points && points.value.trim() ? " · \u2066" + points.value.trim() + "\u2069" : ""),
    page: location.pathname,
    at: Date.now(),
    state: "sending",
    resend: false,
  };
  update(item);
  settle(form);
  send(item);
}

// What was typed belongs to the outbox now, which keeps it until its answer comes: the form no
// longer counts as being typed in (live.js), so when the sheet moves on meanwhile (its answer
// lost, the post recorded all the same) it is drawn afresh, instead of carrying an entry that
// may be recorded already to the next hand.
function settle(form) {
  form.querySelectorAll("input:not([type=hidden]), textarea").forEach((field) => {
    if (field.type === "checkbox" || field.type === "radio") field.defaultChecked = field.checked;
    else field.defaultValue = field.value;
  });
  form.querySelectorAll("option").forEach((option) => {
    option.defaultSelected = option.selected;
  });
  if (form.contains(document.activeElement)) document.activeElement.blur();
}

function messageOf(doc, kinds) {
  const said = doc.querySelector(kinds);
  return said ? said.textContent.trim() : "";
}

function send(item) {
  inFlight[item.key] = true;
  const heldHere = item.page === location.pathname;
  if (heldHere) tell("sending");
  const body = new URLSearchParams();
  item.fields.forEach((field) => body.append(field[0], field[1]));
  const controller = window.AbortController ? new AbortController() : null;
  let late = null;
  const tooLate = new Promise((resolve, reject) => {
    late = setTimeout(() => {
      if (controller) controller.abort();
      reject(new Error("no answer"));
    }, ANSWER_WITHIN);
  });
  const posted = fetch(item.url, { method: "POST", body, credentials: "same-origin", signal: controller ? controller.signal : undefined });
  return Promise.race([posted, tooLate])
    .then((response) => response.text().then((html) => ({ response, html })))
    .then((answer) => {
      clearTimeout(late);
      const response = answer.response;
      const doc = new DOMParser().parseFromString(answer.html, "text/html");
      if (response.status >= 500 || response.status === 408) {
        // The server can't take it now (its database away), or the post reached it too
        // slowly to be read whole: kept, and sent again later.
        item.state = "kept";
        item.resend = true;
        item.renewed = false;
        update(item);
        askForSync();
        return "unanswered";
      }
      if (response.status === 400 && doc.querySelector("[data-refusal=csrf]") && !item.renewed) {
        // Its security token went stale meanwhile: a fresh one from the page, and again.
        // This answer is not shown: what it says once ("this phone was not recognised")
        // the next one says.
        item.notice = messageOf(doc, "main > .flash.notice");
        return renewToken(item).then(() => send(item));
      }
      if (item.notice) {
        const said = doc.createElement("p");
        said.className = "flash notice";
        said.setAttribute("role", "status");
        said.textContent = item.notice;
        if (doc.querySelector("main")) doc.querySelector("main").prepend(said);
        item.notice = "";
      }
      const here = item.page === location.pathname;
      if (response.ok) {
        item.state = "gone";
        update(item);
        if (here) {
          showAnswer(doc, response.url);
          return;
        }
        // Sent from a page left since: said where the phone is now.
        note("done", messageOf(doc, ".flash.done, .flash.repeated") || item.what);
        note("notice", messageOf(doc, "main > .flash.notice"));
        return;
      }
      // Refused. Answered at once, it shows as a browser would show it (the refusal and the
      // form again); a resend's refusal also stays said, with what was typed, until seen.
      item.state = item.resend ? "refused" : "gone";
      item.why = messageOf(doc, ".flash.error") || messageOf(doc, "main");
      update(item);
      if (here) showAnswer(doc, null);
    })
    .catch(() => {
      // No connection, or no answer in time: kept, and sent again later.
      clearTimeout(late);
      item.state = "kept";
      item.resend = true;
      update(item);
      askForSync();
      return "unanswered";
    })
    .then((outcome) => {
      delete inFlight[item.key];
      if (heldHere) tell("answered");
      // Answered: anything else kept goes next, at once; else after a while.
      scheduleResend(outcome === "unanswered" ? RESEND_EVERY : 0);
    });
}

// Where the browser has Background Sync, it wakes the service worker when the connection is
// back, even with the page closed: the worker sends what is kept (scorekeeper/tables/sw.js).
function askForSync() {
  if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return;
  navigator.serviceWorker.ready
    .then((registration) => registration.sync && mirrored.then(() => registration.sync.register("outbox")))
    .catch(() => {
      /* no sync: the page resends by itself */
    });
}

function renewToken(item) {
  item.renewed = true;
  return fetch(item.page, { credentials: "same-origin", cache: "no-store" })
    .then((response) => response.text())
    .then((html) => {
      const doc = new DOMParser().parseFromString(html, "text/html");
      const token = doc.querySelector("input[name=csrf_token]");
      if (!token) return;
      item.fields = item.fields.map((field) => (field[0] === "csrf_token" ? [field[0], token.value] : field));
    });
}

// Everything kept and not yet answered goes again, one post at a time, oldest first.
function resend() {
  if (navigator.onLine === false) {
    scheduleResend(RESEND_EVERY);
    return;
  }
  const waiting = kept().filter((item) => (item.state === "kept" || item.state === "sending") && !inFlight[item.key]);
  if (!waiting.length) return;
  const item = waiting[0];
  item.resend = true;
  item.state = "sending";
  update(item);
  send(item);
}

function scheduleResend(after) {
  clearTimeout(resendTimer);
  const waiting = kept().some((item) => item.state === "kept" || item.state === "sending");
  if (waiting) resendTimer = setTimeout(resend, after);
}

// What the outbox holds, said above the page: kept, on its way, or refused (with why and
// what was typed) until its player taps it away.
function outboxBox() {
  let box = document.getElementById("outbox");
  const main = document.querySelector("main");
  if (!box && main) {
    box = document.createElement("div");
    box.id = "outbox";
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
    main.insertBefore(box, main.firstChild);
  }
  return box;
}

export function drawOutbox() {
  const items = kept();
  if (!document.getElementById("outbox") && !items.length) return;
  const box = outboxBox();
  if (!box) return;
  box.querySelectorAll(".outbox-item").forEach((shown) => shown.remove());
  for (const item of items) {
    const line = document.createElement("p");
    line.className = "flash outbox-item " + (item.state === "refused" ? "error" : item.state);
    if (item.state === "refused") {
      line.textContent = say("refused", { what: item.what, why: item.why || "" });
      line.appendChild(
        dismiss(() => {
          item.state = "gone";
          update(item);
        })
      );
    } else if (item.state === "kept") {
      line.textContent = say("kept", { what: item.what });
    } else {
      line.textContent = say("sending", { what: item.what });
    }
    box.appendChild(line);
  }
}

function note(kind, text) {
  const box = text && outboxBox();
  if (!box) return;
  const line = document.createElement("p");
  line.className = "flash outbox-note " + kind;
  line.textContent = text;
  line.appendChild(dismiss(() => line.remove()));
  box.appendChild(line);
}

function dismiss(then) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "dismiss";
  button.textContent = say("dismiss");
  button.addEventListener("click", then);
  return button;
}

// The answer to a post, shown as the browser would have shown it, without leaving the
// page's scripts: the page's content and title, and its address if it moved (a redirect).
function showAnswer(doc, url) {
  const main = document.querySelector("main");
  const fresh = doc.querySelector("main");
  if (!main || !fresh) {
    location.reload();
    return;
  }
  main.innerHTML = fresh.innerHTML;
  document.title = doc.title;
  if (url && url !== location.href) history.replaceState(null, "", url);
  window.scrollTo(0, 0);
  tell("shown", { root: main });
}

/* Forms: one tap sends once. An entry, a calculator entry or a correction (a form with
   data-outbox) goes through the outbox, so no connection, or an answer that never came,
   loses nothing. Then whatever was kept from before goes now. */
export function startOutbox() {
  // The button that sent a form, where the browser doesn't say (event.submitter is newer
  // than some phones): the calculator's Enter is a named button the server must hear of.
  let lastTapped = null;
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[type=submit], input[type=submit]");
    if (button) lastTapped = button;
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.dataset.sent) {
      event.preventDefault();
      return;
    }
    form.dataset.sent = "1";
    setTimeout(() => delete form.dataset.sent, 4000);
    if (form.dataset.outbox && outboxWorks()) {
      event.preventDefault();
      const submitter = event.submitter || (lastTapped && lastTapped.form === form ? lastTapped : null);
      post(form, submitter);
    }
  });

  if (outboxWorks()) {
    // Opened again with something kept from before (the mirror's copy, if the page's storage
    // lost its last writes as the browser closed): it goes now.
    mirrored.then(mirroredItems).then((items) => {
      keep((items || kept()).map((item) => Object.assign(item, { resend: true })));
      drawOutbox();
      resend();
    });
    window.addEventListener("online", resend);
    // The sheet was fetched and drawn: the server answers again, so a post kept after its
    // answer never came goes now, and its key tells the phone its fate ("Already recorded.")
    // before its player types anything else.
    document.addEventListener("scorekeeper:drawn", resend);
    // The service worker heard the connection come back (Background Sync) while this page is
    // open: the page sends, as it says what it sends.
    if (navigator.serviceWorker) {
      navigator.serviceWorker.addEventListener("message", (event) => {
        if (event.data && event.data.resend) resend();
      });
    }
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) resend();
    });
    window.addEventListener("pageshow", (event) => {
      if (event.persisted) resend();
    });
  }
}
