// Dice on screen: pip faces, and the row of five (or six) dice, each opening the value picker when
// tapped (or set by a digit key), each with a Keep toggle.

import { el, fill } from "./dom.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

/** Return an SVG die showing *value* (1..6), or a "?" face when it is not set. */
export function dieFace(value) {
  const face = svg("svg", {
    viewBox: "0 0 100 100", class: "die-face", "aria-hidden": "true", focusable: "false" });
  face.append(svg("rect", { x: 4, y: 4, width: 92, height: 92, rx: 18, class: "die-body" }));
  if (PIPS[value]) {
    for (const [cx, cy] of PIPS[value]) face.append(svg("circle", { cx, cy, r: 9, class: "pip" }));
  } else {
    const mark = svg("text", { x: 50, y: 66, "text-anchor": "middle", class: "die-unknown" });
    mark.textContent = "?";
    face.append(mark);
  }
  return face;
}

/** Return the value (1..6) of a digit key, or null. */
export function digitValue(key) {
  return /^[1-6]$/.test(key) ? Number(key) : null;
}

/** Parse "6 6 4 6 6", "66466" or "6,6,4,6,6" into *count* values, or return null. */
export function parseDice(text, count = 5) {
  const digits = text.replace(/[\s,;\-–/]+/g, "");
  if (digits.length !== count || !/^[1-6]+$/.test(digits)) return null;
  return [...digits].map(Number);
}

function dieSlot(index, value, options) {
  const { locked, canKeep, kept, onOpen, onSet, onKeep } = options;
  const label = value ? t("die", { n: index + 1, value }) : t("die_unknown", { n: index + 1 });
  const fixed = locked || (canKeep && kept);
  const die = el("button", { type: "button", class: `die${kept ? " kept" : ""}`, "aria-label": label,
    disabled: fixed, dataset: { index, value: value || "" },
    "aria-controls": fixed ? null : "die-picker", "aria-expanded": fixed ? null : "false",
    on: {
      click: (event) => onOpen(index, event.currentTarget),
      keydown: (event) => { // a digit sets the die at once
        const digit = digitValue(event.key);
        if (digit) { event.preventDefault(); onSet(index, digit); }
      },
    } },
  dieFace(value));
  const keep = canKeep
    ? el("button", { type: "button", class: "keep", "aria-pressed": kept ? "true" : "false",
      "aria-label": t("keep_die", { n: index + 1 }), on: { click: () => onKeep(index) } },
    kept ? t("kept") : t("keep"))
    : null;
  return el("div", { class: "die-slot" }, die, keep);
}

/**
 * Draw the dice into *container*.
 * dice: five (or six) values or nulls; kept: Set of positions; canKeep: show Keep toggles;
 * locked: dice may not be changed; onOpen(i, button) opens the value picker of die i,
 * onSet(i, value) sets it at once (a digit key), onKeep(i) toggles Keep.
 */
export function renderDice(container, { dice, kept, canKeep, locked, onOpen, onSet, onKeep }) {
  container.classList.toggle("six", dice.length === 6);
  fill(container, dice.map((value, i) => dieSlot(i, value, {
    locked, canKeep, kept: kept.has(i), onOpen, onSet, onKeep,
  })));
}
