-- The game list comes in pages, unfinished and finished games apart: whether a
-- series' current game is over is a column of its summary, filled here from the
-- entry of every stored game, and the pages are read along an index in list order.
ALTER TABLE summaries ADD COLUMN finished INTEGER NOT NULL DEFAULT 0
    CHECK (finished IN (0, 1));
UPDATE summaries SET finished = CASE
    WHEN (('{' || entry || '}')::json ->> 'finished') = 'true' THEN 1 ELSE 0 END;
CREATE INDEX summaries_by_finished ON summaries (finished, updated DESC, id DESC);
