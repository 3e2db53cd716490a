// Check a pad: one column of a paper score pad typed in, audited by the server, every
// problem shown on its row with the reason in the page's language.

import { api, ApiError } from "./api.js";
import { el, fill, say } from "./dom.js";
import { layoutFor, num, pageData, t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function gameOf(rules) {
  return rules.split("+")[0];
}

// The checks row takes the count of checks (at most 12) or, as many pads are filled in,
// their points: 300 is read as 3 checks of 100.
const MOST_CHECK_POINTS = 1200;

function rowInput(row) {
  const checks = row.marks === "checks";
  const input = el("input", { type: "number", inputmode: "numeric", min: 0,
    max: checks ? MOST_CHECK_POINTS : 999,
    id: `pad-${row.key}-${row.section}`, dataset: { key: row.key }, class: "pad-input" });
  input.addEventListener("input", () => {
    for (const twin of document.querySelectorAll(`input[data-key="${row.key}"]`)) {
      if (twin !== input) twin.value = input.value;
    }
  });
  return input;
}

function gridRow(row) {
  const input = rowInput(row);
  const label = row.marks === "checks" ? `${row.label} (✓)` : row.label;
  return el("tr", { class: `${row.kind} ${row.section}`, dataset: { row: row.key } },
    el("th", { scope: "row", class: "label" }, el("label", { for: input.id, text: label })),
    el("td", { class: "how", text: row.how }),
    el("td", { class: "value" }, input),
    el("td", { class: "problem-note", id: `${input.id}-note` }));
}

function drawGrid() {
  const kept = {};
  document.querySelectorAll("#pad-grid input").forEach((i) => { kept[i.dataset.key] = i.value; });
  const rows = layoutFor(gameOf($("pad-rules").value));
  const head = el("thead", {}, el("tr", {},
    el("th", { scope: "col", text: t("col_box") }),
    el("th", { scope: "col", class: "how", text: t("col_how") }),
    el("th", { scope: "col", text: t("col_score") }), el("th", { scope: "col", text: t("col_check") })));
  fill($("pad-grid"), head, el("tbody", {}, rows.map(gridRow)));
  document.querySelectorAll("#pad-grid input").forEach((i) => { i.value = kept[i.dataset.key] ?? ""; });
  fill($("pad-result"));
}

function readPad() {
  const rules = $("pad-rules").value;
  const boxes = {};
  const totals = {};
  for (const row of layoutFor(gameOf(rules))) {
    const raw = document.querySelector(`#pad-grid input[data-key="${row.key}"]`).value.trim();
    const value = raw === "" ? null : Number(raw);
    if (row.kind === "box") boxes[row.key] = value;
    else if (value !== null) totals[row.marks === "checks" ? row.count_key : row.key] = value;
  }
  return { rules, boxes, totals };
}

/**
 * How a total adds up, in the page's words: "Total score 63 + Bonus 35"; boxes as numbers,
 * a sum of numbers only kept left to right ("3 + 6 + 9") inside right-to-left text.
 */
function sumText(parts) {
  const rows = layoutFor(gameOf($("pad-rules").value));
  const named = (parts || []).map(([key, value]) => {
    const row = rows.find((r) => r.kind === "total" && r.key === key);
    return { label: row ? row.label : "", value: num(value) };
  });
  const text = named.map((p) => (p.label ? `${p.label} ${p.value}` : p.value)).join(" + ");
  return named.some((p) => p.label) ? text : `\u2066${text}\u2069`;
}

function problemText(problem) {
  const params = { written: problem.written ?? "–", expected: problem.expected ?? "–",
    sum: sumText(problem.parts) };
  const key = `audit_${problem.code}`;
  return key in pageData.strings ? t(key, params) : t("audit_other", params);
}

function clearProblems() {
  document.querySelectorAll("#pad-grid tr.problem").forEach((tr) => tr.classList.remove("problem"));
  document.querySelectorAll("#pad-grid .problem-note").forEach((td) => fill(td));
  document.querySelectorAll("#pad-grid input").forEach((i) => {
    i.removeAttribute("aria-invalid");
    i.removeAttribute("aria-describedby");
  });
}

/** The printed row a problem belongs to: a count of checks is shown on its checks row. */
function rowOf(problemRow) {
  const rows = layoutFor(gameOf($("pad-rules").value));
  const checks = rows.find((row) => row.marks === "checks" && row.count_key === problemRow);
  return checks ? checks.key : problemRow;
}

function markProblem(problem, unplaced) {
  const key = rowOf(problem.row);
  const rows = document.querySelectorAll(`#pad-grid tr[data-row="${key}"]`);
  if (!rows.length) { unplaced.push(problem); return; }
  for (const tr of rows) {
    tr.classList.add("problem");
    const note = tr.querySelector(".problem-note");
    note.append(el("span", { class: "problem-text", text: problemText(problem) }));
    const input = tr.querySelector("input");
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", note.id);
  }
}

async function check(event) {
  event.preventDefault();
  clearProblems();
  fill($("pad-result"));  // the last verdict is not shown beside values it did not check
  const { rules, boxes, totals } = readPad();
  try {
    const result = await api.audit(rules, boxes, totals, !$("pad-in-progress").checked);
    document.dispatchEvent(new CustomEvent("pad-checked", { detail: result }));
    const unplaced = [];
    result.problems.forEach((p) => markProblem(p, unplaced));
    const summary = result.ok ? t("audit_ok") : tn("audit_problems", result.problems.length, { n: num(result.problems.length) });
    fill($("pad-result"), el("strong", { class: result.ok ? "ok" : "bad", text: summary }),
      ...unplaced.map((p) => el("span", { class: "problem-text", text: ` ${p.row}: ${problemText(p)}` })));
    document.querySelector("#pad-grid tr.problem input")?.focus();
  } catch (error) {
    say(error instanceof ApiError ? error.message : String(error), "error");
  }
}

$("pad-rules").addEventListener("change", drawGrid);
$("pad-form").addEventListener("submit", check);
$("pad-form").addEventListener("reset", () => setTimeout(() => { clearProblems(); fill($("pad-result")); }));
drawGrid();
