// The printed pad of a series: one sheet per player, as a paper score pad prints it, with the
// boxes down the side and one column per game, Game #1 to Game #6. The finished games' cards
// are asked for once each (GET /api/games/<id>/pad: they never change); the game being played
// is the state's own cards.

import { api } from "./api.js";
import { totalText } from "./card.js";
import { el, fill } from "./dom.js";
import { isolate, layoutFor, num, pageData, t } from "./i18n.js";

const finished = new Map(); // game number -> the cards of that finished game of the series
let asking = null; // the request for them on its way, if any
let latest = null; // the state last drawn

/** Return the cards of every game of the pad, Game #1 first; null for a game not played yet. */
function gameCards(state) {
  const { series } = state;
  return Array.from({ length: series.max_games }, (_, i) => {
    const game = series.games[i];
    if (!game) return null;
    return game.number === series.game_number ? state.cards : finished.get(game.number) ?? null;
  });
}

/** Ask once for finished games not held yet, then draw *state*'s pad again with them. */
function fetchFinished(target, state) {
  const missing = state.series.games.some((g) => g.finished && g.number !== state.series.game_number
    && !finished.has(g.number));
  if (!missing || asking) return;
  asking = api.pad(state.id).then((pad) => {
    asking = null;
    for (const game of pad.games) finished.set(game.number, game.cards);
    renderPrintPad(target, latest);
  }, () => { asking = null; /* printed without them; the next change asks again */ });
}

function cellText(row, card) {
  if (!card) return "";
  if (row.kind !== "box") return totalText(row, card.totals);
  const value = card.boxes[row.key];
  return value === null || value === undefined ? "" : num(value);
}

// The four ArUco markers (4x4 bits, ids 0 to 3 clockwise from the top left; "1" white) that
// `pipkeeper check PHOTO` aligns a photo of the sheet by: vision/padmarkers.py reads them.
const MARKER_BITS = [
  ["1011", "0101", "0011", "0010"],
  ["0000", "1111", "1001", "1010"],
  ["0011", "0011", "0010", "1101"],
  ["1001", "1001", "0100", "0110"],
];
const SVG = "http://www.w3.org/2000/svg";

function svgRect(x, y, size, fill) {
  const rect = document.createElementNS(SVG, "rect");
  for (const [name, value] of Object.entries({ x, y, width: size, height: size, fill })) {
    rect.setAttribute(name, value);
  }
  return rect;
}

/** One marker as inline SVG: a black border around its bits, drawn crisp at any size. */
function marker(id) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 6 6");
  svg.setAttribute("class", `pad-marker pad-marker-${id}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.dataset.marker = id;
  svg.append(svgRect(0, 0, 6, "#000"));
  MARKER_BITS[id].forEach((row, y) => [...row].forEach((bit, x) => {
    if (bit === "1") svg.append(svgRect(x + 1, y + 1, 1, "#fff"));
  }));
  return svg;
}

function playerSheet(state, seat, games) {
  const head = el("tr", {}, el("th", { scope: "col", class: "label", text: t("col_box") }),
    el("th", { scope: "col", class: "how", text: t("col_how") }),
    games.map((_, i) => el("th", { scope: "col", class: "player",
      text: t("game_number", { n: i + 1 }) })));
  const rows = [];
  let section = null;
  for (const row of layoutFor(state.game)) {
    if (row.section !== section) {
      section = row.section;
      rows.push(el("tr", { class: "section-row" }, el("th", { scope: "colgroup",
        colspan: 2 + games.length, text: pageData.sections[section] })));
    }
    rows.push(el("tr", { class: `${row.kind} ${row.section}`, dataset: { row: row.key } },
      el("th", { scope: "row", class: "label", text: row.label }),
      el("td", { class: "how", text: row.how }),
      games.map((cards, i) => el("td", { class: "value", dataset: { game: i + 1, row: row.key } },
        cellText(row, cards && cards[seat])))));
  }
  const total = `${t("series_totals")}: ${num(state.series.totals[seat])}`;
  return el("section", { class: "print-player", dataset: { player: seat } },
    el("h2", { text: isolate(state.players[seat]) }),
    el("div", { class: "print-grid" },
      el("table", { class: "card" }, el("thead", {}, head), el("tbody", {}, rows)),
      [0, 1, 2, 3].map(marker)),
    el("p", { class: "print-series-total", text: total }));
}

/**
 * Draw *state*'s pad into *target* for printing when the series has more than one game (one
 * game prints as the card on screen); the page's body says which with the class print-series.
 */
export function renderPrintPad(target, state) {
  latest = state;
  const series = state.series.games.length > 1;
  document.body.classList.toggle("print-series", series);
  if (!series) { fill(target); return; }
  const games = gameCards(state);
  fill(target, state.players.map((_, seat) => playerSheet(state, seat, games)));
  fetchFinished(target, state);
}
