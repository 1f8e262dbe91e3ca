-- A move replaces its game's turn timers (DELETE FROM timers WHERE game_id = ? AND kind IN (...)).
-- Without this index each of those reads every timer of every game: with 2,000 games waiting, a
-- stored move took about twice as long.
CREATE INDEX timers_by_game ON timers (game_id);
