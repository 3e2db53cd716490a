// Check a pad from a photo: the photo goes to the server, which reads every column and lets
// the rules decide between readings; the page shows the photo with each cell outlined and a
// column at a time in the typed grid, where a tap fixes a cell and the audit runs again.

import { api, ApiError } from "./api.js";
import { el, fill, say } from "./dom.js";
import { num, t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let reading = null; // the server's answer for the photo shown
let shown = 0; // the column in the typed grid

function polygon(cell, column) {
  const shape = document.createElementNS(SVG, "polygon");
  shape.setAttribute("points", cell.quad.map(([x, y]) => `${x},${y}`).join(" "));
  shape.dataset.column = column;
  shape.dataset.key = cell.key;
  shape.classList.toggle("doubtful", cell.doubtful);
  shape.addEventListener("click", () => focusCell(column, cell.key));
  return shape;
}

/** The grid input a cell's value goes to: the checks row holds a count of checks. */
function gridKey(key) {
  return key === "yahtzee_bonus_checks" ? "yahtzee_bonus" : key;
}

function inputOf(key) {
  return document.querySelector(`#pad-grid input[data-key="${gridKey(key)}"]`);
}

function focusCell(column, key) {
  if (column !== shown) showColumn(column);
  const input = inputOf(key);
  if (input) { input.focus(); input.select?.(); }
}

function drawMarks() {
  const svg = $("pad-photo-marks");
  svg.setAttribute("viewBox", `0 0 ${reading.width} ${reading.height}`);
  fill(svg);
  reading.columns.forEach((column, i) => column.cells.forEach((cell) => svg.append(polygon(cell, i))));
  markColumn();
}

function markColumn() {
  document.querySelectorAll("#pad-photo-marks polygon").forEach((shape) => {
    shape.classList.toggle("other-column", Number(shape.dataset.column) !== shown);
  });
}

function showProblems(problems) {
  const rows = new Set(problems.map((p) => p.row));
  if (rows.has("yahtzee_bonus_checks")) rows.add("yahtzee_bonus");
  document.querySelectorAll(`#pad-photo-marks polygon[data-column="${shown}"]`).forEach((shape) => {
    shape.classList.toggle("problem", rows.has(shape.dataset.key) || rows.has(gridKey(shape.dataset.key)));
  });
}

function markDoubtful(column) {
  document.querySelectorAll("#pad-grid input.doubtful").forEach((i) => i.classList.remove("doubtful"));
  document.querySelectorAll("#pad-grid .doubtful-note").forEach((n) => n.remove());
  for (const cell of column.cells.filter((c) => c.doubtful)) {
    const input = inputOf(cell.key);
    if (!input) continue;
    input.classList.add("doubtful");
    const read = cell.value === null ? "–" : num(cell.value);
    input.closest("tr").querySelector(".label").append(el("span", { class: "doubtful-note",
      text: t("pad_photo_unsure", { value: read, percent: num(Math.round(cell.confidence * 100)) }) }));
  }
}

function showColumn(index) {
  shown = index;
  $("pad-column").value = String(index);
  const column = reading.columns[index];
  $("pad-rules").value = reading.rules;
  $("pad-rules").dispatchEvent(new Event("change"));
  document.querySelectorAll("#pad-grid input").forEach((input) => { input.value = ""; });
  for (const [key, value] of Object.entries(column.values)) {
    document.querySelectorAll(`#pad-grid input[data-key="${key}"]`).forEach((input) => {
      input.value = value === null || value === undefined ? "" : String(value);
    });
  }
  markColumn();
  markDoubtful(column);
  if (!column.blank) $("pad-form").requestSubmit();
}

function summary() {
  const played = reading.columns.filter((c) => !c.blank);
  const problems = played.reduce((n, c) => n + c.problems.length, 0);
  const unsure = played.reduce((n, c) => n + c.doubtful.length, 0);
  const parts = [t("pad_photo_found", { pad: reading.title, n: num(played.length) })];
  parts.push(problems ? tn("audit_problems", problems, { n: num(problems) }) : t("pad_photo_ok"));
  if (unsure) parts.push(tn("pad_photo_unsure_cells", unsure, { n: num(unsure) }));
  return parts.join(" ");
}

async function send(file) {
  if (!file) return;
  const form = new FormData();
  form.append("photo", file, file.name || "pad.jpg");
  form.append("rules", $("pad-rules").value);
  form.append("layout", $("pad-layout").value);
  form.append("finished", $("pad-in-progress").checked ? "false" : "true");
  say(t("pad_photo_reading"));
  // The photo shown belongs to the last reading: a new photo takes its place or, if it
  // cannot be read, leaves only the error, never the old photo beside it.
  reading = null;
  $("pad-photo-view").hidden = true;
  try {
    reading = await api.padPhoto(form);
  } catch (error) {
    say(error instanceof ApiError ? error.message : String(error), "error");
    return;
  }
  $("pad-photo-image").src = URL.createObjectURL(file);
  $("pad-photo-view").hidden = false;
  fill($("pad-column"), reading.columns.map((column, i) => el("option", { value: String(i),
    text: column.blank ? `${column.name} (${t("pad_photo_blank")})` : column.name })));
  drawMarks();
  fill($("pad-photo-summary"), el("strong", { text: summary() }));
  const first = reading.columns.findIndex((c) => !c.blank);
  showColumn(first < 0 ? 0 : first);
}

for (const id of ["pad-camera", "pad-file"]) {
  $(id).addEventListener("change", (event) => { send(event.target.files[0]); event.target.value = ""; });
}
$("pad-column").addEventListener("change", () => showColumn(Number($("pad-column").value)));
// A fixed cell checks the column again; the photo's outlines follow the new problems.
$("pad-grid").addEventListener("change", () => { if (reading) $("pad-form").requestSubmit(); });
document.addEventListener("pad-checked", (event) => { if (reading) showProblems(event.detail.problems); });
