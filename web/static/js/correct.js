// Correcting a box filled turns ago: tap a filled box on the card, set the dice that turn
// really ended with (and the box, if it went in the wrong one), see the new points, confirm.
// The later turns stay; the corrections are listed under the card.

import { api, ApiError } from "./api.js";
import { el, fill } from "./dom.js";
import { boxLabel, diceCount, diceText, isolate, layoutFor, num, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

let asked = 0; // the latest preview asked for: older answers are dropped

function dieSelect(n, value, onChange) {
  const select = el("select", { class: "fix-die", "aria-label": t("fix_die", { n }),
    dir: "ltr", on: { change: onChange } },
  [1, 2, 3, 4, 5, 6].map((v) => el("option", { value: v, text: num(v) })));
  select.value = String(value);
  return select;
}

/** The boxes a turn of *card* may be moved to: its own box, then the open ones. */
function boxChoices(game, card, box) {
  return layoutFor(game).filter((row) => row.kind === "box"
    && (row.key === box || card.boxes[row.key] === null));
}

/** The box's points and the player's total, before → after: one line each. */
function previewText(game, fix) {
  const from = boxLabel(game, fix.box);
  const to = boxLabel(game, fix.to_box);
  const line = fix.box === fix.to_box
    ? t("fix_preview", { box: from, before: num(fix.before.points), after: num(fix.after.points) })
    : t("fix_preview_moved", { box: from, before: num(fix.before.points), to,
      after: num(fix.after.points) });
  return [el("span", { text: line }),
    el("span", { text: t("fix_total", { before: num(fix.before.total), after: num(fix.after.total) }) })];
}

function dialogFor(state, player, box, run) {
  const card = state.cards[player];
  const name = isolate(state.players[player]);
  const dice = card.dice[box] || Array(diceCount(state)).fill(1);
  const preview = el("p", { class: "fix-preview", role: "status" });
  const confirm = el("button", { type: "submit", class: "primary", value: "confirm",
    text: t("fix_confirm"), disabled: true });
  const read = () => ({ player, box, dice: selects.map((s) => Number(s.value)),
    to_box: boxSelect.value === box ? null : boxSelect.value });
  const unchanged = () => {
    const now = read();
    return now.to_box === null && now.dice.every((v, i) => v === dice[i]);
  };
  const update = async () => {
    const mine = ++asked;
    confirm.disabled = true;
    preview.className = "fix-preview";
    // Nothing changed yet is no error: the player is told what to do instead.
    if (unchanged()) {
      preview.textContent = t("fix_unchanged");
      return;
    }
    preview.textContent = t("fix_checking");
    try {
      const { correction } = await api.previewCorrection(state.id, read());
      if (mine !== asked) return;
      fill(preview, previewText(state.game, correction));
      confirm.disabled = false;
    } catch (error) {
      if (mine !== asked) return;
      preview.className = "fix-preview error";
      preview.textContent = error instanceof ApiError ? error.message : String(error);
    }
  };
  const selects = dice.map((v, i) => dieSelect(i + 1, v, update));
  const boxSelect = el("select", { class: "fix-box", id: "fix-box", on: { change: update } },
    boxChoices(state.game, card, box).map((row) => el("option", { value: row.key, text: row.label })));
  boxSelect.value = box;
  const dialog = el("dialog", { id: "fix-dialog", class: "fix-dialog", "aria-labelledby": "fix-title" },
    el("form", { method: "dialog" },
      el("h2", { id: "fix-title", text: t("fix_title", { name, box: boxLabel(state.game, box) }) }),
      el("p", { class: "fix-was", text: t("fix_was", { points: num(card.boxes[box]),
        dice: diceText(dice) }) }),
      el("fieldset", { class: "fix-dice" }, el("legend", { text: t("fix_dice") }),
        el("div", { class: "fix-dice-row" }, selects)),
      el("p", {}, el("label", { for: "fix-box", text: t("col_box") }), " ", boxSelect),
      preview,
      el("p", { class: "fix-buttons" },
        el("button", { type: "submit", value: "cancel", text: t("fix_cancel") }), confirm)));
  dialog.addEventListener("close", () => {
    asked += 1;
    dialog.remove();
    if (dialog.returnValue !== "confirm") return;
    const body = read();
    run(() => api.correct(state.id, body, state.version), (s) => t("fix_done", {
      name, box: boxLabel(state.game, body.to_box || box),
      total: num(s.cards[player].totals.grand_total) }));
  });
  return { dialog, update };
}

/**
 * Open the correction of *player*'s filled *box* of *state*'s game; *run(action, message)*
 * sends the confirmed correction (the game page's one way of running an action).
 */
export function openCorrection(state, player, box, run) {
  $("fix-dialog")?.close();
  const opener = document.activeElement;
  const { dialog, update } = dialogFor(state, player, box, run);
  dialog.addEventListener("close", () => {
    if (opener && opener.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  update();
}

function correctionItem(state, fix) {
  const name = isolate(state.players[fix.player]);
  const moved = fix.box !== fix.to_box;
  return el("li", { dataset: { player: fix.player, box: fix.to_box } }, t("correction_entry", {
    round: num(fix.round), name, box: boxLabel(state.game, fix.box),
    before: `${diceText(fix.before.dice)} (${num(fix.before.points)})`,
    after: `${moved ? `${boxLabel(state.game, fix.to_box)} ` : ""}${diceText(fix.after.dice)}`
      + ` (${num(fix.after.points)})` }));
}

/** Under the card: how to correct a box, and the corrections of *state*'s game so far. */
export function renderCorrections(state) {
  let section = $("corrections");
  if (!section) {
    section = el("section", { id: "corrections", class: "corrections" });
    $("card").closest(".table-scroll").after(section);
  }
  const fixes = (state.history || []).filter((entry) => entry.type === "correction");
  const filled = state.cards.some((card) => Object.values(card.boxes).some((v) => v !== null));
  fill(section, filled ? el("p", { class: "hint fix-hint", text: t("fix_hint") }) : null,
    fixes.length ? [el("h3", { id: "corrections-title", text: t("corrections_title") }),
      el("ol", { "aria-labelledby": "corrections-title" },
        fixes.map((fix) => correctionItem(state, fix)))] : null);
}
