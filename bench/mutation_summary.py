"""Kill rate per module from bench/mutation_results/*.json (written by bench/mutation.sh). Prints JSON.

The rate counts mutants a test reached: killed / (killed + survived + timeout). Mutants of functions
no selected test reaches ("no_tests") are listed apart; equivalent mutants are explained in
bench/mutation_report.md and subtracted there, by hand, for the final rate.
"""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).parent / "mutation_results"


def summary() -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for path in sorted(RESULTS.glob("*.json")):
        row = json.loads(path.read_text())
        reached = row["killed"] + row["survived"] + row["timeout"] + row["suspicious"] + row["segfault"]
        out[row["module"]] = {
            "files": row["files"],
            "mutants": row["total"],
            "killed": row["killed"] + row["timeout"],
            "survived": row["survived"],
            "no_tests": row["no_tests"],
            # A run stopped early leaves the rest unchecked: its rate covers only what it checked.
            "not_checked": row["total"] - reached - row["no_tests"] - row["skipped"],
            "kill_rate": round((row["killed"] + row["timeout"]) / reached, 3) if reached else None,
            "seconds": row["seconds"],
        }
    return out


if __name__ == "__main__":
    print(json.dumps(summary(), indent=1))
