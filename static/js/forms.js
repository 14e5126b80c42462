/* Small form behaviours: a minus key and thumb-size steppers on number fields, the new match
   form that shows only what the chosen table uses, the QR code full screen. And the page's
   words for what the script draws (base.html's #words, in the phone's language), which the
   other modules say through this one's `say`: a module of their own would be one more file
   for a first visit to wait for. */

let words = null;

// The words for `key`, each %(name)s filled from `fill`.
export function say(key, fill = {}) {
  if (words === null) {
    const said = document.getElementById("words");
    words = said ? JSON.parse(said.textContent) : {};
  }
  let text = words[key] || key;
  // A function, not a string, as the replacement: a "$&" typed or said is kept as it is.
  for (const name of Object.keys(fill)) {
    text = text.replace(`%(${name})s`, () => fill[name]);
  }
  return text;
}

// A count as a phone types it, read with the digits the server reads (the form's
// data-digits, rendered from forms.DIGITS: runs of ten, 0 to 9). NaN for anything else.
export function countOf(typed, digits) {
  const text = typed.trim();
  if (!text) return NaN;
  let count = 0;
  for (const digit of text) {
    const at = digits.indexOf(digit);
    if (at < 0) return NaN;
    count = count * 10 + (at % 10);
  }
  return count;
}

/* Number fields: a minus key for games that go negative (phone keypads often lack one),
   and thumb-size steppers on calculator counts. */
export function enhance(root) {
  root.querySelectorAll("input[data-negative]:not([data-enhanced])").forEach((input) => {
    input.dataset.enhanced = "1";
    const sign = document.createElement("button");
    sign.type = "button";
    sign.className = "sign";
    sign.textContent = "±";
    sign.setAttribute("aria-label", say("change_sign"));
    sign.addEventListener("click", () => {
      const v = input.value.trim();
      input.value = v.charAt(0) === "-" ? v.slice(1) : "-" + v;
      input.focus();
    });
    input.after(sign);
  });
  root.querySelectorAll("input.stepper:not([data-enhanced])").forEach((input) => {
    input.dataset.enhanced = "1";
    const digits = (input.form && input.form.dataset.digits) || "";
    const wrap = document.createElement("span");
    wrap.className = "steps";
    for (const [text, step] of [["−", -1], ["+", 1]]) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = text;
      const label = input.labels && input.labels[0] ? input.labels[0].firstChild.textContent.trim() : input.name;
      b.setAttribute("aria-label", say(step < 0 ? "one_less" : "one_more", { what: label }));
      b.addEventListener("click", () => {
        let n = (countOf(input.value, digits) || 0) + step;
        const min = parseInt(input.dataset.min, 10);
        const max = parseInt(input.dataset.max, 10);
        if (!isNaN(min) && n < min) n = min;
        if (!isNaN(max) && n > max) n = max;
        input.value = String(n);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      wrap.appendChild(b);
    }
    input.after(wrap);
    wrap.insertBefore(input, wrap.children[1]);
  });
}

/* New match: show only the table rules and side names the chosen table uses. */
export function startNewMatch(form) {
  const seats = {};
  for (const pair of (form.dataset.sides || "").trim().split(/\s+/)) {
    const kv = pair.split("=");
    if (kv.length === 2) seats[kv[0]] = parseInt(kv[1], 10);
  }
  // "This phone plays on" offers the sides by the names just typed, and only as many as
  // the table seats; a side left unnamed by its field's placeholder, the name the server
  // gives it (setup.side_name).
  function offerSides(count) {
    const select = form.querySelector("select[name=host_side]");
    if (!select) return;
    for (const option of select.options) {
      const slot = parseInt(option.value, 10);
      if (slot < 0) continue;
      const name = form.querySelector(`input[name=side_${slot}]`);
      if (!name) continue;
      const typed = name.value.trim();
      option.textContent = typed || name.placeholder;
      // Sides named freely (Other game): only the named ones play, and side 1 always.
      option.hidden = option.disabled = count !== null ? slot >= count : slot > 0 && !typed;
      if (option.disabled && option.selected) select.value = "0";
    }
  }

  function update() {
    const chosen = form.querySelector("input[name=table_format]:checked");
    // A format the page gave no count for (sides named freely): every name field stays.
    if (!chosen || !(chosen.value in seats)) {
      offerSides(null);
      return;
    }
    offerSides(seats[chosen.value]);
    form.querySelectorAll("fieldset[data-formats]").forEach((fs) => {
      fs.hidden = fs.dataset.formats.split(" ").indexOf(chosen.value) < 0;
    });
    form.querySelectorAll(".side-names[data-slot]").forEach((row) => {
      row.hidden = parseInt(row.dataset.slot, 10) > seats[chosen.value];
    });
  }
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  update();
}

/* The QR code, full screen on a tap, for a phone held up to the table. */
export function startFullScreen() {
  const full = document.querySelector(".qr-full");
  if (full && full.requestFullscreen) {
    full.addEventListener("click", () => full.requestFullscreen().catch(() => {}));
  }
}
