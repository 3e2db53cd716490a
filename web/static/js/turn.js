// The turn panel: whose turn, roll counter, the dice to set, the record buttons and the suggestions.

import { renderDice } from "./dice.js";
import { lastFirstRoll, showFirstRolls } from "./firstroll.js";
import { el, fill } from "./dom.js";
import { boxLabel, diceCount, diceKey, isolate, num, t, td, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function heading(state) {
  if (state.phase === "first-roll") {
    return td(state, "first_roll", { name: isolate(state.players[state.first_roll_pending[0]]) });
  }
  if (state.phase === "over") return t("game_over");
  return t("turn_of", { name: isolate(state.players[state.current_player]) });
}

function status(state) {
  if (state.phase === "first-roll") return ""; // the rolls are shown by showFirstRolls
  if (state.phase === "over") return "";
  const turns = state.boxes.length;
  const parts = [t("round", { turn: state.turn, turns })];
  parts.push(state.roll ? t("roll_of", { roll: state.roll, max: state.max_rolls })
    : td(state, "no_roll_yet"));
  if (state.saves_rolls) {
    parts.push(t("saved_rolls_n", { n: num(state.saved_rolls[state.current_player]) }));
  }
  if (state.roll >= state.max_rolls) parts.push(t("must_score"));
  return parts.join(" · ");
}

function recordLabel(state) {
  if (state.phase === "first-roll") {
    return t("record_first_roll", { name: isolate(state.players[state.first_roll_pending[0]]) });
  }
  return t("record_roll", { n: state.roll + 1 });
}

function jokerNote(suggestions) {
  const joker = suggestions.find((s) => s.joker);
  return joker ? t(`joker_${joker.joker}`) : "";
}

function suggestionItem(state, s, onScore) {
  const box = boxLabel(state.game, s.box);
  const points = s.zero ? t("zero") : tn("points", s.points, { points: num(s.points) });
  return el("li", {},
    el("button", { type: "button", class: `suggestion${s.zero ? " zero" : ""}${s.joker ? " joker" : ""}`,
      dataset: { box: s.box }, "aria-label": t("score_in", { points: num(s.points), box }),
      on: { click: () => onScore(s.box) } },
    el("span", { class: "s-box", text: box }),
    el("span", { class: "s-points", text: points }),
    s.bonus ? el("span", { class: "s-bonus", text: t("bonus", { bonus: num(s.bonus) }) }) : null));
}

/** True when the dice on screen are not the recorded roll: a box would not score them. */
export function unrecorded(ctx) {
  const { state, draft } = ctx;
  return state.phase === "play" && Boolean(state.dice) && draft.some((v, i) => v !== state.dice[i]);
}

/** How many dice the next throw throws: the ones not kept (all of them before a turn's first). */
function photoHint(ctx, rolling) {
  const { state } = ctx;
  const hint = $("photo-hint");
  const kept = state.phase === "play" && state.roll > 0 ? ctx.kept.size : 0;
  const thrown = diceCount(state) - kept;
  hint.hidden = !(rolling && kept > 0 && thrown > 0);
  hint.textContent = hint.hidden ? "" : tn(diceKey(state, "photo_thrown"), thrown, { n: num(thrown) });
}

/**
 * Draw the turn panel for *ctx* (state, draft dice, kept set) with *handlers*:
 * onOpen(i, button), onSet(i, value), onKeep(i), onScore(box). (The record buttons are
 * wired once by the page.)
 */
export function renderTurn(ctx, handlers) {
  const { state } = ctx;
  const playing = state.phase === "play";
  const rolling = state.phase === "first-roll" || (playing && state.roll < state.max_rolls);
  $("turn-title").textContent = heading(state);
  $("turn-status").textContent = status(state);
  showFirstRolls($("turn-status"), state);
  $("roll-tools").hidden = !(rolling || (playing && state.roll > 0));
  renderDice($("dice"), {
    dice: ctx.draft,
    kept: ctx.kept,
    canKeep: playing && state.roll > 0 && state.roll < state.max_rolls,
    locked: !(rolling || playing),
    onOpen: handlers.onOpen,
    onSet: handlers.onSet,
    onKeep: handlers.onKeep,
  });
  photoHint(ctx, rolling);
  const record = $("record-roll");
  record.hidden = !rolling;
  record.textContent = recordLabel(state);
  const correct = $("correct-roll");
  // A roll for first may be corrected too, until the next action: a misread decides who starts.
  const first = lastFirstRoll(state);
  correct.hidden = !(first || (playing && state.roll > 0 && ctx.lastWasRoll));
  correct.textContent = first
    ? t("correct_first_roll", { name: isolate(state.players[first.player]) }) : t("correct_dice");
  // After a tap on the photo the likely next step is a correction, not a new roll.
  correct.classList.toggle("primary", Boolean(ctx.correcting));
  record.classList.toggle("primary", !ctx.correcting);
  renderSuggestions(state, handlers.onScore);
  // Boxes score the recorded roll only: say so while the dice on screen differ from it.
  const stale = unrecorded(ctx);
  $("draft-note").hidden = !stale;
  $("suggestions").classList.toggle("stale", stale);
  $("suggestions").querySelectorAll(".suggestion").forEach((button) => {
    if (stale) button.setAttribute("aria-describedby", "draft-note");
  });
}

function renderSuggestions(state, onScore) {
  const list = $("suggestions");
  const suggestions = state.phase === "play" ? state.suggestions || [] : [];
  $("suggest-block").hidden = state.phase !== "play";
  const note = jokerNote(suggestions);
  $("joker-note").hidden = !note;
  $("joker-note").textContent = note;
  if (!suggestions.length) {
    fill(list, el("li", { class: "empty", text: t("suggestions_none") }));
    return;
  }
  const scoring = suggestions.filter((s) => !s.zero);
  const zeros = suggestions.filter((s) => s.zero);
  const crossOut = zeros.length
    ? el("li", { class: "zeros" }, el("details", { open: !scoring.length },
      el("summary", { text: t("cross_out", { n: zeros.length }) }),
      el("ol", { class: "suggestions" }, zeros.map((s) => suggestionItem(state, s, onScore)))))
    : null;
  fill(list, scoring.map((s) => suggestionItem(state, s, onScore)), crossOut);
}
