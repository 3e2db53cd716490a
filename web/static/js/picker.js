// The value picker: six faces to set one die in a single tap (not up to six taps round),
// opened from a die in the dice row or on the photo. Keyboard: arrows move between the
// faces, Enter/Space or a digit 1-6 picks, Escape closes; focus goes back where it came from.

import { dieFace, digitValue } from "./dice.js";
import { el, fill } from "./dom.js";
import { num, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const FACES = [1, 2, 3, 4, 5, 6];
let open = null; // {index, onPick, back}: the die being set, what to call, where focus returns

/** Close the picker; with *refocus*, focus goes back to the element that opened it. */
export function closePicker(refocus = true) {
  const picker = $("die-picker");
  if (!picker || picker.hidden) return;
  picker.hidden = true;
  const back = open && open.back;
  open = null;
  document.querySelectorAll("[aria-expanded='true'][aria-controls='die-picker']")
    .forEach((node) => node.setAttribute("aria-expanded", "false"));
  if (refocus && back && back.isConnected) back.focus();
}

function pick(value) {
  const { index, onPick } = open;
  closePicker(false);
  onPick(index, value);
}

function onKey(event) {
  const faces = [...$("die-picker").querySelectorAll(".pick-face")];
  const at = faces.indexOf(document.activeElement);
  // The faces run 1 to 6 left to right in every language, as the dice row does.
  const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 1, ArrowUp: -1 };
  const digit = digitValue(event.key);
  if (digit) pick(digit);
  else if (event.key === "Escape") closePicker();
  else if (event.key in moves) faces[(at + moves[event.key] + faces.length) % faces.length].focus();
  else if (event.key === "Home") faces[0].focus();
  else if (event.key === "End") faces[faces.length - 1].focus();
  else return;
  event.preventDefault();
}

/**
 * Open the picker for die *index* (0..4) showing *value* (or null), opened by element *from*;
 * onPick(index, value) gets the chosen value. Opening it again for the same die closes it.
 */
export function openPicker(from, index, value, onPick) {
  const picker = $("die-picker");
  if (!picker.hidden && open && open.index === index) { closePicker(); return; }
  closePicker(false);
  open = { index, onPick, back: from };
  $("die-picker-title").textContent = t("pick_value", { n: num(index + 1) });
  fill($("die-picker-faces"), FACES.map((face) => el("button", {
    type: "button", class: "pick-face", dataset: { value: face },
    "aria-label": num(face), "aria-pressed": face === value ? "true" : "false",
    on: { click: () => pick(face) },
  }, dieFace(face))));
  picker.hidden = false;
  from.setAttribute("aria-expanded", "true");
  picker.scrollIntoView({ block: "nearest" });
  picker.querySelector(`.pick-face[data-value="${value || 1}"]`).focus();
}

/** Wire the picker's keys and closing it when focus or a tap goes elsewhere. */
export function setupPicker() {
  const picker = $("die-picker");
  picker.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", (event) => {
    if (!picker.hidden && !picker.contains(event.target)
        && !event.target.closest("[aria-controls='die-picker']")) closePicker(false);
  });
}
