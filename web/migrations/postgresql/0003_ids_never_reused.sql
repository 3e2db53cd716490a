-- Game ids are never reused: they come from the identity column's sequence, which
-- never hands out a number twice, so a deleted game's id, cookies and cached copies
-- never name a later game. Nothing to rebuild (SQLite needed AUTOINCREMENT here).
COMMENT ON COLUMN games.id IS 'never reused: drawn from the identity sequence';
