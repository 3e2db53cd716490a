-- What the game list and the statistics show of a series, as JSON written with
-- every change (web.summary), so a list reads no series and replays no game.
-- '' marks rows written before this column; web.store fills them at start-up.
ALTER TABLE games ADD COLUMN summary TEXT NOT NULL DEFAULT '';

CREATE INDEX games_by_update ON games (updated_at DESC, id DESC);
