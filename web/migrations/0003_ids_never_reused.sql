-- Game ids are never reused: AUTOINCREMENT keeps the largest id ever given in
-- sqlite_sequence, so a deleted game's id, cookies and cached copies never name a
-- later game. SQLite cannot add AUTOINCREMENT to a table: games is rebuilt. The
-- summaries are kept aside meanwhile, since dropping games would cascade to them.
CREATE TABLE games_v3 (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    join_code   TEXT    NOT NULL UNIQUE,
    rules       TEXT    NOT NULL,
    players     TEXT    NOT NULL,  -- JSON list of names
    status      TEXT    NOT NULL CHECK (status IN ('first-roll', 'play', 'over')),
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    series      TEXT    NOT NULL,  -- JSON: Series.to_dict()
    created_at  TEXT    NOT NULL,  -- ISO 8601, UTC
    updated_at  TEXT    NOT NULL
);
INSERT INTO games_v3 SELECT id, join_code, rules, players, status, version, series,
                            created_at, updated_at FROM games;
CREATE TEMP TABLE summaries_aside AS SELECT * FROM summaries;
DROP TABLE summaries;
DROP TABLE games;
ALTER TABLE games_v3 RENAME TO games;
CREATE INDEX games_by_status ON games (status, updated_at);

CREATE TABLE summaries (
    id       INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    updated  TEXT    NOT NULL,  -- games.updated_at: the list's order
    entry    TEXT    NOT NULL,  -- the list entry's JSON members after "id" and the join fields
    results  TEXT    NOT NULL   -- JSON list: each finished game's totals, winners, Yahtzees
);
INSERT INTO summaries SELECT id, updated, entry, results FROM summaries_aside;
DROP TABLE summaries_aside;
CREATE INDEX summaries_by_update ON summaries (updated DESC, id DESC);
