"""Keep a module's mutmut verdicts in the repository, so a long run can go on in a later session on another machine.

A whole run of the slow modules (storage's PostgreSQL tests, the game engines' playouts) takes longer than one
session, and the scratch copy in /tmp does not survive the machine. ``save`` reads the verdicts from a scratch
run's ``mutants/**/*.meta`` files into bench/mutation_results/verdicts/<module>.json; ``restore`` writes them back
into a new scratch copy before ``mutmut run``, which then keeps them (mutmut merges a ``.meta`` it finds with the
mutants it generates, per function, and only while the function's code hash is unchanged) and runs the rest.

Kept: kills, and survivors already explained in bench/mutation_results/equivalent/<module>.json. Not kept, so run
again: unexplained survivors (new tests may kill them), "no tests" (the selection may now reach them), timeouts
(a loaded machine makes false ones) and anything else. A kill is kept across test changes, which is sound while
tests are only added; MUTATION_FRESH=1 bench/mutation.sh <module> starts from nothing.

    python bench/mutation_verdicts.py save /tmp/conductor-mutation/storage storage
    python bench/mutation_verdicts.py restore /tmp/conductor-mutation/storage storage
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

RESULTS = Path(__file__).parent / "mutation_results"
KILLED = (1, 3)  # mutmut's exit codes for a kill (3: pytest's internal error, which mutmut also counts as a kill)
SURVIVED = 0


def _kept(module: str, verdicts: dict[str, int | None]) -> dict[str, int]:
    equivalent = json.loads((RESULTS / "equivalent" / f"{module}.json").read_text())
    return {
        name: code for name, code in verdicts.items() if code in KILLED or (code == SURVIVED and name in equivalent)
    }


def save(work: Path, module: str) -> dict[str, int]:
    """Merge the scratch run's kept verdicts into the module's file; returns how many per source file."""
    path = RESULTS / "verdicts" / f"{module}.json"
    saved = json.loads(path.read_text()) if path.exists() else {}
    counts = {}
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        source = str(meta.relative_to(work / "mutants"))[: -len(".meta")]
        data = json.loads(meta.read_text())
        hashes = data["hash_by_function_name"]
        old = saved.get(source, {"hashes": {}, "verdicts": {}})
        # an earlier session's verdict stays while its function is unchanged and this run did not decide it again
        # (a survivor now of a mutant killed before, after a test was removed, drops the old kill)
        decided = {name for name, code in data["exit_code_by_key"].items() if code is not None}
        verdicts = {
            name: code
            for name, code in old["verdicts"].items()
            if old["hashes"].get(_function(name)) == hashes.get(_function(name)) and name not in decided
        }
        verdicts.update(_kept(module, data["exit_code_by_key"]))
        saved[source] = {"hashes": hashes, "verdicts": dict(sorted(verdicts.items()))}
        counts[source] = len(verdicts)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(saved, indent=0, sort_keys=True) + "\n")
    return counts


def restore(work: Path, module: str) -> int:
    """Write the saved verdicts as mutmut .meta files into a prepared scratch copy (before ``mutmut run``)."""
    path = RESULTS / "verdicts" / f"{module}.json"
    if not path.exists():
        return 0
    total = 0
    for source, entry in json.loads(path.read_text()).items():
        meta = work / "mutants" / f"{source}.meta"
        meta.parent.mkdir(parents=True, exist_ok=True)
        meta.write_text(
            json.dumps(
                {
                    "exit_code_by_key": entry["verdicts"],
                    "hash_by_function_name": entry["hashes"],
                    "type_check_error_by_key": {},
                    "durations_by_key": {},
                    "estimated_durations_by_key": {},
                }
            )
        )
        total += len(entry["verdicts"])
    return total


def _function(mutant: str) -> str:
    """games.tramways.actions.x_build__mutmut_8 -> x_build; storage.db.xǁStoreǁcommit__mutmut_3 -> xǁStoreǁcommit"""
    return mutant.rsplit("__mutmut_", 1)[0].rsplit(".", 1)[1]


if __name__ == "__main__":
    action, work, module = sys.argv[1:]
    if action == "save":
        print(json.dumps(save(Path(work), module)))
    else:
        print(json.dumps({"restored": restore(Path(work), module)}))
