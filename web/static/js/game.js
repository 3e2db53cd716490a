// The game page: loads the state put into the page, renders the card and the turn panel,
// sends the player's actions to the API and follows changes from other devices (SSE).

import { api, ApiError } from "./api.js";
import { renderCard } from "./card.js";
import { openCorrection, renderCorrections } from "./correct.js";
import { parseDice } from "./dice.js";
import { setupDevices } from "./devices.js";
import { say } from "./dom.js";
import { firstOutcome, firstRollNews, lastFirstRoll, playActions } from "./firstroll.js";
import { boxLabel, diceCount, diceText, isolate, num, pageData, t, td } from "./i18n.js";
import { recallKeeps, rememberKeeps } from "./keeps.js";
import { showGameOver } from "./over.js";
import { hidePhoto, setupPhoto, showPhoto } from "./photo.js";
import { renderPrintPad } from "./print.js";
import { follow } from "./live.js";
import { setupLivecam } from "./livecam.js";
import { setupHint, showHint } from "./hint.js";
import { showReview } from "./review.js";
import { closePicker, openPicker, setupPicker } from "./picker.js";
import { renderTurn, unrecorded } from "./turn.js";

const $ = (id) => document.getElementById(id);
const ctx = {
  state: pageData.state, // the game as last heard from the server
  draft: [], // the dice as set on screen, not yet sent
  draftAt: null, // rollKey of the state the draft was set from
  kept: new Set(), // positions to keep for the next roll
  lastWasRoll: false, // the last action was a roll, so it can be corrected
  justEnded: false, // the last change ended the game
  correcting: false, // a die on the photo was tapped: the roll is being corrected
  photo: null, // the reading of the photo on screen, if any
  photoAt: null, // photoKey of the state the photo on screen belongs to
  busy: false, // an action is on its way to the server
};

/** The position of the current roll: changes when a roll, score or undo happens. */
function rollKey(state) {
  return JSON.stringify([state.series.game_number, state.phase, state.current_player, state.turn,
    state.roll, state.dice, state.first_roll_pending]);
}

/** Which action a photo belongs to: a correction of its roll keeps it, any other action
 * (an undo too) takes the game past it or back before it. */
function photoKey(state) {
  return `${state.series.game_number}:${playActions(state).length}`;
}

/** The dice of the roll on the table (a roll for first while it may be corrected), else unset. */
function tableDice(state) {
  if (state.phase === "play" && state.dice) return [...state.dice];
  const first = lastFirstRoll(state);
  return first ? [...first.dice] : Array(diceCount(state)).fill(null);
}

function setState(state, { force = false } = {}) {
  const previous = ctx.state;
  if (!force && previous && state.version < previous.version) return;
  // The same state again (the live stream's first message after the page's own): nothing to redraw.
  if (!force && previous && state.version === previous.version
      && JSON.stringify(state) === JSON.stringify(previous)) return;
  // The draft is reset where the roll moved since it was set: an action's own answer that
  // the live stream delivered first leaves the dice typed since then as they are.
  const moved = force || rollKey(state) !== ctx.draftAt || !ctx.draft.length;
  ctx.justEnded = Boolean(previous) && previous.phase !== "over" && state.phase === "over";
  ctx.state = state;
  // A box corrected since leaves the roll on the table as it was, still correctable.
  const actions = playActions(state);
  ctx.lastWasRoll = actions.length > 0 && actions[actions.length - 1].type === "roll";
  if (moved) {
    ctx.correcting = false;
    ctx.draft = tableDice(state);
    ctx.draftAt = rollKey(state);
    ctx.kept = new Set(recallKeeps(state.id, rollKey(state)) ?? state.kept ?? []);
    $("dice-text").value = ""; // typed dice are for one roll
    closePicker(false);
  }
  if (ctx.photoAt !== photoKey(state)) { hidePhoto(); ctx.photo = null; ctx.photoAt = null; }
  renderPrintPad($("print-pad"), state); // drawn again only when the state changes
  render();
}

