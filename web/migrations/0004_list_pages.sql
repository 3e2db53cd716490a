-- The game list comes in pages, unfinished and finished games apart: whether a
-- series' current game is over is a column of its summary, filled here from the
-- entry of every stored game, and the pages are read along an index in list order.
ALTER TABLE summaries ADD COLUMN finished INTEGER NOT NULL DEFAULT 0
    CHECK (finished IN (0, 1));
UPDATE summaries SET finished = json_extract('{' || entry || '}', '$.finished') = 1;
CREATE INDEX summaries_by_finished ON summaries (finished, updated DESC, id DESC);
