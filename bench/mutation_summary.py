"""Kill rate per module from bench/mutation_results/*.json (written by bench/mutation.sh). Prints JSON.

The rate counts mutants a test reached: killed / (killed + survived + timeout). Mutants of functions
no selected test reaches ("no_tests") are listed apart. Two hand-kept inputs then refine it:

- bench/mutation_results/fresh/<module>[-label].json (bench/mutation_fresh.py): survivors re-checked in a
  fresh process, against tests written after the run or for code that runs at import time; a survivor
  killed there counts as killed ("killed_later").
- bench/mutation_results/equivalent/<module>.json: {mutant name: why it is equivalent}, one by one; those
  leave the denominator of "after_equivalents". Survivors neither killed later nor explained are listed
  as "unexplained".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

RESULTS = Path(__file__).parent / "mutation_results"
NAMES = "--names" in sys.argv  # every unexplained survivor, not only the first five


def _later_kills(module: str, survivors: set[str]) -> set[str]:
    """Survivors that a fresh re-check of the module killed (any of its re-checks)."""
    killed: set[str] = set()
    for path in sorted((RESULTS / "fresh").glob(f"{module}*.json")):
        row = json.loads(path.read_text())
        if row["module"] == module:
            killed |= (set(row["checked"]) - set(row["survived"])) & survivors
    return killed


def _checked_only_later(module: str, seen: set[str]) -> tuple[int, int]:
    """(mutants, killed) re-run by a fresh check that the stopped run itself never got to (its "not checked")."""
    status: dict[str, bool] = {}
    for path in sorted((RESULTS / "fresh").glob(f"{module}*.json")):
        row = json.loads(path.read_text())
        if row["module"] == module:
            for name in set(row["checked"]) - seen:
                status[name] = status.get(name, False) or name not in row["survived"]
    return len(status), sum(status.values())


def summary() -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for path in sorted(RESULTS.glob("*.json")):
        row = json.loads(path.read_text())
        reached = row["killed"] + row["survived"] + row["timeout"] + row["suspicious"] + row["segfault"]
        killed = row["killed"] + row["timeout"]
        survivors = set(row["survivors"])
        later = _later_kills(row["module"], survivors)
        equivalent_file = RESULTS / "equivalent" / f"{row['module']}.json"
        equivalent = json.loads(equivalent_file.read_text()) if equivalent_file.exists() else {}
        remaining = survivors - later
        explained = remaining & set(equivalent)
        unexplained = sorted(remaining - explained)
        real = killed + len(later) + len(unexplained)
        out[row["module"]] = {
            "files": row["files"],
            "mutants": row["total"],
            "killed": killed,
            "survived": row["survived"],
            "no_tests": row["no_tests"],
            # Functions no selected test reached, later reached and killed by a newer test (fresh re-check).
            "no_tests_killed_later": len(_later_kills(row["module"], set(row.get("no_tests_names", [])))),
            # A run stopped early leaves the rest unchecked: its rate covers only what it checked.
            "not_checked": row["total"] - reached - row["no_tests"] - row["skipped"],
            "kill_rate": round(killed / reached, 3) if reached else None,
            # Mutants the run never reached (stopped early), re-run afterwards: (how many, killed).
            "not_checked_run_later": _checked_only_later(row["module"], survivors | set(row.get("no_tests_names", []))),
            "killed_later": len(later),
            "equivalent": len(explained),
            "after_equivalents": round((killed + len(later)) / real, 3) if real else None,
            "unexplained": len(unexplained),
            "unexplained_names": unexplained if NAMES else unexplained[:5],
            "seconds": row["seconds"],
        }
    return out


if __name__ == "__main__":
    print(json.dumps(summary(), indent=1))
