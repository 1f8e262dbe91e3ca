-- PostgreSQL form of 0007 (see the shared file for what each column holds). Only one difference:
-- moves_archive's key is a game's id, not a generated one, so it is a plain BIGINT (the shared
-- file's "INTEGER PRIMARY KEY" would translate to an identity column).
ALTER TABLE games ADD COLUMN state_z BYTEA;
ALTER TABLE games ADD COLUMN listing TEXT;
ALTER TABLE games ADD COLUMN waiting TEXT NOT NULL DEFAULT '';
CREATE TABLE moves_archive (
    game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    moves   BYTEA  NOT NULL,
    count   BIGINT NOT NULL
);
