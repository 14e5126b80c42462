/* Scorekeeper's service worker: a page this phone opened reloads with no connection, and says
   it is not live. Not a static file: served by the app at /sw.js (routes.py, beside this),
   minified, with before it the release it belongs to (RELEASE) and the fingerprinted URLs of
   every static file (FILES).

   - Pages: from the network, always, as without the worker (the server's ETag makes an
     unchanged one a 304); each kept as answered. With no connection, or no answer within
     PATIENCE, the kept copy, marked with when it was kept (<html data-kept>): the page's
     script (static/js/offline.js) says "as of 21:14, no connection" and keeps it up to date
     from the live part it fetches.
   - Static files: fingerprinted, so never changed under one URL: from the cache, fetched
     once. A release's files are fetched when its worker installs, into a cache named by the
     release; the caches of other releases are deleted as it takes over.
   - Everything else (posts, the live part, the stream, previews): the network, untouched.
   - Background Sync, where the browser has it (Chromium): the outbox (static/js/outbox.js)
     asks for a sync when it keeps an entry; when the connection is back, an open page is told
     to resend, and with none open the worker sends what the outbox's IndexedDB copy holds,
     each under its key, as the page would. */

const FILES_CACHE = "scorekeeper-files-" + RELEASE;
const PAGES_CACHE = "scorekeeper-pages";
// The pages kept: the last ones opened, enough for every match of an evening and History.
const PAGES_KEPT = 40;
// A café's Wi-Fi that fails often hangs rather than says so: past this, the kept copy is
// shown (the network's answer, when it comes, is kept for next time).
const PATIENCE = 6000;
// Where the app installed on the home screen opens (the server's redirect to this phone's
// last match): with no connection, the last match page kept.
const LAST_MATCH = new URL("/history/last", self.location).href;
const MATCH_PAGE = /^\/m\/[A-Za-z0-9]+$/;

// Each file on its own: one lost on a failing Wi-Fi is fetched when a page asks for it, and
// the worker is installed all the same.
self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(FILES_CACHE)
      .then((cache) => Promise.all(FILES.map((url) => cache.add(url).catch(() => {}))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((name) => name !== FILES_CACHE && name !== PAGES_CACHE).map((name) => caches.delete(name)))
      )
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event, request));
  } else if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/js/")) {
    event.respondWith(file(request));
  }
});

// A page opened before this worker was in charge (the one that installed it), to keep now.
self.addEventListener("message", (event) => {
  // A page whose document began while this worker was taking charge (a navigation in flight
  // as it activated) is not yet in its charge: it asks, and the worker takes it.
  if (event.data && event.data.claim) {
    event.waitUntil(self.clients.claim());
    return;
  }
  const url = event.data && event.data.keep;
  if (typeof url !== "string" || new URL(url).origin !== self.location.origin) return;
  event.waitUntil(keepFresh(url));
});

// The page asked for again, to keep: marked as the worker's own fetch, it is drawn with no
// message (a post's "recorded" stays in the session for the tab that shows it next) and may be
// kept.
function keepFresh(url) {
  const asked = { credentials: "same-origin", headers: { "X-Scorekeeper-Keeping": "1" } };
  return fetch(url, asked).then((response) => keep(url, response, Date.now(), false), () => {});
}

function file(request) {
  return caches.match(request).then((cached) => {
    if (cached) return cached;
    return fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(FILES_CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    }, () => olderFile(request));
  });
}

// A kept page of an earlier release, offline, asks for that release's files: this release's
// file of the same name stands in (a module by its name, a file whatever its ?v=).
function olderFile(request) {
  const url = new URL(request.url);
  const parts = url.pathname.split("/");
  if (parts[1] === "js") {
    const now = FILES.find((path) => path.startsWith("/js/") && path.endsWith("/" + parts[3]));
    if (now) return caches.match(now).then((found) => found || Response.error());
  }
  return caches.match(request, { ignoreSearch: true }).then((found) => found || Response.error());
}

function page(event, request) {
  const url = request.url.split("#")[0];
  const network = fetch(request).then((response) => {
    event.waitUntil(keep(url, response.clone(), Date.now()));
    return response;
  });
  let waited = null;
  const late = new Promise((resolve) => {
    waited = setTimeout(resolve, PATIENCE);
  });
  return Promise.race([network, late.then(() => keptPage(url))])
    .then((answer) => answer || network)
    .catch(() => keptPage(url).then((kept) => kept || network))
    .finally(() => clearTimeout(waited));
}

