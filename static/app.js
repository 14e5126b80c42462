/* Scorekeeper: the few things JavaScript makes better. Every page works without it. */
(function () {
  "use strict";

  /* Live sheet. The match's stream (server-sent events) rings whenever its version changes;
     the page then fetches its live part (with its ETag: a 304 when nothing changed for this
     phone) and swaps it in, and the entry form too unless this phone is typing in it. A
     safety fetch runs once a minute anyway, and more often while the stream is down or the
     browser has none. Without JavaScript the page is the same, reloaded by hand. */

  // Whether a part of the page holds something this phone typed or chose and hasn't sent.
  function editing(part) {
    if (!part) return false;
    if (part.querySelector("[data-given-back]") || part.dataset.givenBack) return true;
    var focused = document.activeElement;
    if (focused && part.contains(focused) && /^(INPUT|SELECT|TEXTAREA)$/.test(focused.tagName)) return true;
    var fields = part.querySelectorAll("input:not([type=hidden])");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.type === "checkbox" ? f.checked !== f.defaultChecked : f.value !== f.defaultValue) return true;
    }
    // A choice made in a list (the host's dealer) and not sent yet.
    var lists = part.querySelectorAll("select");
    for (var j = 0; j < lists.length; j++) {
      // As drawn: the option marked selected, or the first when none is.
      var drawn = 0;
      for (var k = 0; k < lists[j].options.length; k++) {
        if (lists[j].options[k].defaultSelected) drawn = k;
      }
      if (lists[j].selectedIndex !== drawn) return true;
    }
    return false;
  }

  // The hand a phone's entry form was drawn for completed while its player typed: the form
  // for the next hand takes what was typed (and says so), rather than keep a form that can
  // only be refused.
  function followTheSheet(entry, fresh) {
    var was = parseInt(entry.dataset.hand, 10), now = parseInt(fresh.dataset.hand, 10);
    if (!(now > was)) return false;
    var focused = document.activeElement && entry.contains(document.activeElement) ? document.activeElement.name : null;
    entry.querySelectorAll("input:not([type=hidden])").forEach(function (typed) {
      var field = fresh.querySelector("input[name='" + typed.name + "']:not([type=hidden])");
      if (!field) return;
      if (typed.type === "checkbox") field.checked = typed.checked;
      else field.value = typed.value;
    });
    var note = document.createElement("p");
    note.className = "notice moved";
    note.setAttribute("role", "status");
    note.textContent = fresh.dataset.moved;
    var form = fresh.querySelector("form");
    form.parentNode.insertBefore(note, form);
    entry.replaceWith(fresh);
    enhance(fresh);
    if (focused) {
      var again = fresh.querySelector("[name='" + focused + "']");
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

  // Posts of this page on their way (the outbox): a ring meanwhile, most likely of the post
  // itself, waits for the answer, which brings the sheet as it then stands.
  var answering = 0;
  var ringHeld = false;

  function startLive() {
    var first = document.getElementById("live");
    var url = first.dataset.fetch;
    var events = first.dataset.events;
    var release = first.dataset.release;
    var version = first.dataset.version;
    var etag = first.dataset.etag;
    var safety = (parseInt(first.dataset.safety, 10) || 60) * 1000;
    var source = null;
    var streaming = false;
    var timer = null;
    var busy = false;
    var again = false;
    var reloadWanted = false;
    var stopped = false;
    // Bumped when the page adopts an answer's live part: a fetch begun before it is dropped.
    var drawnFrom = 0;
    // After a failure (no network, or the server's 503 while its database is away) a little
    // longer each time, up to the safety fetch's period.
    var wait = safety / 4;

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
      if (answering) { ringHeld = true; return; }
      if (busy) { again = true; return; }
      if (document.hidden) { schedule(); return; }
      busy = true;
      var asked = drawnFrom;
      // The ETag goes back exactly as it came (weak, W/"…"): the server matches it as sent.
      var headers = {};
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status >= 500) { offline(); return null; }
          online();
          if (response.status !== 200) return null;
          var tag = response.headers.get("ETag");
          return response.text().then(function (html) { return { tag: tag, html: html }; });
        })
        .then(function (fresh) {
          // Asked for by a page since replaced (showAnswer): the new one has its own.
          if (!fresh || stopped || asked !== drawnFrom) return;
          var live = document.getElementById("live");
          // A name being typed in the live part (the claim form) is not swapped away: the
          // ETag stays as it was, so the next fetch brings the change again.
          if (!live || editing(live)) return;
          if (fresh.tag) etag = fresh.tag;
          var doc = new DOMParser().parseFromString(fresh.html, "text/html");
          var freshLive = doc.getElementById("live");
          if (freshLive) {
            // The last free side was just taken: the invite folds, as a reload would draw it.
            var wasInviting = live.querySelector("[data-inviting]");
            live.innerHTML = freshLive.innerHTML;
            var invite = document.querySelector("details.invite");
            if (wasInviting && invite && !live.querySelector("[data-inviting]")) invite.open = false;
            if (freshLive.dataset.version) version = freshLive.dataset.version;
          }
          // "Hand 2: Bob 10 recorded." was about the sheet as it was: the sheet moved on.
          document.querySelectorAll("main > .flash.done, main > .flash.repeated").forEach(function (note) {
            note.remove();
          });
          var entry = document.getElementById("entry");
          var freshEntry = doc.getElementById("entry");
          if (entry && freshEntry) {
            if (!editing(entry)) {
              entry.replaceWith(freshEntry);
              enhance(freshEntry);
            } else {
              followTheSheet(entry, freshEntry);
            }
          }
          enhance(live);
          reloadIfIdle();
        })
        .catch(offline)
        .then(function () {
          busy = false;
          if (stopped) return;
          if (again) { again = false; fetchLive(); } else { schedule(); }
        });
    }

    // The stream: each message is a new version of the match (its id too, so the browser's
    // own reconnect says where it stood); "release" names the code that serves it.
    function connect() {
      if (!window.EventSource) return;
      if (source) source.close();
      streaming = false;
      source = new EventSource(events + "?since=" + encodeURIComponent(version));
      source.onopen = function () { streaming = true; schedule(); };
      source.onmessage = fetchLive;
      source.addEventListener("release", function (event) {
        if (event.data === release || reloadedFor(event.data)) return;
        reloadWanted = true;
        reloadIfIdle();
      });
      source.onerror = function (event) {
        var failed = event.target;
        if (failed !== source) return;
        // The browser reconnects by itself (CONNECTING) unless the server refused (CLOSED):
        // meanwhile the timer fetches, and a closed stream is tried again at that pace.
        streaming = false;
        schedule();
        if (failed.readyState === EventSource.CLOSED) {
          setTimeout(function () { if (source === failed) connect(); }, wait);
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

    // The page was replaced by the answer to a post (the outbox): the stream stays open and
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
    return { adopt: adopt, events: events, fetch: fetchLive, resume: resume, stop: stop };
  }

  var liveSheet = null;
  function resumeLive() { if (liveSheet) liveSheet.resume(); }
  document.addEventListener("visibilitychange", resumeLive);
  window.addEventListener("pageshow", function (event) { if (event.persisted) resumeLive(); });
  window.addEventListener("online", resumeLive);
  if (navigator.connection && navigator.connection.addEventListener) {
    navigator.connection.addEventListener("change", resumeLive);
  }

  /* Screen awake: a phone laid on the table between hands must not go dark and lock. While a
     page with the switch (a match's sheet) is shown and the switch is on, the page
     holds a screen wake lock; the browser lets it go whenever the page is hidden, so it is
     taken again when the page is shown. The switch is remembered on the phone, and shown only
     where the browser has wake locks: elsewhere, and without JavaScript, the phone sleeps as
     it is set to. */
  var AWAKE = "scorekeeper.awake";
  var awakeLock = null;
  var askingAwake = false;

  function awakeSwitch() {
    var toggle = "wakeLock" in navigator ? document.getElementById("awake") : null;
    if (toggle && !toggle.dataset.enhanced) {
      toggle.dataset.enhanced = "1";
      try { toggle.checked = localStorage.getItem(AWAKE) !== "off"; } catch (e) { /* on, as drawn */ }
      toggle.addEventListener("change", function () {
        try { localStorage.setItem(AWAKE, toggle.checked ? "on" : "off"); } catch (e) { /* this page only */ }
        stayAwake();
      });
      toggle.closest(".awake").hidden = false;
    }
    return toggle;
  }

  function stayAwake() {
    var toggle = awakeSwitch();
    if (!(toggle && toggle.checked && !document.hidden)) {
      if (awakeLock) awakeLock.release().catch(function () {});
      awakeLock = null;
      return;
    }
    if (awakeLock || askingAwake) return;
    askingAwake = true;
    navigator.wakeLock.request("screen").then(function (lock) {
      askingAwake = false;
      awakeLock = lock;
      lock.addEventListener("release", function () { if (awakeLock === lock) awakeLock = null; });
      // Switched off, or the page left, while it was asked for: let it go again.
      stayAwake();
    }, function () {
      // Refused (a battery saver, a page hidden meanwhile): the phone sleeps as it is set to.
      askingAwake = false;
    });
  }
  document.addEventListener("visibilitychange", stayAwake);

  /* Times: the server writes them in the phone's zone once it knows it (languages.py reads
     this cookie). A phone's first page shows UTC, labelled, and its live part is fetched again
     at once in local time; whether the zone was new is what this answers. */
  function tellZone() {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // An IANA name ("Asia/Tokyo") is cookie-safe as it is: sent as written, read as sent.
    if (!zone || !/^[A-Za-z0-9_\/+-]+$/.test(zone)) return false;
    if (document.cookie.split("; ").indexOf("tz=" + zone) !== -1) return false;
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
    return true;
  }

  /* The page's words for what app.js draws (base.html, in the phone's language). */
  var words = {};
  function say(key, fill) {
    var text = words[key] || key;
    // A function, not a string, as the replacement: a "$&" typed or said is kept as it is.
    Object.keys(fill || {}).forEach(function (name) {
      text = text.replace("%(" + name + ")s", function () { return fill[name]; });
    });
    return text;
  }

  // A count as a phone types it, in the digits the server reads (forms.DIGITS): ASCII,
  // Arabic-Indic (٠-٩) and Extended Arabic-Indic (۰-۹). NaN for anything else.
  function countOf(typed) {
    var ascii = typed.trim().replace(/[\u0660-\u0669\u06F0-\u06F9]/g, function (digit) {
      var code = digit.charCodeAt(0);
      return String(code - (code < 0x06F0 ? 0x0660 : 0x06F0));
    });
    return /^-?[0-9]+$/.test(ascii) ? parseInt(ascii, 10) : NaN;
  }

  /* Number fields: a minus key for games that go negative (phone keypads often lack one),
     and thumb-size steppers on calculator counts. */
  function enhance(root) {
    root.querySelectorAll("input[data-negative]:not([data-enhanced])").forEach(function (input) {
      input.dataset.enhanced = "1";
      var sign = document.createElement("button");
      sign.type = "button";
      sign.className = "sign";
      sign.textContent = "±";
      sign.setAttribute("aria-label", say("change_sign"));
      sign.addEventListener("click", function () {
        var v = input.value.trim();
        input.value = v.charAt(0) === "-" ? v.slice(1) : "-" + v;
        input.focus();
      });
      input.after(sign);
    });
    root.querySelectorAll("input.stepper:not([data-enhanced])").forEach(function (input) {
      input.dataset.enhanced = "1";
      var wrap = document.createElement("span");
      wrap.className = "steps";
      [["−", -1], ["+", 1]].forEach(function (pair) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = pair[0];
        var label = input.labels && input.labels[0] ? input.labels[0].firstChild.textContent.trim() : input.name;
        b.setAttribute("aria-label", say(pair[1] < 0 ? "one_less" : "one_more", { what: label }));
        b.addEventListener("click", function () {
          var n = countOf(input.value) || 0;
          var min = parseInt(input.getAttribute("min"), 10);
          var max = parseInt(input.getAttribute("max"), 10);
          n += pair[1];
          if (!isNaN(min) && n < min) n = min;
          if (!isNaN(max) && n > max) n = max;
          input.value = String(n);
          input.dispatchEvent(new Event("input", { bubbles: true }));
        });
        wrap.appendChild(b);
      });
      input.after(wrap);
      wrap.insertBefore(input, wrap.children[1]);
    });
  }

  /* Calculator: the breakdown and total as you type, worked out by the server's own rules. */

  // The counts the preview's reasons name (data-field) are marked, and no others: the player
  // sees which count to fix, and a fixed one stops being marked as they type.
  function markRefused(breakdown) {
    document.querySelectorAll("form.calculator [aria-invalid]").forEach(function (field) {
      field.removeAttribute("aria-invalid");
    });
    if (!breakdown) return;
    breakdown.querySelectorAll("[data-field]").forEach(function (reason) {
      var field = document.getElementById(reason.dataset.field);
      if (field) field.setAttribute("aria-invalid", "true");
    });
  }

  function startCalculator(form) {
    var timer = null;
    // Only the answer to the latest counts is shown: an earlier one arriving late is stale.
    var asked = 0;
    var workOut = form.querySelector("button.work-out");
    if (workOut) workOut.hidden = true;
    // No connection: the counts stay as typed, and the breakdown says the total is worked
    // out when the connection is back, rather than show one the server did not work out.
    function offline() {
      var old = document.getElementById("breakdown");
      var said = document.getElementById("calc-offline");
      if (!old || !said || old.dataset.offline) return;
      var fresh = said.content.firstElementChild.cloneNode(true);
      fresh.dataset.offline = "1";
      old.replaceWith(fresh);
      markRefused(null);
    }
    function preview() {
      if (navigator.onLine === false) { offline(); return; }
      var mine = ++asked;
      var data = new FormData(form);
      data.set("intent", "preview");
      fetch(form.dataset.preview, {
        method: "POST", body: data, credentials: "same-origin", headers: { "X-Preview": "1" }
      })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          // A later keystroke's answer is coming, or the page moved on (an answer shown).
          if (mine !== asked || !form.isConnected) return;
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById("breakdown");
          var old = document.getElementById("breakdown");
          // An answer without a breakdown (a server error page) worked nothing out.
          if (!fresh) { offline(); return; }
          if (old) old.replaceWith(fresh);
          markRefused(fresh);
        })
        .catch(function () { if (mine === asked && form.isConnected) offline(); });
    }
    // A total shown for counts since changed is not the total of these: until the answer
    // comes, the total reads "…" and Enter says no number (it sends the counts, which the
    // server works out).
    function unsure() {
      var shown = document.getElementById("breakdown");
      var said = document.getElementById("calc-offline");
      if (!shown || shown.dataset.offline) return;
      shown.setAttribute("aria-busy", "true");
      var total = shown.querySelector(".calc-total");
      if (total) total.textContent = "…";
      var enter = shown.querySelector("button[name=intent][value=enter]");
      if (enter && said) enter.textContent = said.content.querySelector("button").textContent;
    }
    function soon(wait) {
      if (navigator.onLine === false) offline();
      else unsure();
      clearTimeout(timer);
      timer = setTimeout(preview, wait);
    }
    form.addEventListener("input", function () { soon(150); });
    form.addEventListener("change", function () { soon(50); });
    // A calculator the page has since replaced (an answer shown in its place) hears no more.
    window.addEventListener("offline", function () { if (form.isConnected) offline(); });
    window.addEventListener("online", function () { if (form.isConnected) soon(0); });
    preview();
  }

  /* Forms: one tap sends once. An entry, a calculator entry or a correction goes through the
     outbox, so no connection, or an answer that never came, loses nothing. */
  // The button that sent a form, where the browser doesn't say (event.submitter is newer
  // than some phones): the calculator's Enter is a named button the server must hear of.
  var lastTapped = null;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[type=submit], input[type=submit]");
    if (button) lastTapped = button;
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
    setTimeout(function () { delete form.dataset.sent; }, 4000);
    if (form.dataset.outbox && outboxWorks()) {
      event.preventDefault();
      var submitter = event.submitter || (lastTapped && lastTapped.form === form ? lastTapped : null);
      post(form, submitter);
    }
  });

  /* The outbox. What a form posts is kept in the page's storage, with its key, from the tap
     until the server answers; the phone says it is kept and not yet sent, and sends it again
     when the connection is back or the page is opened again (its key makes a resend record
     once). An answer replaces the page as the browser would have; one that comes to a later
     page, or a refusal of a resend, is said above the page with what was typed, until tapped
     away: nothing typed goes silently. */
  var OUTBOX = "scorekeeper.outbox";
  // An answer this late is taken as never coming: the post stays kept and goes again.
  var ANSWER_WITHIN = 20000;
  var RESEND_EVERY = 10000;
  // The keys of the posts on their way now: never sent twice at once.
  var inFlight = {};
  var resendTimer = null;

  // Only where the page's storage really keeps things (private modes that throw on writing
  // don't): elsewhere a form posts as the browser does, as without JavaScript.
  function outboxWorks() {
    try {
      if (!(window.fetch && window.Promise && window.URLSearchParams && window.DOMParser)) return false;
      localStorage.setItem(OUTBOX + ".check", "1");
      localStorage.removeItem(OUTBOX + ".check");
      return true;
    } catch (e) {
      return false;
    }
  }

  function kept() {
    try { return JSON.parse(localStorage.getItem(OUTBOX) || "[]"); } catch (e) { return []; }
  }

  function keep(items) {
    try { localStorage.setItem(OUTBOX, JSON.stringify(items)); } catch (e) { /* full: best effort */ }
  }

  function update(item) {
    var items = kept().filter(function (other) { return other.key !== item.key; });
    if (item.state !== "gone") items.push(item);
    items.sort(function (a, b) { return a.at - b.at; });
    keep(items);
    drawOutbox();
  }

  function post(form, submitter) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    var points = form.querySelector("input[name=points]");
    var key = (form.querySelector("input[name=key]") || {}).value || String(Date.now()) + Math.random();
    var item = {
      key: key,
      url: form.action,
      fields: fields,
      // The form's name for itself, and the number typed (as typed: digits are no words).
      what: form.dataset.outbox + (points && points.value.trim() ? " · " + points.value.trim() : ""),
      page: location.pathname,
      at: Date.now(),
      state: "sending",
      resend: false
    };
    update(item);
    send(item);
  }

  function messageOf(doc, kinds) {
    var said = doc.querySelector(kinds);
    return said ? said.textContent.trim() : "";
  }

  function send(item) {
    inFlight[item.key] = true;
    var heldHere = item.page === location.pathname;
    if (heldHere) answering += 1;
    var body = new URLSearchParams();
    item.fields.forEach(function (field) { body.append(field[0], field[1]); });
    var controller = window.AbortController ? new AbortController() : null;
    var late = null;
    var tooLate = new Promise(function (resolve, reject) {
      late = setTimeout(function () {
        if (controller) controller.abort();
        reject(new Error("no answer"));
      }, ANSWER_WITHIN);
    });
    var posted = fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", signal: controller ? controller.signal : undefined
    });
    return Promise.race([posted, tooLate])
      .then(function (response) {
        return response.text().then(function (html) { return { response: response, html: html }; });
      })
      .then(function (answer) {
        clearTimeout(late);
        var response = answer.response;
        var doc = new DOMParser().parseFromString(answer.html, "text/html");
        if (response.status >= 500 || response.status === 408) {
          // The server can't take it now (its database away), or the post reached it too
          // slowly to be read whole: kept, and sent again later.
          item.state = "kept";
          item.resend = true;
          item.renewed = false;
          update(item);
          return "unanswered";
        }
        if (response.status === 400 && doc.querySelector("[data-refusal=csrf]") && !item.renewed) {
          // Its security token went stale meanwhile: a fresh one from the page, and again.
          // This answer is not shown: what it says once ("this phone was not recognised")
          // the next one says.
          item.notice = messageOf(doc, "main > .flash.notice");
          return renewToken(item).then(function () { return send(item); });
        }
        if (item.notice) {
          var said = doc.createElement("p");
          said.className = "flash notice";
          said.setAttribute("role", "status");
          said.textContent = item.notice;
          if (doc.querySelector("main")) doc.querySelector("main").prepend(said);
          item.notice = "";
        }
        var here = item.page === location.pathname;
        if (response.ok) {
          item.state = "gone";
          update(item);
          if (here) { showAnswer(doc, response.url); return; }
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
      .catch(function () {
        // No connection, or no answer in time: kept, and sent again later.
        clearTimeout(late);
        item.state = "kept";
        item.resend = true;
        update(item);
        return "unanswered";
      })
      .then(function (outcome) {
        delete inFlight[item.key];
        if (heldHere) {
          answering -= 1;
          // A ring held for the answer: the sheet as it stands now, against what is shown.
          if (!answering && ringHeld) {
            ringHeld = false;
            if (liveSheet) liveSheet.fetch();
          }
        }
        // Answered: anything else kept goes next, at once; else after a while.
        scheduleResend(outcome === "unanswered" ? RESEND_EVERY : 0);
      });
  }

  function renewToken(item) {
    item.renewed = true;
    return fetch(item.page, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var token = doc.querySelector("input[name=csrf_token]");
        if (!token) return;
        item.fields = item.fields.map(function (field) {
          return field[0] === "csrf_token" ? [field[0], token.value] : field;
        });
      });
  }

  // Everything kept and not yet answered goes again, one post at a time, oldest first.
  function resend() {
    if (navigator.onLine === false) { scheduleResend(RESEND_EVERY); return; }
    var waiting = kept().filter(function (item) {
      return (item.state === "kept" || item.state === "sending") && !inFlight[item.key];
    });
    if (!waiting.length) return;
    var item = waiting[0];
    item.resend = true;
    item.state = "sending";
    update(item);
    send(item);
  }

  function scheduleResend(after) {
    clearTimeout(resendTimer);
    var waiting = kept().some(function (item) { return item.state === "kept" || item.state === "sending"; });
    if (waiting) resendTimer = setTimeout(resend, after);
  }

  // What the outbox holds, said above the page: kept, on its way, or refused (with why and
  // what was typed) until its player taps it away.
  function outboxBox() {
    var box = document.getElementById("outbox");
    var main = document.querySelector("main");
    if (!box && main) {
      box = document.createElement("div");
      box.id = "outbox";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      main.insertBefore(box, main.firstChild);
    }
    return box;
  }

  function drawOutbox() {
    var items = kept();
    if (!document.getElementById("outbox") && !items.length) return;
    var box = outboxBox();
    if (!box) return;
    box.querySelectorAll(".outbox-item").forEach(function (shown) { shown.remove(); });
    items.forEach(function (item) {
      var line = document.createElement("p");
      line.className = "flash outbox-item " + (item.state === "refused" ? "error" : item.state);
      if (item.state === "refused") {
        line.textContent = say("refused", { what: item.what, why: item.why || "" });
        line.appendChild(dismiss(function () { item.state = "gone"; update(item); }));
      } else if (item.state === "kept") {
        line.textContent = say("kept", { what: item.what });
      } else {
        line.textContent = say("sending", { what: item.what });
      }
      box.appendChild(line);
    });
  }

  function note(kind, text) {
    var box = text && outboxBox();
    if (!box) return;
    var line = document.createElement("p");
    line.className = "flash outbox-note " + kind;
    line.textContent = text;
    line.appendChild(dismiss(function () { line.remove(); }));
    box.appendChild(line);
  }

  function dismiss(then) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "dismiss";
    button.textContent = say("dismiss");
    button.addEventListener("click", then);
    return button;
  }

  // The answer to a post, shown as the browser would have shown it, without leaving the
  // page's scripts: the page's content and title, and its address if it moved (a redirect).
  function showAnswer(doc, url) {
    var main = document.querySelector("main");
    var fresh = doc.querySelector("main");
    if (!main || !fresh) { location.reload(); return; }
    main.innerHTML = fresh.innerHTML;
    document.title = doc.title;
    if (url && url !== location.href) history.replaceState(null, "", url);
    window.scrollTo(0, 0);
    start(main);
  }

  /* New match: show only the table rules and side names the chosen table uses. */
  function startNewMatch(form) {
    var seats = {};
    (form.dataset.sides || "").trim().split(/\s+/).forEach(function (pair) {
      var kv = pair.split("=");
      if (kv.length === 2) seats[kv[0]] = parseInt(kv[1], 10);
    });
    // "This phone plays on" offers the sides by the names just typed, and only as many as
    // the table seats.
    function offerSides(count) {
      var select = form.querySelector("select[name=host_side]");
      if (!select) return;
      Array.prototype.forEach.call(select.options, function (option) {
        var slot = parseInt(option.value, 10);
        if (slot < 0) return;
        var name = form.querySelector("input[name=side_" + slot + "]");
        var typed = name && name.value.trim();
        option.textContent = typed || say("side", { number: slot + 1 });
        // Sides named freely (Other game): only the named ones play, and side 1 always.
        option.hidden = option.disabled = count !== null ? slot >= count : slot > 0 && !typed;
        if (option.disabled && option.selected) select.value = "0";
      });
    }

    function update() {
      var chosen = form.querySelector("input[name=table_format]:checked");
      // A format the page gave no count for (sides named freely): every name field stays.
      if (!chosen || !(chosen.value in seats)) { offerSides(null); return; }
      offerSides(seats[chosen.value]);
      form.querySelectorAll("fieldset[data-formats]").forEach(function (fs) {
        fs.hidden = fs.dataset.formats.split(" ").indexOf(chosen.value) < 0;
      });
      form.querySelectorAll(".side-names[data-slot]").forEach(function (row) {
        row.hidden = parseInt(row.dataset.slot, 10) > seats[chosen.value];
      });
    }
    form.addEventListener("change", update);
    form.addEventListener("input", update);
    update();
  }

  // What a page's content needs once drawn, whether loaded or put in by showAnswer.
  function start(root) {
    enhance(root);
    var live = document.getElementById("live");
    if (liveSheet && !(live && live.dataset.events === liveSheet.events)) {
      liveSheet.stop();
      liveSheet = null;
    }
    if (live && live.dataset.events) {
      if (liveSheet) liveSheet.adopt(live);
      else liveSheet = startLive();
    }
    var calc = root.querySelector("form.calculator");
    if (calc) startCalculator(calc);
    drawOutbox();
    stayAwake();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var said = document.getElementById("words");
    if (said) words = JSON.parse(said.textContent);
    var newMatch = document.querySelector("form.new-match");
    if (newMatch) startNewMatch(newMatch);
    var toldZone = tellZone();
    start(document);
    // This page was drawn in UTC, before the server knew the phone's zone: drawn again in it.
    if (toldZone && liveSheet) liveSheet.fetch();
    var full = document.querySelector(".qr-full");
    if (full && full.requestFullscreen) {
      full.addEventListener("click", function () { full.requestFullscreen().catch(function () {}); });
    }
    if (outboxWorks()) {
      // Opened again with something kept from before: it goes now.
      keep(kept().map(function (item) { item.resend = true; return item; }));
      drawOutbox();
      resend();
      window.addEventListener("online", resend);
      document.addEventListener("visibilitychange", function () { if (!document.hidden) resend(); });
      window.addEventListener("pageshow", function (event) { if (event.persisted) resend(); });
    }
  });
})();
