/* Scorekeeper: the few things JavaScript makes better. Every page works without it. */
(function () {
  "use strict";

  /* Live sheet: ask every 2 s whether the match changed (ETag; 304 costs nothing), swap the
     live part in, and the entry form too unless this phone is typing in it. */
  function startLive(live) {
    var url = live.dataset.poll;
    var etag = live.dataset.etag;
    var timer = null;
    var busy = false;

    function editing(entry) {
      if (!entry) return false;
      var focused = document.activeElement;
      if (focused && entry.contains(focused) && /^(INPUT|SELECT|TEXTAREA)$/.test(focused.tagName)) return true;
      var fields = entry.querySelectorAll("input:not([type=hidden])");
      for (var i = 0; i < fields.length; i++) {
        var f = fields[i];
        if (f.type === "checkbox" ? f.checked !== f.defaultChecked : f.value !== f.defaultValue) return true;
      }
      // A choice made in a list (the host's dealer) and not sent yet.
      var lists = entry.querySelectorAll("select");
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

    function schedule(ms) {
      clearTimeout(timer);
      timer = setTimeout(poll, ms);
    }

    // Every 2 s while the server answers; after a failure (no network, or the server's 503
    // while its database is away) a little longer each time, up to 30 s.
    var wait = 2000;

    function offline() {
      document.body.classList.add("offline");
      wait = Math.min(wait * 2, 30000);
    }

    function poll() {
      if (busy) return;
      if (document.hidden) { schedule(2000); return; }
      busy = true;
      // The ETag goes back exactly as it came (weak, W/"…"): the server matches it as sent.
      var headers = { "X-Live": "1" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status >= 500) { offline(); return null; }
          document.body.classList.remove("offline");
          wait = 2000;
          if (response.status !== 200) return null;
          var tag = response.headers.get("ETag");
          return response.text().then(function (html) { return { tag: tag, html: html }; });
        })
        .then(function (fresh) {
          if (!fresh) return;
          // A name being typed in the live part (the claim form) is not swapped away: the
          // ETag stays as it was, so the next poll brings the change again.
          if (editing(live)) return;
          if (fresh.tag) etag = fresh.tag;
          var doc = new DOMParser().parseFromString(fresh.html, "text/html");
          var freshLive = doc.getElementById("live");
          if (freshLive) live.innerHTML = freshLive.innerHTML;
          // "Hand 2: Bob 10 recorded." was about the sheet as it was: the sheet moved on.
          document.querySelectorAll("main > .flash.done, main > .flash.repeated").forEach(function (note) {
            note.remove();
          });
          var entry = document.getElementById("entry");
          var freshEntry = doc.getElementById("entry");
          if (entry && freshEntry && !editing(entry)) {
            entry.replaceWith(freshEntry);
            enhance(freshEntry);
          }
          enhance(live);
        })
        .catch(offline)
        .then(function () { busy = false; schedule(wait); });
    }

    document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
    window.addEventListener("online", poll);
    window.addEventListener("focus", poll);
    schedule(2000);
  }

  /* Times: the server writes them in the phone's zone once it knows it (languages.py reads
     this cookie). A phone's first page shows UTC, labelled; its next poll brings local times. */
  function tellZone() {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // An IANA name ("Asia/Tokyo") is cookie-safe as it is: sent as written, read as sent.
    if (!zone || !/^[A-Za-z0-9_\/+-]+$/.test(zone)) return;
    if (document.cookie.split("; ").indexOf("tz=" + zone) !== -1) return;
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  }

  /* The page's words for what app.js draws (base.html, in the phone's language). */
  var words = {};
  function say(key, fill) {
    var text = words[key] || key;
    Object.keys(fill || {}).forEach(function (name) { text = text.replace("%(" + name + ")s", fill[name]); });
    return text;
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
          var n = parseInt(input.value, 10) || 0;
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
    var workOut = form.querySelector("button.work-out");
    if (workOut) workOut.hidden = true;
    function preview() {
      var data = new FormData(form);
      data.set("intent", "preview");
      fetch(form.dataset.preview, {
        method: "POST", body: data, credentials: "same-origin", headers: { "X-Preview": "1" }
      })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById("breakdown");
          var old = document.getElementById("breakdown");
          if (fresh && old) old.replaceWith(fresh);
          markRefused(fresh);
        })
        .catch(function () {});
    }
    form.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(preview, 150); });
    form.addEventListener("change", function () { clearTimeout(timer); timer = setTimeout(preview, 50); });
    preview();
  }

  /* Forms: one tap sends once; the button says so while the post is on its way. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
    setTimeout(function () { delete form.dataset.sent; }, 4000);
  });

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

  document.addEventListener("DOMContentLoaded", function () {
    var newMatch = document.querySelector("form.new-match");
    if (newMatch) startNewMatch(newMatch);
    enhance(document);
    var said = document.getElementById("words");
    if (said) words = JSON.parse(said.textContent);
    tellZone();
    var live = document.getElementById("live");
    if (live && live.dataset.poll) startLive(live);
    var calc = document.querySelector("form.calculator");
    if (calc) startCalculator(calc);
    var full = document.querySelector(".qr-full");
    if (full && full.requestFullscreen) {
      full.addEventListener("click", function () { full.requestFullscreen().catch(function () {}); });
    }
  });
})();
