#!/usr/bin/env bash
# Mutation testing with mutmut (pip install -e ".[test,mutation]") over the rules, the host's permission and undo checks, and storage.
#
#   bench/mutation.sh                    # every module, most important first
#   bench/mutation.sh trains-board host  # only these modules
#   bench/mutation.sh --collect host      # only re-read the results of a finished run
#   bench/mutation.sh --survivors tramways # re-run only a finished run's unexplained survivors against today's tests
#   bench/mutation.sh --save storage      # keep a (running or stopped) run's verdicts in the repository
#   bench/mutation.sh --only host 'bot.table.x_board__*' 'bot.table.x_hand__*'  # only these mutants (changed functions)
#
# Verdicts are kept in bench/mutation_results/verdicts/<module>.json (bench/mutation_verdicts.py): a run starts from
# them and checks only the rest, so a module too slow for one session goes on in the next (MUTATION_FRESH=1: from nothing).
#
# An interrupted run resumes where it stopped (mutmut keeps every verdict in the scratch copy):
#   cd /tmp/conductor-mutation/<module> && nice mutmut run --max-children 2; then bench/mutation.sh --collect <module>
# (for storage, start a cluster first and export CONDUCTOR_TEST_PG=$(python -m tests.pgcluster) as the script does).
#
# Not part of .ci/run: the whole set takes well over ten minutes (hours on a busy shared machine). Each module is mutated in its own
# scratch copy of the tree (MUTATION_DIR, default /tmp/conductor-mutation/<module>) and only the test files
# named for it below are run (mutmut then runs, per mutant, only the tests that reach the mutated
# function). Everything runs under `nice` (MUTATION_NICE, default 10; 0 when the run comes first) with at most
# MUTATION_JOBS (default 2) workers, since the machine is shared. Per-module counts land in bench/mutation_results/<module>.json; at the end
# bench/mutation_summary.py prints the kill rates as JSON and rewrites the table in bench/mutation_report.md.
set -euo pipefail
cd "$(dirname "$0")/.."
# mutmut comes with the "mutation" extra: pip install -e ".[test,mutation]"
if [[ -z "${VIRTUAL_ENV:-}" && -f .venv/bin/activate ]]; then . .venv/bin/activate; fi
SCRATCH=${MUTATION_DIR:-/tmp/conductor-mutation}
JOBS=${MUTATION_JOBS:-2}
mkdir -p bench/mutation_results

