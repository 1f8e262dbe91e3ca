-- Tiny Towns states now keep the players' display names under "names" (games.base.NAMES_KEY, the key
-- every game and view shares) instead of "players". Rename the key in stored states so running games
-- load and play on. Finished and aborted games too, since their boards are still drawn for history.
-- Only Tiny Towns rows: other games use "players" for something else (Trains: per-player records).
-- json() keeps the value a JSON array; without it json_set would store the array's text as a string.
-- The CASE checks json_valid first, so one corrupt row is left alone instead of failing the migration
-- (and with it the start of the bot). A state that already has "names" is not touched.
UPDATE games
   SET state = json_remove(json_set(state, '$.names', json(json_extract(state, '$.players'))), '$.players')
 WHERE game = 'tiny-towns'
   AND state IS NOT NULL
   AND CASE WHEN json_valid(state)
            THEN json_type(state, '$.players') IS NOT NULL AND json_type(state, '$.names') IS NULL
            ELSE 0 END;
