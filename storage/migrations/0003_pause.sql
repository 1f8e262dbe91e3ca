-- Moderators can pause a game: moves, bots and reminders wait until it is resumed.
ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