/** Return a selector of the turn control focused now (a die, a Keep, a box), or null. */
function focusedControl() {
  const active = document.activeElement;
  if (!active || !$("turn").contains(active)) return null;
  if (active.matches("#dice .die")) return `#dice .die[data-index="${active.dataset.index}"]`;
  if (active.matches("#dice .keep")) {
    return `#dice .die-slot:nth-child(${[...$("dice").children].indexOf(active.parentElement) + 1}) .keep`;
  }
  if (active.matches(".suggestion")) return `.suggestion[data-box="${active.dataset.box}"]`;
  return null;
}

function render() {
  const { state } = ctx;
  // A redraw (this device's action or another's) keeps the focus on the same control.
  const focused = focusedControl();
  renderCard($("card"), state, { how: true, ghosts: true,
    onBox: (player, box) => openCorrection(ctx.state, player, box, act) });
  renderCorrections(state);
  renderTurn(ctx, { onOpen, onSet, onKeep, onScore });
  showHint(state);
  $("undo").disabled = !state.can_undo;
  $("game-number").textContent = t("game_number", { n: state.series.game_number });
  $("turn").hidden = state.phase === "over";
  showGameOver(state, onPlayAgain, ctx.justEnded);
  showReview(state);
  ctx.justEnded = false;
  if (ctx.photo) showPhoto(null, ctx.photo, ctx.draft, onPhotoTap);
  if (focused && !document.activeElement?.closest("#turn")) {
    document.querySelector(focused)?.focus({ preventScroll: true });
  }
}

function fail(error) {
  if (error instanceof ApiError && error.status === 409 && error.body.state) {
    setState(error.body.state, { force: true });
    say(t("stale"), "error");
    return;
  }
  if (error instanceof ApiError && error.body.reading) {
    ctx.photo = error.body.reading;
    render();
  }
  say(error instanceof ApiError ? explain(error) : String(error), "error");
}

/** Return the player's words for an API error: translated where its status says enough. */
function explain(error) {
  if (error.status === 503) return t("photo_unavailable");
  if (error.status === 413) return t("photo_too_big");
  if (error.body.reading) {
    return t("need_thrown", { found: num(error.body.found), thrown: num(error.body.thrown) });
  }
  return error.message;
}

/** Run one API action; while it runs, further actions are ignored. Return true when done. */
async function act(action, message) {
  if (ctx.busy) return false;
  ctx.busy = true;
  document.body.classList.add("busy");
  try {
    const result = await action();
    setState(result.state || result);
    if (message) say(message(result.state || result));
    return true;
  } catch (error) {
    fail(error);
    return false;
  } finally {
    ctx.busy = false;
    document.body.classList.remove("busy");
  }
}

/** Set die *index* to *value* and keep the focus on it. */
function onSet(index, value) {
  ctx.draft[index] = value;
  render();
  $("dice").querySelector(`[data-index="${index}"]`)?.focus();
}

function onOpen(index, button) {
  openPicker(button, index, ctx.draft[index], onSet);
}

function onKeep(index) {
  if (ctx.kept.has(index)) ctx.kept.delete(index); else ctx.kept.add(index);
  rememberKeeps(ctx.state.id, rollKey(ctx.state), ctx.kept);
  render();
  $("dice").querySelectorAll(".keep")[index]?.focus();
}

function onPhotoTap(index, box) {
  openPicker(box, index, ctx.draft[index], (i, value) => {
    ctx.correcting = true;
    ctx.draft[i] = value;
    render();
    $("photo-boxes").querySelector(`[data-position="${i}"]`)?.focus();
  });
}

/** Put the focus on the roll controls: the first die that can be set. */
function focusRollControls() {
  if (ctx.state.phase === "over") return; // the game-over panel takes the focus
  $("dice").querySelector(".die:not(:disabled)")?.focus();
}

function draftReady() {
  if (ctx.draft.every((v) => v >= 1 && v <= 6)) return true;
  say(td(ctx.state, "set_all_dice"), "error");
  return false;
}

/** Return the message after a roll recorded on *before*: the roll, or the roll for first
 * and what it decided. */
