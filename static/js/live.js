/* Live sheet. The match's stream (server-sent events) rings whenever its version changes;
   the page then fetches its live part (with its ETag: a 304 when nothing changed for this
   phone) and swaps it in, and the entry form too unless this phone is typing in it. A
   safety fetch runs once a minute anyway, and more often while the stream is down or the
   browser has none. Without JavaScript the page is the same, reloaded by hand.

   Heard: "scorekeeper:sending" and "scorekeeper:answered" (outbox.js), a post of this page
   on its way and its answer come: a ring meanwhile, most likely of the post itself, waits
   for the answer, which brings the sheet as it then stands. Told: "scorekeeper:drawn", with
   the part swapped in (detail.root), for its fields to be made up (forms.js); and
   "scorekeeper:current" whenever the server answers the live part (detail.html, when it
   changed), for offline.js. */

// Whether a part of the page holds something this phone typed or chose and hasn't sent.
function editing(part) {
  if (!part) return false;
  if (part.querySelector("[data-given-back]") || part.dataset.givenBack) return true;
  const focused = document.activeElement;
  if (focused && part.contains(focused) && /^(INPUT|SELECT|TEXTAREA)$/.test(focused.tagName)) return true;
  for (const f of part.querySelectorAll("input:not([type=hidden])")) {
    if (f.type === "checkbox" ? f.checked !== f.defaultChecked : f.value !== f.defaultValue) return true;
  }
  // A choice made in a list (the host's dealer) and not sent yet.
  for (const list of part.querySelectorAll("select")) {
    // As drawn: the option marked selected, or the first when none is.
    let drawn = 0;
    for (let k = 0; k < list.options.length; k++) {
      if (list.options[k].defaultSelected) drawn = k;
    }
    if (list.selectedIndex !== drawn) return true;
  }
  return false;
}

// The server answered the live part: what is shown is live (a page kept for no connection
// is no longer only that), and here is its HTML if it changed (offline.js keeps it).
function current(html) {
  document.dispatchEvent(new CustomEvent("scorekeeper:current", { detail: { html } }));
}

function drawn(root) {
  document.dispatchEvent(new CustomEvent("scorekeeper:drawn", { detail: { root } }));
}

// The hand a phone's entry form was drawn for completed while its player typed: the form
// for the next hand takes what was typed (and says so), rather than keep a form that can
// only be refused.
function followTheSheet(entry, fresh) {
  const was = parseInt(entry.dataset.hand, 10);
  const now = parseInt(fresh.dataset.hand, 10);
  if (!(now > was)) return false;
  const focused = document.activeElement && entry.contains(document.activeElement) ? document.activeElement.name : null;
  entry.querySelectorAll("input:not([type=hidden])").forEach((typed) => {
    const field = fresh.querySelector(`input[name='${typed.name}']:not([type=hidden])`);
    if (!field) return;
    if (typed.type === "checkbox") field.checked = typed.checked;
    else field.value = typed.value;
  });
  const note = document.createElement("p");
  note.className = "notice moved";
  note.setAttribute("role", "status");
  note.textContent = fresh.dataset.moved;
  const form = fresh.querySelector("form");
  form.parentNode.insertBefore(note, form);
  entry.replaceWith(fresh);
  drawn(fresh);
  if (focused) {
    const again = fresh.querySelector(`[name='${focused}']`);
    if (again) again.focus();
  }
  return true;
}

// Whether this tab reloaded for that release already: during a rolling deploy a page and
// its stream may come from servers of two releases, and a page reloads once, not forever.
function reloadedFor(newer) {
  try {
    if (sessionStorage.getItem("scorekeeper.reloadedFor") === newer) return true;
    sessionStorage.setItem("scorekeeper.reloadedFor", newer);
    return false;
  } catch (e) {
    return true;
  }
}

// Posts of this page on their way (outbox.js), and whether a ring waits for their answers.
let answering = 0;
let ringHeld = false;
// The live sheet of the page shown, if it has one.
let sheet = null;

