-- Community: every finished game's result per seat, the per-server skill ratings computed from them,
-- and the unguessable tokens of the web replay viewer. Portable SQL (SQLite and PostgreSQL): no
-- AUTOINCREMENT, no SQLite-only types; rows are keyed by natural keys, so no generated ids are needed.

-- One row per seat of a finished game, written in the transaction that finishes it and deleted
-- when a moderator rolls the game back into play. Ratings are replayed from these in rated_seq order.
CREATE TABLE game_results (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    guild_id     TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    player       TEXT    NOT NULL,  -- the user id; bots as bot:level<N> (one rating per bot level)
    display_name TEXT    NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('human', 'bot')),
    players      INTEGER NOT NULL,  -- seats in the game (1 = solo: ranked by score, never rated)
    rank         INTEGER NOT NULL,
    score        INTEGER NOT NULL,
    title        TEXT,
    map          TEXT,
    counted      TEXT    NOT NULL DEFAULT '',    -- what counts counts: "buildings built", "cards bought"
    counts       TEXT    NOT NULL DEFAULT '{}',  -- JSON object: name -> how many
    rated_seq    INTEGER NOT NULL,  -- the order finishes were rated in, per (guild, game)
    finished_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_results_by_board ON game_results (guild_id, game, rated_seq);
CREATE INDEX game_results_by_player ON game_results (guild_id, player);

-- The current rating of every player of a game in a server (openskill Plackett-Luce mu and sigma).
CREATE TABLE ratings (
    guild_id     TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('human', 'bot')),
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    games        INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, player)
);

-- Unguessable web links: one token per server (its list of finished games) and one per game.
CREATE TABLE web_links (
    scope    TEXT NOT NULL CHECK (scope IN ('guild', 'game')),
    key      TEXT NOT NULL,  -- the guild id, or the game id as text
    guild_id TEXT NOT NULL,
    token    TEXT NOT NULL UNIQUE,
    PRIMARY KEY (scope, key)
);