function rolledText(before, after) {
  if (before.phase === "first-roll") return firstRollNews(after);
  return t("rolled", { n: after.roll, dice: diceText(after.dice) });
}

/** Return the message after the last roll was corrected to *dice* (on *after*): for a roll
 * for first, with what it decides now. */
function correctedText(dice, after) {
  const fixed = t("corrected", { dice: diceText(dice) });
  return lastFirstRoll(after) ? [fixed, firstOutcome(after)].filter(Boolean).join(" ") : fixed;
}

function onRecord() {
  if (!draftReady()) return;
  const { state } = ctx;
  const kept = state.phase === "play" && state.roll > 0 ? [...ctx.kept].sort() : [];
  ctx.photo = null;
  hidePhoto();
  act(() => api.roll(state.id, ctx.draft, kept, state.version), (s) => rolledText(state, s));
}

function onCorrect() {
  if (!draftReady()) return;
  const { state } = ctx;
  const dice = [...ctx.draft];
  act(() => api.roll(state.id, dice, state.kept, state.version, true),
    (s) => correctedText(dice, s));
}

async function onScore(box) {
  const { state } = ctx;
  if (unrecorded(ctx)) { // a box scores the dice on screen, or nothing
    say(t("score_unrecorded"), "error");
    $("roll-tools").querySelector(".roll-buttons .primary:not([hidden])")?.focus();
    return;
  }
  const name = isolate(state.players[state.current_player]);
  const points = (state.suggestions.find((s) => s.box === box) || {}).points ?? 0;
  const done = await act(() => api.score(state.id, box, state.version, ctx.draft),
    () => t("scored", { name, points: num(points), box: boxLabel(state.game, box) }));
  if (done) focusRollControls();
}

function onPlayAgain() {
  act(() => api.next(ctx.state.id, ctx.state.version), null);
}

async function onPhoto(blob, filename) {
  const { state } = ctx;
  const correcting = state.phase === "play" && state.roll >= state.max_rolls;
  // The kept dice stay aside: the photo shows the thrown ones (or all of them).
  const kept = state.phase === "play" && state.roll > 0 && !correcting ? [...ctx.kept].sort() : [];
  say(t("reading_photo"));
  ctx.photo = null;
  ctx.photoAt = photoKey(state);
  showPhoto(blob, null, [], onPhotoTap);
  await act(async () => {
    const result = await api.photo(state.id, blob, kept, state.version, filename, correcting);
    ctx.photo = result.reading;
    ctx.photoAt = photoKey(result.state);
    return result;
  }, (s) => rolledText(state, s));
  if (ctx.photo) showPhoto(null, ctx.photo, ctx.draft, onPhotoTap);
  else if (!$("photo-boxes").children.length) $("photo-caption").textContent = "";
}

function setupForms() {
  $("dice-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const dice = parseDice($("dice-text").value, diceCount(ctx.state));
    if (!dice) { say(td(ctx.state, "invalid_dice"), "error"); return; }
    ctx.draft = dice;
    render();
  });
  $("record-roll").addEventListener("click", onRecord);
  $("correct-roll").addEventListener("click", onCorrect);
  $("undo").addEventListener("click", () =>
    act(() => api.undo(ctx.state.id, ctx.state.version), () => t("undone")));
  $("print").addEventListener("click", () => window.print());
}

setupForms();
if (diceCount(ctx.state) === 6) {
  $("dice-text").placeholder = "6 6 4 6 6 1";
  $("dice-form").classList.add("six");
}
setupHint(render);
setupPicker();
setupDevices(ctx.state.id);
setupPhoto(onPhoto, (message) => say(message, "error"));
setupLivecam({
  state: () => ctx.state,
  propose: (dice, kept) => {
    Object.assign(ctx, { draft: [...dice], kept: new Set(kept), correcting: false });
    render();
  },
  record: onRecord,
  restore: () => setState(ctx.state, { force: true }),
});
setState(ctx.state, { force: true });
follow(ctx.state.id, (state) => setState(state));
