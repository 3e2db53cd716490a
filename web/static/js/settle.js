// The live camera's judgement, as pure functions of readings, the time and the game's state:
// when the dice on the table have settled, which roll they make, and which dice did not move
// since the last roll (kept). No DOM and no timers: livecam.js feeds it frames and acts on it.

/** How many dice a roll has, unless the game says (six in Maxi Yatzy: state.dice_count). */
export const DICE = 5;
/** The dice must hold still (same places, same values) this long to count as settled. */
export const SETTLE_MS = 1000;
/** A proposed roll is recorded when the dice stay settled this much longer. */
export const CONFIRM_MS = 1500;
/** A die has moved when its centre moved more than this share of its size. */
export const MOVE_SHARE = 0.5;

const centre = ([x1, y1, x2, y2]) => [(x1 + x2) / 2, (y1 + y2) / 2];
const size = ([x1, y1, x2, y2]) => (x2 - x1 + y2 - y1) / 2;

/**
 * Return, for each die of *a*, the index of the die of *b* lying at the same place (centres
 * closer than *share* of the smaller die's size), or -1; each die of *b* is paired once,
 * nearest pairs first. Dice are {value, box: [x1, y1, x2, y2]}.
 */
export function pairUp(a, b, share = MOVE_SHARE) {
  const near = [];
  a.forEach((da, i) => b.forEach((db, j) => {
    const [ax, ay] = centre(da.box);
    const [bx, by] = centre(db.box);
    const distance = Math.hypot(ax - bx, ay - by);
    if (distance <= share * Math.min(size(da.box), size(db.box))) near.push([distance, i, j]);
  }));
  near.sort((p, q) => p[0] - q[0]);
  const match = a.map(() => -1);
  const taken = new Set();
  for (const [, i, j] of near) {
    if (match[i] < 0 && !taken.has(j)) { match[i] = j; taken.add(j); }
  }
  return match;
}

/** True when scenes *a* and *b* hold as many dice, each at the same place with the same value. */
export function sameScene(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  return pairUp(a, b).every((j, i) => j >= 0 && b[j].value === a[i].value);
}

/** True when the values of *scene* are the values *dice* (in any order). */
export function sameValues(scene, dice) {
  if (!scene || !dice || scene.length !== dice.length) return false;
  const sorted = (values) => [...values].sort().join();
  return sorted(scene.map((d) => d.value)) === sorted(dice);
}

/** Return the dice of *reading* that count (not doubtful), in reading order. */
export function counted(reading) {
  return (reading?.dice || []).filter((d) => !d.doubtful);
}

/**
 * Follow the scene: return *track* ({dice, since}: the dice as first seen lying like this and
 * when) while *dice* still lie the same, else a new track starting *now*.
 */
export function follow(track, dice, now) {
  return track && sameScene(track.dice, dice) ? track : { dice, since: now };
}

/**
 * Return the roll of *count* dice that the settled *scene* makes after *previous* (the last
 * roll's values by position, null on a turn's first roll): {dice: values by position, kept:
 * positions}. A die of the scene lying where a die of *reference* (the scene of the last roll)
 * lay, with its value, is kept at a position of that value; the thrown dice fill the other
 * positions left to right. Null when the scene makes no roll (not *count* dice, or nothing
 * thrown).
 */
export function rollOf(scene, previous, reference = null, count = DICE) {
  if (scene.length !== count) return null;
  if (!previous || !reference) return { dice: scene.map((d) => d.value), kept: [] };
  const match = pairUp(scene, reference);
  const dice = Array(count).fill(null);
  const placed = new Set();
  scene.forEach((die, i) => {
    if (match[i] < 0 || reference[match[i]].value !== die.value) return;
    const at = previous.findIndex((value, p) => value === die.value && dice[p] === null);
    if (at >= 0) { dice[at] = die.value; placed.add(i); }
  });
  if (placed.size === count) return null;
  const kept = dice.flatMap((value, at) => (value === null ? [] : [at]));
  const thrown = scene.filter((_, i) => !placed.has(i));
  dice.forEach((value, at) => { if (value === null) dice[at] = thrown.shift().value; });
  return { dice, kept };
}

