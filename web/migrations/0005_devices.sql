-- Each device that joined a game, so that its owner can see them and remove one.
-- A game's cookie names its device's row (web.access); a removed row's cookie no
-- longer lets that device in. Existing games keep every row; a device holding a
-- cookie from before this table gets its row on its next request to the game.
CREATE TABLE devices (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: a removed device stays out
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    role       TEXT    NOT NULL CHECK (role IN ('player', 'owner')),
    joined_at  TEXT    NOT NULL,  -- ISO 8601, UTC
    label      TEXT    NOT NULL   -- browser and system from its User-Agent, "" when unknown
);

CREATE INDEX devices_by_game ON devices (game_id, id);
