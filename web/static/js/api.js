// The JSON API client: every call returns parsed JSON or throws ApiError with the server's message.

import { t } from "./i18n.js";

export class ApiError extends Error {
  /** *status* 0 means the server could not be reached; *body* is the parsed error JSON. */
  constructor(status, message, body = {}) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

function csrfToken() {
  return document.querySelector('meta[name="csrf-token"]')?.content || "";
}

async function call(method, url, body) {
  const headers = { "X-CSRF-Token": csrfToken(), Accept: "application/json" };
  let payload = body;
  if (body !== undefined && !(body instanceof FormData)) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, { method, headers, body: payload, credentials: "same-origin" });
  } catch {
    throw new ApiError(0, t("network"));
  }
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, json.error || response.statusText, json);
  return json;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  createGame: (rules, players, rollForFirst) =>
    call("POST", "/api/games", { rules, players, roll_for_first: rollForFirst }),
  /** One page of the game list: *query* has limit and finished; *next* is a page's next URL. */
  listGames: (query = {}, next = null) =>
    call("GET", next || `/api/games?${new URLSearchParams(query)}`),
  stats: () => call("GET", "/api/stats"),
  state: (id) => call("GET", game(id)),
  deleteGame: (id) => call("DELETE", game(id)),
  devices: (id) => call("GET", `${game(id)}/devices`),
  removeDevice: (id, device) =>
    call("DELETE", `${game(id)}/devices/${encodeURIComponent(device)}`),
  roll: (id, dice, kept, version, replace = false) =>
    call("POST", `${game(id)}/rolls`, { dice, kept, version, ...(replace ? { replace: true } : {}) }),
  photo: (id, blob, kept, version, filename = "photo.jpg", replace = false) => {
    const form = new FormData();
    form.append("photo", blob, filename);
    form.append("version", String(version));
    form.append("kept", kept.join(","));
    if (replace) form.append("replace", "true");
    return call("POST", `${game(id)}/rolls`, form);
  },
  frame: (id, blob, expect) => {
    const form = new FormData();
    form.append("frame", blob, "frame.jpg");
    if (expect !== undefined) form.append("expect", String(expect));
    return call("POST", `${game(id)}/frames`, form);
  },
  score: (id, box, version, dice) => call("POST", `${game(id)}/scores`, { box, version, dice }),
  undo: (id, version) => call("POST", `${game(id)}/undo`, { version }),
  correct: (id, correction, version) =>
    call("POST", `${game(id)}/corrections`, { ...correction, version }),
  previewCorrection: (id, correction) =>
    call("POST", `${game(id)}/corrections/preview`, correction),
  next: (id, version) => call("POST", `${game(id)}/next`, { version }),
  pad: (id) => call("GET", `${game(id)}/pad`),
  /** A photographed pad read and checked: *form* holds photo, rules, layout, finished. */
  padPhoto: (form) => call("POST", "/api/pad-photo", form),
  hint: (id) => call("GET", `${game(id)}/hint`),
  review: (id) => call("GET", `${game(id)}/review`),
  audit: (rules, boxes, totals, finished = true) =>
    call("POST", "/api/audit", { rules, boxes, totals, finished }),
  eventsUrl: (id) => `${game(id)}/events`,
};
