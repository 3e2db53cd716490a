-- Values the whole server shares, one row each: under PostgreSQL the key the cookies
-- are signed with, so every process on every machine signs and checks them alike.
CREATE TABLE IF NOT EXISTS settings (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
