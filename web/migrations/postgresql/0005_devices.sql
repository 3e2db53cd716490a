-- Each device that joined a game, so that its owner can see them and remove one.
-- A game's cookie names its device's row (web.access); a removed row's cookie no
-- longer lets that device in.
CREATE TABLE devices (
    id         BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- never reused
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    role       TEXT    NOT NULL CHECK (role IN ('player', 'owner')),
    joined_at  TEXT    NOT NULL,  -- ISO 8601, UTC
    label      TEXT    NOT NULL   -- browser and system from its User-Agent, "" when unknown
);

CREATE INDEX devices_by_game ON devices (game_id, id);
