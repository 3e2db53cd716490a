// Rolling for the first player: every player's dice of that roll, and ties rolled again.
// Shown on the turn panel and on the scoreboard while the first player is being decided.

import { dieFace } from "./dice.js";
import { el, fill } from "./dom.js";
import { diceText, isolate, joinNames, num, t } from "./i18n.js";

const total = (dice) => dice.reduce((a, b) => a + b, 0);

/**
 * The rounds of rolling for first in *state*: each round's rolls ({player, dice}) and,
 * when the highest total was tied, the tied players (who roll again) and that total.
 */
export function firstRollRounds(state) {
  const rounds = [];
  let pending = state.players.map((_, i) => i);
  let round = [];
  for (const roll of state.first_rolls || []) {
    round.push(roll);
    if (round.length < pending.length) continue;
    const best = Math.max(...round.map((r) => total(r.dice)));
    const tied = round.filter((r) => total(r.dice) === best).map((r) => r.player);
    rounds.push({ rolls: round, tied: tied.length > 1 ? tied : null, best });
    pending = tied;
    round = [];
  }
  if (round.length) rounds.push({ rolls: round, tied: null, best: null });
  return rounds;
}

// Sized here: the page and the scoreboard style their own dice, not these.
const DIE_STYLE = "display:inline-block;width:1.6em;height:1.6em;margin-inline-end:.2em;vertical-align:middle";

function smallDie(value) {
  const face = dieFace(value);
  face.setAttribute("width", "100%");
  face.setAttribute("height", "100%");
  return el("span", { class: "board-die first-die", style: DIE_STYLE }, face);
}

function rollItem(state, roll) {
  const dice = el("span", { class: "first-dice", dir: "ltr", "aria-hidden": "true" },
    roll.dice.map(smallDie));
  return el("li", { class: "first-roll" },
    el("span", { class: "first-name", text: `${isolate(state.players[roll.player])} ` }),
    dice, " ",
    el("span", { class: "first-total", text: t("first_rolled_dice", {
      dice: diceText(roll.dice), total: num(total(roll.dice)) }) }));
}

function tieNote(state, round) {
  const names = joinNames(round.tied.map((p) => state.players[p]));
  return el("p", { class: "first-tie", text: t("first_tie", { names, total: num(round.best) }) });
}

/** Return the game's actions so far, box corrections aside (they leave the roll on the table). */
export function playActions(state) {
  return (state.history || []).filter((entry) => entry.type !== "correction");
}

/** Fill *container* with how the first player is chosen and every roll for first so far. */
export function renderFirstRolls(container, state) {
  const parts = [el("p", { class: "first-rule", text: t("first_rule") })];
  for (const round of firstRollRounds(state)) {
    parts.push(el("ul", { class: "first-rolls" }, round.rolls.map((r) => rollItem(state, r))));
    if (round.tied) parts.push(tieNote(state, round));
  }
  fill(container, ...parts);
}

/**
 * Show the rolls for first in a box right after the element *anchor* while *state* is
 * deciding the first player; hide the box otherwise.
 */
export function showFirstRolls(anchor, state) {
  let box = anchor.parentElement.querySelector(":scope > .first-rolls-box");
  if (!box) {
    box = el("div", { class: "first-rolls-box", "aria-live": "polite" });
    anchor.after(box);
  }
  box.hidden = state.phase !== "first-roll";
  if (box.hidden) fill(box);
  else renderFirstRolls(box, state);
}