function startLive(first) {
  let url = first.dataset.fetch;
  const events = first.dataset.events;
  const release = first.dataset.release;
  let version = first.dataset.version;
  let etag = first.dataset.etag;
  const safety = (parseInt(first.dataset.safety, 10) || 60) * 1000;
  let source = null;
  let streaming = false;
  let timer = null;
  let busy = false;
  let again = false;
  let reloadWanted = false;
  let stopped = false;
  // Bumped when the page adopts an answer's live part: a fetch begun before it is dropped.
  let drawnFrom = 0;
  // After a failure (no network, or the server's 503 while its database is away) a little
  // longer each time, up to the safety fetch's period.
  let wait = safety / 4;

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(fetchLive, streaming ? safety : wait);
  }

  function offline() {
    document.body.classList.add("offline");
    wait = Math.min(wait * 2, safety);
  }

  function online() {
    document.body.classList.remove("offline");
    wait = safety / 4;
  }

  // A new release serves the match (a deploy): this page's script and styles are old, so it
  // reloads, once nothing typed here would be lost.
  function reloadIfIdle() {
    if (!reloadWanted || editing(document.getElementById("entry")) || editing(document.getElementById("live"))) return;
    reloadWanted = false;
    location.reload();
  }

  function fetchLive() {
    if (stopped) return;
    if (answering) {
      ringHeld = true;
      return;
    }
    if (busy) {
      again = true;
      return;
    }
    if (document.hidden) {
      schedule();
      return;
    }
    busy = true;
    const asked = drawnFrom;
    // The ETag goes back exactly as it came (weak, W/"…"): the server matches it as sent.
    const headers = {};
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, { headers, cache: "no-store", credentials: "same-origin" })
      .then((response) => {
        if (response.status >= 500) {
          offline();
          return null;
        }
        online();
        if (response.status === 304) current();
        if (response.status !== 200) return null;
        const tag = response.headers.get("ETag");
        return response.text().then((html) => {
          current(html);
          return { tag, html };
        });
      })
      .then((fresh) => {
        // Asked for by a page since replaced (outbox.js showed an answer): the new one has its own.
        if (!fresh || stopped || asked !== drawnFrom) return;
        const live = document.getElementById("live");
        // A name being typed in the live part (the claim form) is not swapped away: the
        // ETag stays as it was, so the next fetch brings the change again.
        if (!live || editing(live)) return;
        if (fresh.tag) etag = fresh.tag;
        const doc = new DOMParser().parseFromString(fresh.html, "text/html");
        const freshLive = doc.getElementById("live");
        if (freshLive) {
          // The last free side was just taken: the invite folds, as a reload would draw it.
          const wasInviting = live.querySelector("[data-inviting]");
          live.innerHTML = freshLive.innerHTML;
          const invite = document.querySelector("details.invite");
          if (wasInviting && invite && !live.querySelector("[data-inviting]")) invite.open = false;
          if (freshLive.dataset.version) version = freshLive.dataset.version;
        }
        // "Hand 2: Bob 10 recorded." was about the sheet as it was: the sheet moved on.
        document.querySelectorAll("main > .flash.done, main > .flash.repeated").forEach((note) => note.remove());
        const entry = document.getElementById("entry");
        const freshEntry = doc.getElementById("entry");
        if (entry && freshEntry) {
          if (!editing(entry)) {
            entry.replaceWith(freshEntry);
            drawn(freshEntry);
          } else {
            followTheSheet(entry, freshEntry);
          }
        }
        drawn(live);
        reloadIfIdle();
      })
      .catch(offline)
      .then(() => {
        busy = false;
        if (stopped) return;
        if (again) {
          again = false;
          fetchLive();
        } else {
          schedule();
        }
      });
  }

  // The stream: each message is a new version of the match (its id too, so the browser's
  // own reconnect says where it stood); "release" names the code that serves it.
  function connect() {
    if (!window.EventSource) return;
    if (source) source.close();
    streaming = false;
    source = new EventSource(events + "?since=" + encodeURIComponent(version));
    source.onopen = () => {
      streaming = true;
      schedule();
    };
    source.onmessage = fetchLive;
    source.addEventListener("release", (event) => {
      if (event.data === release || reloadedFor(event.data)) return;
      reloadWanted = true;
      reloadIfIdle();
    });
    source.onerror = (event) => {
      const failed = event.target;
      if (failed !== source) return;
      // The browser reconnects by itself (CONNECTING) unless the server refused (CLOSED):
      // meanwhile the timer fetches, and a closed stream is tried again at that pace.
      streaming = false;
      schedule();
      if (failed.readyState === EventSource.CLOSED) {
        setTimeout(() => {
          if (source === failed) connect();
        }, wait);
      }
    };
  }

  // Back from the background, from the page cache, or onto another network: a phone may
  // have dropped the stream without a word (iOS does), so it opens a new one and catches up.
  function resume() {
    if (document.hidden) return;
    connect();
    fetchLive();
  }

  // The page was replaced by the answer to a post (outbox.js): the stream stays open and
  // the live part is now the answer's, with its own ETag.
  function adopt(live) {
    drawnFrom += 1;
    url = live.dataset.fetch;
    etag = live.dataset.etag;
    version = live.dataset.version;
    // A fetch on its way is dropped when it lands: asked again, against the answer's ETag.
    if (busy) again = true;
    reloadIfIdle();
    schedule();
  }

  // The answer is another page (the calculator refused its counts): no live part there.
  function stop() {
    stopped = true;
    clearTimeout(timer);
    if (source) source.close();
    source = null;
  }

  connect();
  schedule();
  return { adopt, events, fetch: fetchLive, resume, stop };
}

// Follow the live part of the page as now drawn: start, adopt an answer's, or stop.
export function followLive() {
  const live = document.getElementById("live");
  if (sheet && !(live && live.dataset.events === sheet.events)) {
    sheet.stop();
    sheet = null;
  }
  if (live && live.dataset.events) {
    if (sheet) sheet.adopt(live);
    else sheet = startLive(live);
  }
}

// The live part fetched now (the page was drawn in another time zone).
export function fetchNow() {
  if (sheet) sheet.fetch();
}

/* Times: the server writes them in the phone's zone once it knows it (languages.py reads
   this cookie). A phone's first page shows UTC, labelled, and its live part is fetched again
   at once in local time; whether the zone was new is what this answers. */
export function tellZone() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  // An IANA name ("Asia/Tokyo") is cookie-safe as it is: sent as written, read as sent.
  if (!zone || !/^[A-Za-z0-9_\/+-]+$/.test(zone)) return false;
  if (document.cookie.split("; ").indexOf("tz=" + zone) !== -1) return false;
  document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  return true;
}

function resume() {
  if (sheet) sheet.resume();
}
document.addEventListener("visibilitychange", resume);
window.addEventListener("pageshow", (event) => {
  if (event.persisted) resume();
});
window.addEventListener("online", resume);
// Off the network too: the stream it held may not notice for minutes, so it is opened anew
// (the browser retries it while the network is away) and the fetch says so on the page.
window.addEventListener("offline", resume);
if (navigator.connection && navigator.connection.addEventListener) {
  navigator.connection.addEventListener("change", resume);
}

document.addEventListener("scorekeeper:sending", () => {
  answering += 1;
});
document.addEventListener("scorekeeper:answered", () => {
  answering -= 1;
  // A ring held for the answer: the sheet as it stands now, against what is shown.
  if (!answering && ringHeld) {
    ringHeld = false;
    fetchNow();
  }
});