// A page answered whole (not a redirect, a download or a page shown once: a message after a
// post is not kept to be shown again), marked with when it was answered (`at`), unless the
// copy kept meanwhile is newer (the page keeps its copy up to date with its live part). A
// page shown once is asked for again (`again`), drawn to be kept: the sheet a phone sees
// after claiming its side is the one a reload with no connection must find, not the one it
// saw watching (whose copy has no entry form for the live part to bring up to date), or none.
// A navigation that lands on such a page is rare with the script (entries go by the outbox).
function keep(url, response, at, again = true) {
  const type = response.headers.get("Content-Type") || "";
  const once = /no-store/.test(response.headers.get("Cache-Control") || "");
  if (response.status !== 200 || response.redirected || !type.startsWith("text/html")) {
    return Promise.resolve();
  }
  if (once) return again ? keepFresh(url) : Promise.resolve();
  return Promise.all([response.text(), keptPage(url).then((kept) => (kept ? kept.text() : ""))]).then(([html, before]) => {
    const keptAt = /data-kept="(\d+)"/.exec(before);
    if (keptAt && Number(keptAt[1]) > at) return null;
    const marked = html.replace(/<html\b/, `<html data-kept="${at}"`);
    const copy = new Response(marked, { headers: { "Content-Type": type } });
    return caches.open(PAGES_CACHE).then((cache) =>
      cache
        .put(url, copy)
        .then(() => MATCH_PAGE.test(new URL(url).pathname) && cache.put(LAST_MATCH, Response.redirect(url, 302)))
        .then(() => cache.keys())
        .then((keys) => Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_KEPT)).map((key) => cache.delete(key))))
    );
  });
}

function keptPage(url) {
  return caches.open(PAGES_CACHE).then((cache) => cache.match(url));
}

// Background Sync: the connection is back.
self.addEventListener("sync", (event) => {
  if (event.tag !== "outbox") return;
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then((open) => {
      if (open.length) {
        open.forEach((client) => client.postMessage({ resend: true }));
        return null;
      }
      return outbox().then((items) =>
        items
          .filter((item) => item.state === "kept" || item.state === "sending")
          .reduce((sent, item) => sent.then(() => sendKept(item)), Promise.resolve())
      );
    })
  );
});

// One kept post sent as the page sends it. No connection or no answer yet (a 5xx, a 408):
// it stays, and the browser syncs again later (the rejection says so). A stale security
// token: it stays, for the page to renew when opened. Answered: off the outbox, or kept as
// refused with why, which the page says when opened.
function sendKept(item) {
  const body = new URLSearchParams();
  item.fields.forEach((field) => body.append(field[0], field[1]));
  return fetch(item.url, { method: "POST", body, credentials: "same-origin" }).then((response) => {
    if (response.status >= 500 || response.status === 408) throw new Error("not now");
    return response.text().then((html) => {
      if (response.status === 400 && /data-refusal="csrf"/.test(html)) return null;
      return settle(item.key, response.ok ? null : flashError(html));
    });
  });
}

// The refusal's words in the answer's page (its .flash.error), as plain text.
function flashError(html) {
  const said = /<p class="flash error"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  const text = said ? said[1].replace(/<[^>]*>/g, "") : "";
  const entities = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#34;": '"' };
  return text.replace(/&(amp|lt|gt|quot|#39|#34);/g, (entity) => entities[entity]).trim();
}

// The outbox's IndexedDB copy (js/outbox.js keeps it as one list under "items").
function outboxStore(mode, work) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open("scorekeeper", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("outbox");
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const db = opening.result;
      const step = db.transaction("outbox", mode);
      const store = step.objectStore("outbox");
      const reading = store.get("items");
      reading.onsuccess = () => work(store, Array.isArray(reading.result) ? reading.result : []);
      step.oncomplete = () => {
        db.close();
        resolve(reading.result || []);
      };
      step.onerror = step.onabort = () => {
        db.close();
        reject(step.error);
      };
    };
  });
}

function outbox() {
  return outboxStore("readonly", () => {});
}

function settle(key, why) {
  return outboxStore("readwrite", (store, items) => {
    const left = [];
    for (const item of items) {
      if (item.key !== key) left.push(item);
      else if (why !== null) left.push(Object.assign(item, { state: "refused", why }));
    }
    store.put(left, "items");
  });
}
