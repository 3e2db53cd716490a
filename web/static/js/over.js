// The end of a game: winners, final scores, the series so far and "play again".

import { el, fill } from "./dom.js";
import { joinNames, num, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function finalScores(state) {
  const order = state.players.map((name, i) => ({ name, i, total: state.cards[i].totals.grand_total }))
    .sort((a, b) => b.total - a.total);
  return order.map((p) => el("li", { class: state.winners.includes(p.i) ? "winner" : "" },
    el("bdi", { class: "name", text: p.name }), " ",
    el("strong", { class: "total", text: num(p.total) })));
}

function seriesTable(state) {
  const { series } = state;
  if (!series || !series.games || series.games.length < 2) return null;
  const head = el("tr", {}, el("th", { scope: "col", text: "" }),
    ...state.players.map((name) => el("th", { scope: "col", text: name })));
  const rows = series.games.map((g) => el("tr", {},
    el("th", { scope: "row", text: t("game_number", { n: g.number }) }),
    ...g.grand_totals.map((total) => el("td", { text: num(total) }))));
  const totals = el("tr", { class: "series-total" }, el("th", { scope: "row", text: t("series_totals") }),
    ...series.totals.map((total) => el("td", { text: num(total) })));
  return el("table", { class: "series-table" }, el("thead", {}, head), el("tbody", {}, ...rows, totals));
}

/**
 * Show or hide the end-of-game view for *state*; onPlayAgain() starts the next game.
 * justEnded: the last change ended the game, so the view takes the focus.
 */
export function showGameOver(state, onPlayAgain, justEnded = false) {
  const section = $("game-over");
  const over = state.phase === "over";
  section.hidden = !over;
  if (!over) return;
  const names = state.winners.map((i) => state.players[i]);
  $("over-title").textContent = `${t("game_over")}: ${
    t(names.length > 1 ? "winners" : "winner", { names: joinNames(names) })}`;
  fill($("final-scores"), finalScores(state));
  fill($("series"), seriesTable(state));
  const again = $("play-again");
  again.hidden = !state.series.can_play_again;
  again.textContent = t("play_again", { n: state.series.game_number + 1 });
  again.onclick = onPlayAgain;
  if (!state.series.can_play_again && state.series.game_number >= state.series.max_games) {
    $("series").append(el("p", { text: t("series_over") }));
  }
  if (justEnded) $("over-title").focus();
}