# module | files to mutate | test files that are about them (fast ones: no playout or timing tests)
# [| extra pytest arguments, ;-separated: the host leaves out the PostgreSQL cases, which reach none of its files and would
#   start a cluster per mutant] [| pg: one PostgreSQL cluster is started for the module's run and every mutant's tests use
#   it (CONDUCTOR_TEST_PG, tests/conftest.py), instead of a cluster per mutant]. Tests that run the bot or the CLI as a
# subprocess with its own import path are left out, and so is the test comparing both stores' method signatures (mutmut wraps
# every method it mutates).
MODULES=(
  "trains-board|games/trains/board.py|tests/trains/test_rails.py tests/trains/test_cards.py tests/trains/test_turns.py tests/trains/test_notation.py tests/trains/test_labels.py tests/trains/test_board_edges.py tests/trains/test_fast_paths_engine.py"
  "host|bot/table.py bot/moderation.py|tests/core/test_platform_host.py tests/core/test_host_turns.py tests/core/test_trust.py tests/core/test_table_ux.py tests/core/test_host_lobby.py tests/tiny_towns/test_undo_scope.py tests/core/test_undo_revealed_since.py tests/core/test_undo_without_scope.py tests/core/test_undo_refusals.py tests/core/test_rollback_cases.py tests/core/test_moderation_seats.py tests/core/test_resign_cases.py tests/core/test_abort_cases.py tests/core/test_resign_refusals.py tests/core/test_table_texts.py tests/core/test_mod_skip.py tests/core/test_board_and_hand_views.py tests/core/test_mod_replacebot.py tests/core/test_export_secrets.py|-k;not postgres"
  "tiny-towns-scoring|games/tiny_towns/scoring.py games/tiny_towns/patterns.py|tests/tiny_towns/test_scoring.py tests/tiny_towns/test_patterns.py tests/tiny_towns/test_rulebook_scorer.py tests/tiny_towns/test_transcripts.py tests/tiny_towns/test_variants.py tests/tiny_towns/test_pattern_edges.py tests/tiny_towns/test_feeding_edges.py tests/tiny_towns/test_feeding_choices.py tests/tiny_towns/test_standings_edges.py tests/tiny_towns/test_unbuilt_monuments.py"
  "tiny-towns-rules|games/tiny_towns/rules.py|tests/tiny_towns/test_flow.py tests/tiny_towns/test_abilities.py tests/tiny_towns/test_monuments.py tests/tiny_towns/test_scenarios.py tests/tiny_towns/test_variants.py tests/tiny_towns/test_readiness.py tests/tiny_towns/test_redeal.py tests/tiny_towns/test_undo_scope.py tests/tiny_towns/test_notation.py tests/tiny_towns/test_auto_done_secret.py tests/tiny_towns/test_transcripts.py tests/tiny_towns/test_copying.py tests/tiny_towns/test_migration.py tests/tiny_towns/test_move_listing.py tests/tiny_towns/test_refusal_texts.py tests/tiny_towns/test_resign_kick_skip.py tests/tiny_towns/test_status_lines.py tests/tiny_towns/test_redeal_edges.py"
  "trains-rules|games/trains/rules.py games/trains/scoring.py|tests/trains/test_turns.py tests/trains/test_cards.py tests/trains/test_rails.py tests/trains/test_hidden.py tests/trains/test_transcripts.py tests/trains/test_play_all_and_kick.py tests/trains/test_resign_edges.py tests/trains/test_buy_refusals.py tests/trains/test_board_edges.py tests/trains/test_notation.py tests/trains/test_labels.py tests/trains/test_copying.py tests/trains/test_status_lines.py tests/trains/test_buy_and_end_texts.py tests/trains/test_move_refusals.py tests/trains/test_setup_options.py tests/trains/test_score_total.py"
  "trains-effects|games/trains/effects.py|tests/trains/test_cards.py tests/trains/test_card_grammar.py tests/trains/test_effect_lines.py tests/trains/test_turns.py tests/trains/test_rails.py tests/trains/test_notation.py tests/trains/test_board_edges.py tests/trains/test_hidden.py tests/trains/test_labels.py tests/trains/test_play_all_and_kick.py tests/trains/test_transcripts.py"
  "storage|storage/db.py storage/shared.py storage/migrate.py storage/copy.py storage/community.py storage/rating.py storage/shards.py storage/postgres.py storage/postgres_migrate.py storage/__init__.py|tests/core/test_storage.py tests/core/test_compact_storage.py tests/core/test_seat_races.py tests/core/test_store_encoding.py tests/core/test_postgres.py tests/community/test_ratings.py tests/community/test_stats.py tests/storage/test_seats_and_user_games.py tests/storage/test_update_game_rows.py tests/storage/test_commit_rows.py tests/storage/test_claims_timers_and_outbox.py tests/storage/test_game_reads_and_tables.py tests/storage/test_maintenance_counts.py tests/storage/test_results_ratings_and_links.py tests/storage/test_open_failures.py tests/storage/test_copy_to_postgres.py tests/storage/test_fault_hook_points.py tests/storage/test_waiting_page_and_bad_timers.py tests/storage/test_plain_commit.py tests/storage/test_state_cache.py tests/storage/test_postgres_snapshots.py|-k;not test_both_stores_have_the_same_public_methods|pg"
  "tramways|games/tramways/rules.py games/tramways/scoring.py games/tramways/actions.py games/tramways/payment.py games/tramways/links.py|tests/tramways/test_actions.py tests/tramways/test_auction_bids.py tests/tramways/test_payment_texts.py tests/tramways/test_modules.py tests/tramways/test_draft.py tests/tramways/test_park_examples.py tests/tramways/test_icons.py tests/tramways/test_transcripts.py tests/tramways/test_seat_changes.py tests/tramways/test_refusals.py tests/tramways/test_action_refusals.py tests/tramways/test_scoring_examples.py tests/tramways/test_rail_and_trip_refusals.py tests/tramways/test_round_script.py tests/tramways/test_action_texts.py tests/tramways/test_draft_texts.py tests/tramways/test_round_state.py tests/tramways/test_master_texts.py tests/tramways/test_upgrade_link_texts.py tests/tramways/test_trip_settlement.py tests/tramways/test_trip_routes.py tests/tramways/test_card_icon_effects.py tests/tramways/test_rails_texts.py tests/tramways/test_build_texts.py tests/tramways/test_trip_steps.py tests/tramways/test_payment_choices.py tests/tramways/test_payment_ways.py tests/tramways/test_use_texts.py tests/tramways/test_rail_cell_texts.py tests/tramways/test_master_reach.py tests/tramways/test_payment_refusal_texts.py tests/tramways/test_state_shape.py tests/tramways/test_dispatch_dicts.py tests/tramways/test_icon_tokens.py tests/tramways/test_capacity.py tests/tramways/test_map_draw.py"
  "trolley-town|games/trolley_town/rules.py games/trolley_town/scoring.py games/trolley_town/effects.py games/trolley_town/market.py games/trolley_town/payment.py games/trolley_town/town.py|tests/trolley_town/test_flow.py tests/trolley_town/test_effect_texts.py tests/trolley_town/test_rulebook_examples.py tests/trolley_town/test_market.py tests/trolley_town/test_grid_and_routes.py tests/trolley_town/test_transcripts.py tests/trolley_town/test_vocabulary.py tests/trolley_town/test_choices_and_refusals.py tests/trolley_town/test_transport_listing.py tests/trolley_town/test_round_script.py tests/trolley_town/test_payment_splits.py tests/trolley_town/test_listings_and_defaults.py tests/trolley_town/test_solo_cleanup_edges.py tests/trolley_town/test_transport_refusal_texts.py tests/trolley_town/test_conversion_pieces.py tests/trolley_town/test_finish_texts.py tests/trolley_town/test_producers_first.py tests/trolley_town/test_round_ends.py tests/trolley_town/test_market_slides.py tests/trolley_town/test_build_and_move_texts.py tests/trolley_town/test_status_and_steps.py tests/trolley_town/test_setup_layout.py tests/trolley_town/test_turn_guards.py"
)

