-- PostgreSQL form of 0004 (SQLite's json_set/json_remove have no PostgreSQL spelling): move a Tiny
-- Towns state's "players" to "names". States are stored as text. A state that is not a JSON object
-- (damaged), has no "players" or already has "names" is left alone, as in the SQLite form; the checks
-- are in one function because PostgreSQL does not promise to evaluate WHERE conditions in order.
CREATE FUNCTION pg_temp.renamed(value TEXT) RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
    parsed JSONB;
BEGIN
    BEGIN
        parsed := value::jsonb;
    EXCEPTION WHEN others THEN
        RETURN NULL;
    END;
    IF jsonb_typeof(parsed) <> 'object' OR NOT parsed ? 'players' OR parsed ? 'names' THEN
        RETURN NULL;
    END IF;
    RETURN ((parsed - 'players') || jsonb_build_object('names', parsed -> 'players'))::text;
END;
$$;
UPDATE games
   SET state = pg_temp.renamed(state)
 WHERE game = 'tiny-towns'
   AND state IS NOT NULL
   AND pg_temp.renamed(state) IS NOT NULL;
