-- Small per-game facts the host keeps beside the state: who held a seat before a substitute
-- (so a replaced player is told who holds it now), the players agreeing to abort, who ended a game.
CREATE TABLE game_notes (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
);