# Counts and surviving mutants of one finished module run -> bench/mutation_results/<module>.json
collect() {
  local name=$1 files=$2 work="$SCRATCH/$1" seconds=${3:-0}
  (cd "$work" && mutmut export-cicd-stats >/dev/null 2>&1 && mutmut results >"$work/survivors.txt" 2>/dev/null || true)
  python3 - "$work" "$name" "$files" "$seconds" >"bench/mutation_results/$name.json" <<'PY'
import json, sys
work, name, files, seconds = sys.argv[1:]
stats = json.load(open(f"{work}/mutants/mutmut-cicd-stats.json"))
lines = [l.strip() for l in open(f"{work}/survivors.txt") if l.strip()]
survivors = sorted(l.split(":")[0] for l in lines if l.endswith(": survived"))
untested = sorted(l.split(":")[0] for l in lines if l.endswith(": no tests"))
row = {"module": name, "files": files.split(), "seconds": int(seconds), **stats, "survivors": survivors}
print(json.dumps(row | {"no_tests_names": untested}, indent=1))
PY
}

if [[ "${1:-}" == "--collect" ]]; then  # only re-read finished runs (e.g. after an interrupted script)
  shift
  for entry in "${MODULES[@]}"; do
    IFS='|' read -r name files tests <<<"$entry"
    if [[ " $* " == *" $name "* ]]; then collect "$name" "$files"; fi
  done
  python3 bench/mutation_summary.py
  exit 0
fi

# A scratch copy of the tree for one module, with its mutmut configuration: prepare <name> <files> <tests> <extra> <work>
prepare() {
  local name=$1 files=$2 tests=$3 extra=$4 work=$5
  rm -rf "$work" && mkdir -p "$work"
  git ls-files -z | xargs -0 tar -cf - | tar -xf - -C "$work"  # the committed tree (plus local edits)
  {
    echo "[mutmut]"
    printf 'source_paths=\n    games\n    bot\n    storage\n    rendering\n'
    # mutmut's fork server stops a mutant's tests at (clean time + 1 s) x 2 x this in CPU seconds, but also at half that in
    # WALL seconds, so on a loaded machine a slow test becomes a false "timeout" (counted as a kill). mutmut's own default
    # (15) leaves room for a machine 15 times slower than the stats run; a real hang then costs more, but they are few.
    # Changing this in a scratch copy's setup.cfg and running `mutmut run` there again re-runs only the timeouts.
    echo "timeout_multiplier=${MUTATION_TIMEOUT:-15.0}"
    printf 'also_copy=\n    bench\n    README.md\n    .ci\n    .env.example\n    pyproject.toml\n'  # tests import bench/store_counter.py and read the README
    echo "only_mutate="; for f in $files; do echo "    $f"; done
    echo "pytest_add_cli_args_test_selection="; for t in $tests; do echo "    $t"; done
    printf 'pytest_add_cli_args=\n    -p\n    no:cacheprovider\n    -p\n    no:randomly\n'
    if [[ -n "${extra:-}" ]]; then IFS=';' read -ra args <<<"$extra"; for a in "${args[@]}"; do echo "    $a"; done; fi
  } >"$work/setup.cfg"
}

