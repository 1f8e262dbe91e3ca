-- Provably fair shuffles: the seed's salt and the SHA-256 commitment posted at the start
-- (the seed and salt are revealed when the game ends).
ALTER TABLE games ADD COLUMN salt TEXT;
ALTER TABLE games ADD COLUMN commitment TEXT;

-- Announcements written in the same transaction as the change they announce; a front end marks
-- them posted, and whatever is still pending after a crash is posted on start-up.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    text       TEXT    NOT NULL,
    pings      TEXT    NOT NULL DEFAULT '[]',
    board      INTEGER NOT NULL DEFAULT 0,
    created_at REAL    NOT NULL,
    posted_at  REAL
);
CREATE INDEX outbox_pending ON outbox (game_id) WHERE posted_at IS NULL;
