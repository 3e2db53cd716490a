// Keep marks live on the page until the next roll sends them: remembered in the browser's
// storage, so that a reload mid-turn brings them back (for the same roll only).

const PREFIX = "pipkeeper.keep.";

/** Remember *kept* (positions) as the marks set on game *game* at roll position *at*. */
export function rememberKeeps(game, at, kept) {
  try {
    localStorage.setItem(PREFIX + game, JSON.stringify({ at, kept: [...kept].sort() }));
  } catch { /* storage blocked: the marks last as long as the page */ }
}

/**
 * Return the positions marked Keep on game *game* at roll position *at*, or null when none
 * were remembered for that position (marks of another position are forgotten).
 */
export function recallKeeps(game, at) {
  try {
    const saved = JSON.parse(localStorage.getItem(PREFIX + game) || "null");
    if (saved && saved.at === at && Array.isArray(saved.kept)) return saved.kept;
    localStorage.removeItem(PREFIX + game);
  } catch { /* storage blocked or spoilt: nothing to bring back */ }
  return null;
}