# mutmut run in a prepared copy, with a PostgreSQL cluster for the modules that need one: run_mutmut <work> <pg> [mutant names]
run_mutmut() {
  local work=$1 pg=$2 cluster=""
  shift 2
  if [[ "$pg" == "pg" ]]; then cluster=$(python3 -m tests.pgcluster); fi
  (cd "$work" && CONDUCTOR_TEST_PG="$cluster" nice -n "${MUTATION_NICE:-10}" mutmut run --max-children "$JOBS" "$@" >"$work/run.log" 2>&1 || true)
  if [[ -n "$cluster" ]]; then python3 -m tests.pgcluster stop "$cluster"; fi
}

if [[ "${1:-}" == "--save" ]]; then
  shift
  for name in "$@"; do python3 bench/mutation_verdicts.py save "$SCRATCH/$name" "$name"; done
  exit 0
fi

if [[ "${1:-}" == "--survivors" || "${1:-}" == "--only" ]]; then
  # --survivors <modules>: re-run only a finished run's unexplained survivors and untested mutants
  # (bench/mutation_results/<module>.json minus the equivalents) against today's test selection: far cheaper than a
  # whole run once new tests were written for them. --only <module> <mutmut name patterns>: only the mutants those
  # patterns name, e.g. the functions a change touched after a complete run. Writes
  # bench/mutation_results/fresh/<module>-survivors.json or <module>-only.json.
  mode=${1#--}
  shift
  if [[ "$mode" == "only" ]]; then wanted_modules=$1; shift; patterns=("$@"); else wanted_modules=$*; fi
  for entry in "${MODULES[@]}"; do
    IFS='|' read -r name files tests extra pg <<<"$entry"
    if [[ " $wanted_modules " != *" $name "* ]]; then continue; fi
    work="$SCRATCH/$name-$mode"
    prepare "$name" "$files" "$tests" "${extra:-}" "$work"
    if [[ "$mode" == "only" ]]; then
      names=("${patterns[@]}")
    else
      mapfile -t names < <(python3 - "$name" <<'PY'
import json, sys
results = "bench/mutation_results"
run = json.load(open(f"{results}/{sys.argv[1]}.json"))
equivalent = json.load(open(f"{results}/equivalent/{sys.argv[1]}.json"))
print("\n".join(n for n in run["survivors"] + run.get("no_tests_names", []) if n not in equivalent))
PY
)
    fi
    echo "== $name: re-running ${#names[@]} ($mode)" >&2
    run_mutmut "$work" "${pg:-}" "${names[@]}"
    (cd "$work" && mutmut results --all true >"$work/all.txt" 2>/dev/null || true)
    python3 - "$work" "$name" "$tests" "$mode" "${names[@]}" >"bench/mutation_results/fresh/$name-$mode.json" <<'PY'
import fnmatch, json, sys
work, name, tests, mode, *names = sys.argv[1:]
status = dict(line.strip().split(": ", 1) for line in open(f"{work}/all.txt") if ": " in line)
if mode == "only":  # the patterns, as mutmut matched them
    names = sorted(n for n in status if any(fnmatch.fnmatchcase(n, p) for p in names))
verdicts = {n: status.get(n, "not checked") for n in names}
def named(*wanted): return sorted(n for n, v in verdicts.items() if v in wanted)
# the format of bench/mutation_fresh.py's results, which bench/mutation_summary.py reads
print(json.dumps({"module": name, "mutants": mode, "tests": tests.split(), "of": len(names),
                  "checked": named("killed", "survived", "timeout", "suspicious", "segfault"),
                  "killed": len(named("killed")), "timeout": named("timeout"), "survived": named("survived"),
                  "unchecked": named("not checked", "no tests", "skipped")}, indent=1))
PY
    python3 -c "import json, sys; r = json.load(open(sys.argv[1])); print(r['of'], 'checked:', r['killed'], 'killed,', len(r['survived']), 'survived')" "bench/mutation_results/fresh/$name-$mode.json" >&2
  done
  exit 0
fi

wanted=" $* "
for entry in "${MODULES[@]}"; do
  IFS='|' read -r name files tests extra pg <<<"$entry"
  if [[ $# -gt 0 && "$wanted" != *" $name "* ]]; then continue; fi
  work="$SCRATCH/$name"
  prepare "$name" "$files" "$tests" "${extra:-}" "$work"
  if [[ -z "${MUTATION_FRESH:-}" ]]; then python3 bench/mutation_verdicts.py restore "$work" "$name" >&2; fi
  echo "== $name: mutating $files" >&2
  started=$(date +%s)
  run_mutmut "$work" "${pg:-}"
  python3 bench/mutation_verdicts.py save "$work" "$name" >/dev/null
  collect "$name" "$files" "$(( $(date +%s) - started ))"
done
python3 bench/mutation_summary.py
