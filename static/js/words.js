/* The page's words for what the script draws (base.html's #words, in the phone's language). */

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
