// The home page: start a game (rules, 1 to 8 players in the order they play, roll for first),
// resume, history, statistics.

import { api, ApiError } from "./api.js";
import { cellLabel, el, fill, say } from "./dom.js";
import { joinNames, num, pageData, t } from "./i18n.js";

const MAX_PLAYERS = 8;
const $ = (id) => document.getElementById(id);

function renumber() {
  const items = [...$("players").children];
  items.forEach((li, i) => {
    const n = i + 1;
    li.querySelector("label").textContent = t("player_n", { n });
    li.querySelector("label").htmlFor = `player-${n}`;
    const input = li.querySelector("input");
    input.id = `player-${n}`;
    input.placeholder = t("player_n", { n });
    const [up, down, remove] = li.querySelectorAll("button");
    up.setAttribute("aria-label", t("move_player_up", { n }));
    down.setAttribute("aria-label", t("move_player_down", { n }));
    remove.setAttribute("aria-label", t("remove_player", { n }));
    up.disabled = i === 0;
    down.disabled = i === items.length - 1;
    remove.hidden = items.length === 1;
  });
  $("add-player").disabled = items.length >= MAX_PLAYERS;
}

/** Move player *li* one place up (-1) or down (+1); the pressed button keeps the focus. */
function move(li, step, button) {
  const other = step < 0 ? li.previousElementSibling : li.nextElementSibling;
  if (!other) return;
  if (step < 0) other.before(li); else other.after(li);
  renumber();
  (button.disabled ? li.querySelector("input") : button).focus();
}

function playerItem(value = "") {
  const input = el("input", { name: "player", maxlength: 40, autocomplete: "off", required: true });
  input.value = value;
  const button = (cls, text, onClick) => el("button", { type: "button", class: `${cls} quiet`, text,
    on: { click: (event) => onClick(event.currentTarget) } });
  const li = el("li", {}, el("label", { class: "visually-hidden" }), input,
    button("move-up", "↑", (b) => move(li, -1, b)),
    button("move-down", "↓", (b) => move(li, 1, b)),
    button("remove", "✕", () => {
      li.remove();
      renumber();
      $("players").querySelector("input")?.focus();
    }));
  return li;
}

function setupForm() {
  const list = $("players");
  const values = [...list.querySelectorAll("input")].map((i) => i.value);
  fill(list, values.map((v) => playerItem(v)));
  renumber();
  $("add-player").addEventListener("click", () => {
    if (list.children.length >= MAX_PLAYERS) { say(t("too_many_players"), "error"); return; }
    const li = playerItem();
    list.append(li);
    renumber();
    li.querySelector("input").focus();
  });
  $("new-game").addEventListener("submit", startGame);
}

async function startGame(event) {
  event.preventDefault();
  const inputs = [...$("players").querySelectorAll("input")];
  const empty = inputs.find((i) => !i.value.trim());
  if (empty) { say(t("name_needed"), "error"); empty.focus(); return; }
  try {
    const state = await api.createGame($("rules").value, inputs.map((i) => i.value.trim()),
      $("roll-for-first").checked);
    window.location.assign(`/games/${state.id}`);
  } catch (error) {
    say(error instanceof ApiError ? error.message : String(error), "error");
  }
}

function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso || "";
  return date.toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * A series in a game list: in the finished games (*finished*) its last finished game, which
 * may be followed by one being played; else the game being played.
 */
function gameItem(game, finished) {
  const rules = pageData.rulesets[game.rules] || game.rules;
  const last = finished ? game.results[game.results.length - 1] : null;
  const text = last
    ? t("finished_summary", { rules, n: game.results.length,
      scores: game.players.map((p, i) => `${p} ${num(last.totals[i])}`).join(", ") })
    : t("game_summary", { rules, n: game.game_number, turn: game.turn });
  const winners = last ? last.winners.map((i) => game.players[i]) : [];
  return el("li", { class: game.joined ? "" : "not-joined" },
    el("a", { href: `/games/${game.id}`, class: "game-link" },
      el("span", { class: "who", text: joinNames(game.players) }),
      el("span", { class: "what", text }),
      winners.length ? el("span", { class: "won", text: `★ ${joinNames(winners)}` }) : null,
      el("span", { class: "when", text: t("started", { when: when(game.updated_at) }) }),
      game.joined ? null : el("span", { class: "lock", text: t("not_joined") })),
    game.finished && game.joined
      ? el("a", { href: `/games/${game.id}#review`, class: "review-link", text: t("review_link") })
      : null,
    game.owner ? deleteButton(game) : null);
}

function deleteButton(game) {
  const button = el("button", { type: "button", class: "delete-game", text: t("delete_game"),
    "aria-label": `${t("delete_game")}: ${joinNames(game.players)}` });
  button.addEventListener("click", async () => {
    if (!window.confirm(t("delete_confirm"))) return;
    try {
      await api.deleteGame(game.id);
      await loadLists();
      say(t("deleted"), "ok");
    } catch (error) {
      say(error.message, "error");
    }
  });
  return button;
}

const PAGE = 20;

/** Show the first page of list *id* (finished games or not), with a button for the next. */
async function showList(id, finished) {
  const page = await api.listGames({ finished, limit: PAGE });
  fill($(id), page.games.length ? page.games.map((game) => gameItem(game, finished))
    : el("li", { class: "empty", text: t("no_games") }));
  moreButton(id, page.next, finished);
}

function moreButton(id, next, finished) {
  const old = $(`${id}-more`);
  if (old) old.remove();
  if (!next) return;
  const button = el("button", { type: "button", id: `${id}-more`, class: "more-games",
    text: t("older_games") });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const page = await api.listGames({}, next);
      const items = page.games.map((game) => gameItem(game, finished));
      $(id).append(...items);
      moreButton(id, page.next, finished);
      items[0]?.querySelector("a")?.focus();
    } catch (error) {
      button.disabled = false;
      say(error.message, "error");
    }
  });
  $(id).after(button);
}

function statsRow(s) {
  const names = [...document.querySelectorAll("#stats thead th")].map((th) => th.textContent);
  const cell = (v, column) => el("td", {}, cellLabel(names[column]),
    v === null || v === undefined ? "–" : num(v));
  return el("tr", {}, el("th", { scope: "row", text: s.player }),
    cell(s.games, 1), cell(s.wins, 2), cell(s.average, 3), cell(s.best, 4), cell(s.yahtzees, 5));
}

async function loadLists() {
  try {
    const [, , { players }] = await Promise.all([showList("unfinished", false),
      showList("finished", true), api.stats()]);
    fill(document.querySelector("#stats tbody"), players.map(statsRow));
  } catch (error) {
    say(error.message, "error");
  }
}

setupForm();
loadLists();
