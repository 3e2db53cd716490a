-- What the game list and the statistics show of a series, as JSON written with
-- every change (web.summary), so lists read no series and replay no game:
-- summary is the list entry, results the finished games' totals, winners and
-- Yahtzees. '' marks rows written before these columns; web.store fills them
-- at start-up.
ALTER TABLE games ADD COLUMN summary TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN results TEXT NOT NULL DEFAULT '';

CREATE INDEX games_by_update ON games (updated_at DESC, id DESC);
