-- One row per table of play: a series of up to six games (the paper pad's
-- "Game #1".."Game #6" columns). The series JSON is the source of truth
-- (scorekeeper's Series.to_dict); the other columns are indexes for lists.
-- Times are ISO 8601 text compared byte by byte (COLLATE "C"), as SQLite does.
CREATE TABLE games (
    id          BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    join_code   TEXT    NOT NULL UNIQUE,
    rules       TEXT    NOT NULL,
    players     TEXT    NOT NULL,  -- JSON list of names
    status      TEXT    NOT NULL CHECK (status IN ('first-roll', 'play', 'over')),
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    series      TEXT    NOT NULL,  -- JSON: Series.to_dict()
    created_at  TEXT    COLLATE "C" NOT NULL,  -- ISO 8601, UTC
    updated_at  TEXT    COLLATE "C" NOT NULL
);

CREATE INDEX games_by_status ON games (status, updated_at);
