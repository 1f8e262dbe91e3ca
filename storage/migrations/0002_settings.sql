-- Per-channel settings (reminder delay, deadline, moderator role) and per-user preferences.
CREATE TABLE channel_settings (
    guild_id   TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT NOT NULL,
    PRIMARY KEY (guild_id, channel_id, key)
);

CREATE TABLE user_settings (
    user_id TEXT NOT NULL,
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (user_id, key)
);
