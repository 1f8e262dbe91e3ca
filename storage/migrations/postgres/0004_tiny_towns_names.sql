-- PostgreSQL form of 0004 (SQLite's json_set/json_remove have no PostgreSQL spelling): move a Tiny
-- Towns state's "players" to "names". States are stored as text; rows that are not a JSON object
-- (damaged) are left alone, as in the SQLite form.
CREATE FUNCTION pg_temp.is_json_object(value TEXT) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
BEGIN
    RETURN jsonb_typeof(value::jsonb) = 'object';
EXCEPTION WHEN others THEN
    RETURN FALSE;
END;
$$;
UPDATE games
   SET state = ((state::jsonb - 'players') || jsonb_build_object('names', state::jsonb -> 'players'))::text
 WHERE game = 'tiny-towns'
   AND state IS NOT NULL
   AND pg_temp.is_json_object(state)
   AND state::jsonb ? 'players'
   AND NOT state::jsonb ? 'names';