/** Return the values of the last roll recorded in *state* (any player), or null. */
export function lastRolled(state) {
  const rolls = (state.history || []).filter((r) => Array.isArray(r.dice) && r.type !== "correction");
  return rolls.length ? rolls[rolls.length - 1].dice : null;
}

/** How many scenes of earlier rolls are remembered, to find the reference again after an undo. */
const PAST = 6;

/** A fresh memory: no scene yet; the first settled scene is compared with the last roll. */
export function fresh() {
  return { track: null, handled: null, reference: null, past: [], version: null, sync: true };
}

/** Return *memory* with its current scene taken as handled (recorded or turned down). */
export function handled(memory) {
  return { ...memory, handled: memory.track ? memory.track.dice : null };
}

/** How many dice a roll of *state*'s game has. */
export function diceOf(state) {
  return state.dice_count || DICE;
}

function previousOf(state) {
  return state.phase === "play" && state.roll > 0 ? state.dice : null;
}

/** Return the scene, of *scenes*, that shows the values *previous*, or null. */
function sceneOf(scenes, previous) {
  return (previous && scenes.find((scene) => sameValues(scene, previous))) || null;
}

/**
 * Return *memory* brought up to *state*. A change of the game (a roll recorded here or on
 * another device, a box scored, an undo) makes the scene now on the table handled, and the
 * reference the scene that shows the last roll (this one, or one remembered).
 */
function heed(memory, state) {
  if (memory.version === state.version) return memory;
  if (memory.version === null) return { ...memory, version: state.version, sync: true };
  const scene = memory.track ? memory.track.dice : null;
  const known = [scene, memory.reference, ...memory.past].filter(Boolean);
  const past = memory.reference ? [memory.reference, ...memory.past].slice(0, PAST) : memory.past;
  return { ...memory, version: state.version, sync: !scene, handled: scene, past,
    reference: sceneOf(known, previousOf(state)) };
}

/** On the first settled scene: one showing the last roll's dice was already recorded. */
function synced(memory, state) {
  if (!memory.sync) return memory;
  const scene = memory.track.dice;
  const known = sameValues(scene, lastRolled(state));
  return { ...memory, sync: false, handled: known ? scene : memory.handled,
    reference: known && previousOf(state) ? scene : memory.reference };
}

function judge(memory, state, now) {
  if (sameScene(memory.track.dice, memory.handled)) return { kind: "waiting" };
  const roll = rollOf(memory.track.dice, previousOf(state), memory.reference, diceOf(state));
  if (!roll) return { kind: "waiting" };
  const due = memory.track.since + SETTLE_MS + CONFIRM_MS;
  return { kind: "propose", ...roll, due, ready: now >= due };
}

/**
 * One frame: *reading* (as the frames route returns it) seen at *now* (ms) while the game is
 * *state*. Returns {memory, view}; view.kind is "over" (the game is over), "score" (the last
 * roll is in: a box must be chosen), "count" (seen, unclear: not the dice a roll needs
 * in view), "moving" (not settled yet), "waiting" (nothing new since the last roll) or
 * "propose" (dice, kept, due: when it is recorded unless the dice move, ready: due is past).
 */
export function step(memory, reading, now, state) {
  const dice = counted(reading);
  let next = heed({ ...memory, track: follow(memory.track, dice, now) }, state);
  const unclear = (reading?.dice || []).length - dice.length;
  if (state.phase === "over") return { memory: next, view: { kind: "over" } };
  if (state.phase === "play" && state.roll >= state.max_rolls) {
    return { memory: next, view: { kind: "score" } };
  }
  if (dice.length !== diceOf(state)) {
    return { memory: next, view: { kind: "count", seen: dice.length, unclear } };
  }
  if (now - next.track.since < SETTLE_MS) return { memory: next, view: { kind: "moving" } };
  next = synced(next, state);
  return { memory: next, view: judge(next, state, now) };
}
