// The shared scoreboard: large type, no controls; follows the game's event stream.

import { renderCard } from "./card.js";
import { dieFace } from "./dice.js";
import { showFirstRolls } from "./firstroll.js";
import { el, fill } from "./dom.js";
import { isolate, joinNames, num, pageData, t, td } from "./i18n.js";
import { follow } from "./live.js";

const $ = (id) => document.getElementById(id);
let current = pageData.state;

function turnText(state) {
  if (state.phase === "first-roll") {
    return td(state, "first_roll", { name: isolate(state.players[state.first_roll_pending[0]]) });
  }
  if (state.phase === "over") {
    const names = state.winners.map((i) => state.players[i]);
    return `${t("game_over")}: ${t(names.length > 1 ? "winners" : "winner", { names: joinNames(names) })}`;
  }
  const roll = state.roll ? ` · ${t("roll_of", { roll: state.roll, max: state.max_rolls })}` : "";
  return `${t("turn_of", { name: isolate(state.players[state.current_player]) })}${roll}`;
}

function render(state) {
  renderCard($("card"), state, { how: false, ghosts: false });
  $("board-turn").textContent = turnText(state);
  showFirstRolls($("card").parentElement, state);
  // The rolls for first lie over the card's (still empty) boxes, below the players' names and
  // the first section's title.
  const boxes = $("card").tBodies[0]?.rows[1];
  $("card").parentElement.parentElement.style.setProperty("--card-head",
    `${boxes ? boxes.offsetTop : $("card").tHead.offsetHeight}px`);
  $("game-number").textContent = t("game_number", { n: state.series.game_number });
  const dice = state.phase === "play" && state.dice ? state.dice : [];
  fill($("board-dice"), dice.map((value, i) =>
    el("span", { class: `board-die${(state.kept || []).includes(i) ? " kept" : ""}` }, dieFace(value))));
  const series = state.series;
  $("board-series").hidden = series.games.length < 2;
  $("board-series").textContent = `${t("series_totals")}: ${state.players.map(
    (name, i) => `${isolate(name)} ${num(series.totals[i])}`).join(" · ")}`;
  document.body.dataset.version = String(state.version);
}

render(current);
follow(current.id, (state) => {
  if (state.version < current.version && state.series.game_number <= current.series.game_number) return;
  current = state;
  render(state);
});
