-- Games, seats, the append-only move log and timers.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      TEXT    NOT NULL,
    channel_id    TEXT    NOT NULL,
    game          TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
    host_id       TEXT    NOT NULL,
    options       TEXT    NOT NULL DEFAULT '{}',
    seed          INTEGER,
    rules_version TEXT    NOT NULL,
    state         TEXT,
    version       INTEGER NOT NULL DEFAULT 0,
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);

-- A thread is its own channel, so (guild, channel) identifies a game channel.
CREATE UNIQUE INDEX one_open_game_per_channel
    ON games (guild_id, channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('human', 'bot')),
    bot_level    INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_user ON seats (user_id);

-- Append-only: rows are never deleted; undo and rollback mark rows reverted.
CREATE TABLE moves (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    user_id      TEXT    NOT NULL,
    text         TEXT    NOT NULL,
    irreversible INTEGER NOT NULL DEFAULT 0,
    reverted     INTEGER NOT NULL DEFAULT 0,
    created_at   REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE timers (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    due_at     REAL    NOT NULL,
    payload    TEXT    NOT NULL DEFAULT '{}',
    created_at REAL    NOT NULL
);
CREATE INDEX timers_by_due ON timers (due_at);
