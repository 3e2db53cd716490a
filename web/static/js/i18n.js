// Words and layouts the server put into the page (#page-data), in the page's language.

const data = JSON.parse(document.getElementById("page-data")?.textContent || "{}");

/** The whole JSON block: strings, layouts, sections, rulesets and page extras (state). */
export const pageData = data;

function format(text, params) {
  return text.replace(/\{(\w+)\}/g, (match, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : match);
}

/** Return the translated string *key* with {placeholders} filled from *params*. */
export function t(key, params = {}) {
  const text = (data.strings && data.strings[key]) || key;
  return format(Array.isArray(text) ? text[text.length - 1] : text, params);
}

/** How many dice a roll of *state*'s game has: five, or six in Maxi Yatzy. */
export function diceCount(state) {
  return (state && state.dice_count) || 5;
}

/** Return *key* for the dice of *state*'s game: its "_six" twin in a game of six dice. */
export function diceKey(state, key) {
  return diceCount(state) === 6 ? `${key}_six` : key;
}

/** Return the translated string *key* that names the dice count of *state*'s game. */
export function td(state, key, params = {}) {
  return t(diceKey(state, key), params);
}

const pluralRules = new Intl.PluralRules(document.documentElement.lang || "en");

/**
 * Return the translated string *key* in the plural form that *count* needs in the page's
 * language ("1 point", "2 points"; Gaelic has four forms), {placeholders} filled from *params*.
 * The server sends such a string as its forms in the order of `data.plural`'s categories.
 */
export function tn(key, count, params = {}) {
  const forms = data.strings && data.strings[key];
  if (!Array.isArray(forms)) return t(key, params);
  const index = (data.plural || []).indexOf(pluralRules.select(count));
  return format(forms[index >= 0 ? index : forms.length - 1], params);
}

/** Return the pad rows of *game* ("yahtzee" or "yacht"). */
export function layoutFor(game) {
  return (data.layouts && data.layouts[game]) || [];
}

/** Return the translated name of box *slug* of *game*. */
export function boxLabel(game, slug) {
  const row = layoutFor(game).find((r) => r.kind === "box" && r.key === slug);
  return row ? row.label : slug;
}

/** Return *name* isolated from the text around it, so a Latin name reads right inside Hebrew. */
export function isolate(name) {
  return `\u2068${name}\u2069`;
}

/** Return dice values as "6 6 4 6 6", read left to right in every language (Hebrew too). */
export function diceText(values) {
  return `\u2066${values.join(" ")}\u2069`;
}

/** Join names as "A, B and C" in the page's language, each name isolated. */
export function joinNames(names) {
  const parts = names.map(isolate);
  if (parts.length < 2) return parts.join("");
  return parts.slice(0, -1).join(", ") + t("and") + parts[parts.length - 1];
}

/** Format a number the way the page's language writes it. */
export function num(value) {
  return new Intl.NumberFormat(document.documentElement.lang || "en").format(value);
}

/** Format *value* with exactly *digits* decimals the way the page's language writes them. */
export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(document.documentElement.lang || "en",
    { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}
