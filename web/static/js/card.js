// The paper-pad scorecard: one column per player, rows as printed, the current player highlighted.
// On the game page a filled box is a button: tapping it opens its correction (correct.js).

import { el, fill } from "./dom.js";
import { isolate, layoutFor, num, pageData, t, tn } from "./i18n.js";

/**
 * A player's name as its words, each kept whole: a name wraps at its spaces only. Thai puts no
 * spaces between words, and the browser would otherwise cut a name it does not know anywhere.
 */
function nameWords(name) {
  return name.split(/(\s+)/).filter(Boolean)
    .map((part) => (/^\s+$/.test(part) ? part : el("span", { class: "word", text: part })));
}

function playerHeader(state, name, index, current) {
  const winner = state.phase === "over" && state.winners.includes(index);
  const classes = ["player", index === current && "current", winner && "winner"].filter(Boolean);
  return el("th", { scope: "col", class: classes.join(" "),
    "aria-current": index === current ? "true" : null, dataset: { player: index } },
  winner ? el("span", { class: "crown", "aria-hidden": "true", text: "★ " }) : null,
  el("span", { class: "name" }, nameWords(name)),
  index === current ? el("span", { class: "visually-hidden", text: ` (${t("now_playing")})` }) : null);
}

/** The text of total *row* in a card with *totals* (checks drawn as ✓ marks). */
export function totalText(row, totals) {
  if (row.marks === "checks") {
    const checks = totals[row.count_key] || 0;
    return checks ? `${"✓".repeat(checks)} ${num(totals[row.key])}` : "";
  }
  const value = totals[row.key];
  return value === undefined || value === null ? "" : num(value);
}

function filledCell(row, value, name, onBox) {
  const score = el("span", { class: `score${value === 0 ? " scratch" : ""}`, text: num(value) });
  if (!onBox) return [score];
  return [el("button", { type: "button", class: "box-fix", tabindex: -1,
    "aria-label": t("fix_open", { name: isolate(name), box: row.label, points: num(value) }),
    on: { click: onBox } }, score)];
}

function boxCell(row, card, ghost, name, onBox) {
  const value = card.boxes[row.key];
  if (value !== null && value !== undefined) return filledCell(row, value, name, onBox);
  if (!ghost || !ghost.points) return [];
  const title = tn("points", ghost.points, { points: num(ghost.points) });
  return [el("span", { class: "ghost", title, text: num(ghost.points) })];
}

function bodyRow(row, state, options, columns) {
  const current = state.phase === "play" ? state.current_player : null;
  const cells = state.cards.map((card, index) => {
    const ghost = options.ghosts && index === current ? options.suggestions.get(row.key) : null;
    const onBox = options.onBox && (() => options.onBox(index, row.key));
    const content = row.kind === "box"
      ? boxCell(row, card, ghost, state.players[index], onBox) : [totalText(row, card.totals)];
    const fixed = row.kind === "box" && card.boxes[row.key] !== null
      && options.corrected.has(`${index}:${row.key}`);
    return el("td", { class: `value${index === current ? " current" : ""}${fixed ? " corrected" : ""}`,
      dataset: { player: index, row: row.key } }, ...content);
  });
  return el("tr", { class: `${row.kind} ${row.section}`, dataset: { row: row.key } },
    el("th", { scope: "row", class: "label", text: row.label }),
    options.how ? el("td", { class: "how", text: row.how }) : null,
    ...cells);
}

/** The row of each player's saved rolls (Maxi Yatzy): rolls left unused in earlier turns. */
function savedRow(state, options) {
  const current = state.phase === "play" ? state.current_player : null;
  return el("tr", { class: "saved-rolls", dataset: { row: "saved_rolls" } },
    el("th", { scope: "row", class: "label", text: t("saved_rolls") }),
    options.how ? el("td", { class: "how" }) : null,
    ...state.saved_rolls.map((saved, index) => el("td", {
      class: `value${index === current ? " current" : ""}`,
      dataset: { player: index, row: "saved_rolls" }, text: num(saved) })));
}

/**
 * Draw *state*'s scorecards into *table*.
 * options: how (show the "how to score" column), ghosts (faint points of the suggestions),
 * onBox (called with player and box when a filled box is tapped; without it boxes are text).
 */
export function renderCard(table, state, options = {}) {
  const opts = { how: true, ghosts: false, ...options };
  opts.suggestions = new Map((state.suggestions || []).map((s) => [s.box, s]));
  opts.corrected = new Set((state.history || []).filter((h) => h.type === "correction")
    .map((h) => `${h.player}:${h.to_box}`));
  const current = state.phase === "play" ? state.current_player : null;
  const columns = 1 + (opts.how ? 1 : 0) + state.players.length;
  const head = el("thead", {}, el("tr", {},
    el("th", { scope: "col", class: "label", text: t("col_box") }),
    opts.how ? el("th", { scope: "col", class: "how", text: t("col_how") }) : null,
    ...state.players.map((name, i) => playerHeader(state, name, i, current))));
  const body = el("tbody");
  let section = null;
  for (const row of layoutFor(state.game)) {
    if (row.section !== section) {
      section = row.section;
      body.append(el("tr", { class: "section-row" },
        el("th", { scope: "colgroup", colspan: columns, text: pageData.sections[section] })));
    }
    body.append(bodyRow(row, state, opts, columns));
  }
  if (state.saves_rolls && state.phase !== "over") body.append(savedRow(state, opts));
  fill(table, head, body);
  if (opts.onBox) roveBoxes(table);
}

const STEPS = { ArrowDown: "down", ArrowUp: "up", ArrowRight: "next", ArrowLeft: "previous",
  Home: "first", End: "last" };

/** The card's filled boxes are one tab stop; the arrow keys move between them. */
function roveBoxes(table) {
  const buttons = [...table.querySelectorAll(".box-fix")];
  if (buttons.length) buttons[0].tabIndex = 0;
  table.onkeydown = (event) => {
    let step = STEPS[event.key];
    const at = buttons.indexOf(event.target);
    if (!step || at < 0) return;
    if (document.dir === "rtl" && (step === "next" || step === "previous")) {
      step = step === "next" ? "previous" : "next";
    }
    const column = (b) => b.closest("td").dataset.player;
    const same = buttons.filter((b) => column(b) === column(event.target));
    const target = {
      next: buttons[at + 1], previous: buttons[at - 1], first: buttons[0],
      last: buttons[buttons.length - 1],
      down: same[same.indexOf(event.target) + 1], up: same[same.indexOf(event.target) - 1],
    }[step];
    if (!target) return;
    event.preventDefault();
    buttons.forEach((b) => { b.tabIndex = b === target ? 0 : -1; });
    target.focus();
  };
}
