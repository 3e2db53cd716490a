-- What the game list and the statistics show of each series, written with every
-- change (web.summary) in a table of its own, so a list of thousands of games
-- reads these short rows and never a series (finished series span several pages).
CREATE TABLE summaries (
    id       BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    updated  TEXT    COLLATE "C" NOT NULL,  -- games.updated_at: the list's order
    entry    TEXT    NOT NULL,  -- the list entry's JSON members after "id" and the join fields
    results  TEXT    NOT NULL   -- JSON list: each finished game's totals, winners, Yahtzees
);

CREATE INDEX summaries_by_update ON summaries (updated DESC, id DESC);
