// Small DOM helpers: build elements with text (never HTML), and the message area.

/**
 * Create element *tag* with *attrs* and *children* (strings become text nodes).
 * attrs: "class", "text", "dataset" (object), "on" (object of listeners), "style" (CSS text,
 * set through the CSSOM: the Content-Security-Policy refuses style attributes), others set as
 * attributes; a value of false/null/undefined leaves the attribute out.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name === "style") node.style.cssText = value;
    else if (name === "on") for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * Return the name of a table cell's column, to go first in the cell: seen only where the
 * table is stacked (class "stacks" on a phone, pad.css) and its header row is out of sight.
 */
export function cellLabel(label) {
  return el("span", { class: "cell-label", text: `${label} ` });
}

/** Replace everything inside *node* with *children*. */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

let clearTimer = null;

/**
 * The message bar sticks to the top of a scrolled page: move the page down so that what was
 * at the top of the screen (*top*, when the page's main part was at *before*) is not under it.
 */
function uncover(area, main, top, before) {
  const moved = main.getBoundingClientRect().top - before;
  const covered = area.getBoundingClientRect().bottom - (top + moved);
  if (covered > 0) window.scrollBy(0, -covered);
}

/** Fill the message area with *children*; pinned panels (CSS --message-height) keep below it. */
function showInBar(area, ...children) {
  fill(area, ...children);
  document.documentElement.style.setProperty("--message-height", `${area.offsetHeight}px`);
}

/** Show *text* in the page's live message area; kind "error" stays until the next message. */
export function say(text, kind = "info") {
  const area = document.getElementById("messages");
  if (!area) return;
  clearTimeout(clearTimer);
  const main = document.getElementById("main");
  const before = main ? main.getBoundingClientRect().top : 0;
  const top = Math.max(before, area.getBoundingClientRect().bottom);
  showInBar(area, el("p", { class: `message ${kind}`, text }));
  if (main) uncover(area, main, top, before);
  area.setAttribute("role", kind === "error" ? "alert" : "status");
  if (kind !== "error") clearTimer = setTimeout(() => showInBar(area), 8000);
}
