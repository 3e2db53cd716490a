// The review at the end of a game: every choice of every player against optimal solitaire
// play, the costliest first, with each player's total of expected points lost.

import { api } from "./api.js";
import { cellLabel, el, fill } from "./dom.js";
import { decimal, num, t, tn } from "./i18n.js";
import { lossText, optionText } from "./hint.js";

const $ = (id) => document.getElementById(id);

let shown = null; // the game whose review is on screen or on its way

const COLUMNS = ["col_round", "col_roll", "col_dice", "col_done", "col_best", "col_lost"];

function choiceRow(game, choice) {
  const cell = (column, attrs, ...content) => el("td", attrs, cellLabel(t(COLUMNS[column])),
    ...content);
  return el("tr", { class: choice.loss < 0.05 ? "optimal" : "costly" },
    cell(0, {}, num(choice.turn)),
    cell(1, {}, num(choice.roll)),
    el("td", { class: "r-dice", dir: "ltr", text: choice.dice.join(" ") }),
    cell(3, { class: "r-done" }, optionText(game, choice.chosen)),
    cell(4, { class: "r-best" }, choice.loss < 0.05 ? "✓" : optionText(game, choice.best)),
    cell(5, { class: "r-loss" }, el("bdi", { dir: "ltr", text: lossText(choice.loss) })));
}

function playerReview(game, player) {
  const choices = [...player.choices].sort((a, b) => b.loss - a.loss);
  const head = el("tr", {}, ...COLUMNS.map((key) => el("th", { scope: "col", text: t(key) })));
  return el("section", { class: "review-player", dataset: { player: player.player } },
    el("h4", {}, el("bdi", { text: player.name }), " ",
      el("span", { class: "review-total", text: tn("review_total", player.choices.length, {
        lost: decimal(player.total_loss), n: num(player.choices.length), optimal: num(player.optimal) }) })),
    el("div", { class: "table-scroll" },
      el("table", { class: "review-table stacks" }, el("thead", {}, head),
        el("tbody", {}, choices.map((c) => choiceRow(game, c))))));
}

function draw(state, review) {
  fill($("review-body"),
    el("p", { class: "review-expected",
      text: t("review_expected", { points: decimal(review.expected_score) }) }),
    review.players.map((p) => playerReview(state.game, p)));
  if (window.location.hash === "#review") $("review").scrollIntoView();
}

/** Show the review of *state*'s game once it is over (fetched once per game). */
export function showReview(state) {
  const over = state.phase === "over";
  $("review").hidden = !over;
  if (!over) {
    shown = null;
    return;
  }
  const key = `${state.id}:${state.series.game_number}`;
  if (shown === key) return;
  shown = key;
  fill($("review-body"), el("p", { class: "hint", text: t("review_loading") }));
  api.review(state.id).then((review) => {
    if (shown === key) draw(state, review);
  }).catch((error) => {
    if (shown !== key) return;
    shown = null; // try again on the next drawing
    fill($("review-body"), el("p", { class: "error", text: error.message }));
  });
}
