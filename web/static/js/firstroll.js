// Rolling for the first player: every player's dice of that roll, and ties rolled again.
// Shown on the turn panel and on the scoreboard while the first player is being decided.

import { dieFace } from "./dice.js";
import { el, fill } from "./dom.js";
import { diceText, isolate, joinNames, num, t, td } from "./i18n.js";

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

function tieText(state, round) {
  const names = joinNames(round.tied.map((p) => state.players[p]));
  return t("first_tie", { names, total: num(round.best) });
}

/** Return who starts as a sentence ("Ben starts with 17."): the highest of a round untied. */
function startsText(state, round) {
  const starter = round.rolls.find((r) => total(r.dice) === round.best);
  return t("first_starts", { name: isolate(state.players[starter.player]), total: num(round.best) });
}

/** Return the game's actions so far, box corrections aside (they leave the roll on the table). */
export function playActions(state) {
  return (state.history || []).filter((entry) => entry.type !== "correction");
}

/**
 * Return the last roll for first ({player, dice}) while it is the game's last action, so
 * that it may still be corrected (even after it decided who starts); else null.
 */
export function lastFirstRoll(state) {
  const actions = playActions(state);
  const last = actions[actions.length - 1];
  return last && last.type === "first-roll" ? { player: last.player, dice: last.dice } : null;
}

/**
 * Return what the rolls for first of *state* have decided as a sentence: a tie of the last
 * round (those players roll again) or who starts; "" while a round is being rolled.
 */
export function firstOutcome(state) {
  const rounds = firstRollRounds(state);
  const last = rounds[rounds.length - 1];
  if (!last || last.best === null) return "";
  return last.tied ? tieText(state, last) : startsText(state, last);
}

/** Return the message telling the last roll for first of *state* and what it decided. */
export function firstRollNews(state) {
  const roll = lastFirstRoll(state);
  if (!roll) return "";
  const rolled = t("first_rolled", { name: isolate(state.players[roll.player]),
    dice: diceText(roll.dice), total: num(total(roll.dice)) });
  return [rolled, firstOutcome(state)].filter(Boolean).join(" ");
}

/** Fill *container* with how the first player is chosen, every roll for first so far and,
 * once decided, who starts. */
export function renderFirstRolls(container, state) {
  const parts = [el("p", { class: "first-rule", text: td(state, "first_rule") })];
  const rounds = firstRollRounds(state);
  for (const round of rounds) {
    parts.push(el("ul", { class: "first-rolls" }, round.rolls.map((r) => rollItem(state, r))));
    if (round.tied) parts.push(el("p", { class: "first-tie", text: tieText(state, round) }));
  }
  const last = rounds[rounds.length - 1];
  if (last && last.best !== null && !last.tied) { // a round without a tie decides
    parts.push(el("p", { class: "first-starts", text: startsText(state, last) }));
  }
  fill(container, ...parts);
}

/**
 * Show the rolls for first in a box right after the element *anchor* while *state* is
 * deciding the first player, and after that until the first roll of play (so that the
 * deciding roll and who starts stay in view); hide the box otherwise.
 */
export function showFirstRolls(anchor, state) {
  let box = anchor.parentElement.querySelector(":scope > .first-rolls-box");
  if (!box) {
    box = el("div", { class: "first-rolls-box", "aria-live": "polite" });
    anchor.after(box);
  }
  box.hidden = state.phase !== "first-roll" && !(state.phase === "play" && lastFirstRoll(state));
  if (box.hidden) fill(box);
  else renderFirstRolls(box, state);
}
