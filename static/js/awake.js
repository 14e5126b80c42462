/* Screen awake: a phone laid on the table between hands must not go dark and lock. While a
   page with the switch (a match's sheet) is shown and the switch is on, the page holds a
   screen wake lock; the browser lets it go whenever the page is hidden, so it is taken again
   when the page is shown. The switch is remembered on the phone, and shown only where the
   browser has wake locks: elsewhere, and without JavaScript, the phone sleeps as it is set to. */

const AWAKE = "scorekeeper.awake";
let awakeLock = null;
let asking = false;

function awakeSwitch() {
  const toggle = "wakeLock" in navigator ? document.getElementById("awake") : null;
  if (toggle && !toggle.dataset.enhanced) {
    toggle.dataset.enhanced = "1";
    try {
      toggle.checked = localStorage.getItem(AWAKE) !== "off";
    } catch (e) {
      /* on, as drawn */
    }
    toggle.addEventListener("change", () => {
      try {
        localStorage.setItem(AWAKE, toggle.checked ? "on" : "off");
      } catch (e) {
        /* this page only */
      }
      stayAwake();
    });
    toggle.closest(".awake").hidden = false;
  }
  return toggle;
}

// Hold the lock if the page's switch says so, and let it go if not.
export function stayAwake() {
  const toggle = awakeSwitch();
  if (!(toggle && toggle.checked && !document.hidden)) {
    if (awakeLock) awakeLock.release().catch(() => {});
    awakeLock = null;
    return;
  }
  if (awakeLock || asking) return;
  asking = true;
  navigator.wakeLock.request("screen").then(
    (lock) => {
      asking = false;
      awakeLock = lock;
      lock.addEventListener("release", () => {
        if (awakeLock === lock) awakeLock = null;
      });
      // Switched off, or the page left, while it was asked for: let it go again.
      stayAwake();
    },
    () => {
      // Refused (a battery saver, a page hidden meanwhile): the phone sleeps as it is set to.
      asking = false;
    }
  );
}

document.addEventListener("visibilitychange", stayAwake);
