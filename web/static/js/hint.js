// The hint: the advisor's best keep or box for the roll on the table, and what the other
// choices cost on average. Switched on and off by the player; the choice is remembered.

import { api } from "./api.js";
import { el, fill } from "./dom.js";
import { boxLabel, decimal, diceText, num, t } from "./i18n.js";

const STORAGE_KEY = "pipkeeper.hint";
const TOP_KEEPS = 4; // keeps listed besides the best choice
const $ = (id) => document.getElementById(id);

let current = { key: null, hint: null }; // the hint of one game version, once it has come

/** Return true when the player has switched hints on. */
export function hintOn() {
  try {
    return localStorage.getItem(STORAGE_KEY) === "on";
  } catch {
    return false; // storage blocked: hints stay off until switched on for this page
  }
}

/** Wire the switch; onChange() redraws the page when it is flipped. */
export function setupHint(onChange) {
  const toggle = $("hint-toggle");
  toggle.checked = hintOn();
  toggle.addEventListener("change", () => {
    try {
      localStorage.setItem(STORAGE_KEY, toggle.checked ? "on" : "off");
    } catch { /* not remembered, but still applied below */ }
    onChange();
  });
}

/** Return an advisor option (from the hint or review API) in the page's words. */
export function optionText(game, option) {
  if (option.kind === "score") {
    return t("score_in", { points: num(option.points), box: boxLabel(game, option.box) });
  }
  // All the dice are the kept and the rerolled ones: five, or six in Maxi Yatzy.
  const six = option.keep.length + option.reroll === 6 ? "_six" : "";
  if (!option.keep.length) return t(`reroll_all${six}`);
  if (!option.reroll) return t(`keep_all${six}`);
  return t("keep_option", { dice: diceText(option.keep), n: option.reroll });
}

/** Return the cost of a choice as shown beside it: "−3.2", or "0.0" for a best choice. */
export function lossText(loss) {
  return loss < 0.05 ? decimal(0) : `−${decimal(loss)}`;
}

function keepItem(game, option) {
  return el("li", { class: option.loss < 0.05 ? "best" : "" },
    el("span", { class: "h-choice", text: optionText(game, option) }),
    el("span", { class: "h-loss", title: t("hint_cost"), text: lossText(option.loss) }));
}

function drawPanel(state, hint) {
  const best = hint.options[0];
  const keeps = hint.options.filter((o) => o.kind === "keep").slice(0, TOP_KEEPS);
  fill($("hint"),
    el("p", { class: "hint-best" }, el("strong", { text: t("hint_best", { choice: optionText(state.game, best) }) })),
    el("p", { class: "hint-expected", text: t("hint_expected", { points: decimal(hint.expected) }) }),
    keeps.length ? el("p", { class: "hint-keeps-title", text: t("hint_keeps") }) : null,
    keeps.length ? el("ol", { class: "hint-keeps" }, keeps.map((o) => keepItem(state.game, o))) : null);
}

function markDice(best) {
  const slots = $("dice").querySelectorAll(".die-slot");
  for (const position of best.kind === "keep" ? best.hold : []) {
    const slot = slots[position];
    if (!slot) continue;
    slot.classList.add("hint-hold");
    slot.querySelector(".die")?.setAttribute("title", t("hint_hold"));
  }
}

/** Put the boxes of *list* in order of the points each loses (*scores*: box -> option). */
function orderByLoss(list, scores) {
  const loss = (item) => scores.get(item.querySelector(":scope > .suggestion")?.dataset.box)?.loss
    ?? Infinity;
  const items = [...list.children].filter((item) => item.querySelector(":scope > .suggestion"));
  const sorted = [...items].sort((a, b) => loss(a) - loss(b)); // ties keep the points order
  if (sorted.some((item, i) => item !== items[i])) list.prepend(...sorted);
}

function markSuggestions(hint) {
  const scores = new Map(hint.options.filter((o) => o.kind === "score").map((o) => [o.box, o]));
  const list = $("suggestions");
  for (const button of list.querySelectorAll("button.suggestion[data-box]")) {
    const option = scores.get(button.dataset.box);
    if (!option) continue;
    button.classList.toggle("hint-best", option === hint.options[0]);
    button.append(el("span", { class: "s-loss", title: t("hint_cost"), text: lossText(option.loss) }));
  }
  const focused = document.activeElement; // moving a box takes the focus from it
  for (const boxes of [list, ...list.querySelectorAll(".zeros ol")]) orderByLoss(boxes, scores);
  if (focused?.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
  // The best box may be a crossing out: it is shown, not folded away.
  const best = list.querySelector(".zeros .hint-best");
  if (best) best.closest("details").open = true;
}

function draw(state, hint) {
  drawPanel(state, hint);
  markDice(hint.options[0]);
  markSuggestions(hint);
}

/** Show the hint for *state* when switched on; call after every drawing of the turn panel. */
export function showHint(state) {
  const wanted = hintOn() && state.phase === "play" && state.roll > 0;
  $("hint-panel").hidden = !wanted;
  if (!wanted) return;
  const key = `${state.id}:${state.version}`; // every action changes the version
  if (current.key === key) {
    if (current.hint) draw(state, current.hint);
    return;
  }
  current = { key, hint: null };
  fill($("hint"), el("p", { class: "hint-wait", text: t("hint_loading") }));
  api.hint(state.id).then((hint) => {
    if (current.key !== key) return;
    current.hint = hint;
    draw(state, hint);
  }).catch((error) => {
    if (current.key !== key) return;
    current.key = null; // try again on the next drawing
    fill($("hint"), el("p", { class: "hint-wait", text: `${t("hint_unavailable")} ${error.message}` }));
  });
}
