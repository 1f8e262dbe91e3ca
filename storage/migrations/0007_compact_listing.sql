-- A smaller database and one-query lists (issue 14).
-- state_z: the state as zlib-compressed canonical JSON (about 2.7 KB -> 0.6 KB for a Tiny Towns game).
-- Every write now fills state_z and sets state to NULL; rows written before keep their JSON text in
-- state and still load (`conductor vacuum` compresses them).
ALTER TABLE games ADD COLUMN state_z BLOB;
-- listing: the game's one line for /game list ("Round 3: ann to act"), written with every change, so
-- the list reads one short column per game instead of decoding every state. NULL for rows written
-- before this migration (the list computes those the old way until `conductor vacuum` fills them).
ALTER TABLE games ADD COLUMN listing TEXT;
-- waiting: the seats whose turn it is, as ",0,2," (empty when nobody's), so /game mygames is one
-- query: seats JOIN games WHERE waiting LIKE '%,' || seat || ',%'.
ALTER TABLE games ADD COLUMN waiting TEXT NOT NULL DEFAULT '';
-- A finished or aborted game's move log, archived in place: its rows become one zlib-compressed
-- JSON array here (every column kept, reverted moves too), so it still replays and exports.
CREATE TABLE moves_archive (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    moves   BLOB    NOT NULL,
    count   INTEGER NOT NULL
);
