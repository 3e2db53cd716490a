// Hands-free: the webcam is read about four times a second, the dice are boxed live over the
// picture, and once they have settled the roll is proposed and then recorded (settle.js judges;
// this module runs the camera, the requests and the drawing). Undo takes a roll back.

import { api, ApiError } from "./api.js";
import { el, fill, say } from "./dom.js";
import { diceText, t, td } from "./i18n.js";
import { captureFrame, startWebcam, stopWebcam } from "./photo.js";
import { diceOf, fresh, handled, step } from "./settle.js";

const FRAME_MS = 250; // about four frames a second, never two requests at once
const FRAME_WIDTH = 640;
const FRAME_QUALITY = 0.8;
const $ = (id) => document.getElementById(id);

let hooks = null;
let runs = 0;
let running = 0; // the number of the run going on (each start makes a new one), 0 when off
let timer = null;
let memory = fresh();
let proposal = null; // the roll proposed now, if any: {dice, kept}

const pct = (value, whole) => `${((100 * value) / whole).toFixed(3)}%`;
const spoken = diceText;

function drawBoxes(reading) {
  fill($("live-boxes"), reading.dice.map((die) => {
    const [x1, y1, x2, y2] = die.box;
    return el("span", {
      class: `live-die${die.doubtful ? " doubtful" : ""}`,
      style: `left:${pct(x1, reading.width)};top:${pct(y1, reading.height)};`
        + `width:${pct(x2 - x1, reading.width)};height:${pct(y2 - y1, reading.height)}`,
    }, el("span", { class: "live-value", text: String(die.value) }));
  }));
}

function caption(text) {
  const node = $("live-caption");
  node.hidden = !text;
  if (node.textContent !== text) node.textContent = text;
}

/** Return the caption of a view of settle.step. */
function describe(view) {
  switch (view.kind) {
    case "count": {
      const state = hooks.state();
      const key = view.seen > diceOf(state) ? "live_too_many" : "live_count";
      const count = td(state, key, { n: view.seen });
      return view.unclear ? `${count} ${t("live_unclear", { n: view.unclear })}` : count;
    }
    case "moving": return t("live_moving");
    case "waiting": return t("live_waiting");
    case "score": return t("must_score");
    default: return "";
  }
}

function withdraw() {
  proposal = null;
  $("live-proposal").hidden = true;
}

function propose(view) {
  const same = proposal && proposal.dice.join() === view.dice.join()
    && proposal.kept.join() === view.kept.join();
  if (!same) {
    proposal = { dice: view.dice, kept: view.kept };
    hooks.propose(view.dice, view.kept);
    const kept = view.kept.map((at) => view.dice[at]);
    $("live-proposal-text").textContent = kept.length
      ? t("live_propose_kept", { dice: spoken(view.dice), kept: spoken(kept) })
      : t("live_propose", { dice: spoken(view.dice) });
    $("live-proposal").hidden = false;
  }
  if (view.ready) record();
}

/** Record the proposed roll now (the dice shown in the dice row). */
function record() {
  if (!proposal) return;
  memory = handled(memory);
  withdraw();
  hooks.record();
}

/** Keep the proposal from being recorded: the player corrects the dice on screen. */
function holdBack() {
  if (!proposal) return;
  memory = handled(memory);
  withdraw();
}

function see(reading) {
  const result = step(memory, reading, performance.now(), hooks.state());
  memory = result.memory;
  drawBoxes(reading);
  const { view } = result;
  if (view.kind === "over") { stop(); return; }
  if (view.kind === "propose") { caption(""); propose(view); return; }
  if (proposal) { withdraw(); hooks.restore(); } // the dice moved: the roll on screen again
  caption(describe(view));
}

/** Read one frame of run *run*, then schedule the next (one request at a time). */
async function tick(run) {
  const began = performance.now();
  try {
    const blob = await captureFrame(FRAME_WIDTH, FRAME_QUALITY);
    if (blob && running === run) {
      // Every die is in view hands-free: the five (six) likeliest finds are the dice.
      const reading = await api.frame(hooks.state().id, blob, diceOf(hooks.state()));
      if (running === run) see(reading);
    }
  } catch (error) {
    if (running !== run) return;
    if (!(error instanceof ApiError)) { stop(); throw error; }
    if (error.status !== 0) { // a lost connection is tried again; any other refusal stops
      stop(error.status === 503 ? t("photo_unavailable") : error.message);
      return;
    }
    caption(error.message);
  }
  if (running === run) {
    timer = setTimeout(() => tick(run), Math.max(0, FRAME_MS - (performance.now() - began)));
  }
}

async function start() {
  const opened = await startWebcam();
  if (!$("handsfree").checked) { // switched off while the camera opened
    if (!running) stopWebcam();
    return;
  }
  if (!opened) {
    $("handsfree").checked = false;
    say(t("webcam_error"), "error");
    return;
  }
  running = ++runs;
  memory = fresh();
  caption(t("live_looking"));
  tick(running);
}

/** Stop reading frames and release the camera; *message* says why, if given. */
function stop(message) {
  const was = running;
  running = 0;
  clearTimeout(timer);
  $("handsfree").checked = false;
  if (proposal) { withdraw(); hooks.restore(); }
  fill($("live-boxes"));
  caption("");
  stopWebcam();
  if (was && message) say(message);
}

/**
 * Wire the Hands-free switch (shown where the webcam can work). *h*: state() -> the game;
 * propose(dice, kept) shows a roll in the dice row; record() records the dice row;
 * restore() shows the recorded roll again when a proposal is withdrawn.
 */
export function setupLivecam(h) {
  hooks = h;
  const canWebcam = window.isSecureContext && navigator.mediaDevices?.getUserMedia;
  $("handsfree-switch").hidden = !canWebcam;
  if (!canWebcam) return;
  $("handsfree").addEventListener("change", (event) => {
    if (event.target.checked) start(); else stop();
  });
  $("webcam-stop").addEventListener("click", () => stop());
  $("live-record").addEventListener("click", record);
  $("live-hold").addEventListener("click", holdBack);
  // Changing the dice on screen while a roll is proposed means they are being corrected.
  for (const type of ["click", "input"]) {
    document.querySelector(".dice-entry")?.addEventListener(type, (event) => {
      if (!event.target.closest("#record-roll")) holdBack();
    });
  }
  document.addEventListener("visibilitychange", () => {
    if (document.hidden && running) stop(t("live_paused"));
  });
}
