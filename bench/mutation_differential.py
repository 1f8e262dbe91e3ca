"""Search random Tiny Towns games for a town whose score a mutant changes: evidence for (or against) "equivalent".

Each named mutant of a finished ``bench/mutation.sh tiny-towns-scoring`` run is planted through mutmut's
trampoline (as bench/mutation_plant.py does) and compared with the original on random games: every seat's
``score_town`` (total, breakdown, fed squares, empty squares, Cottage count) and the standings. The games are
dealt as the setup deals them (one building per colour, at most one monument per town), 1 to 4 players, with
random towns, completion rounds, Master Builder counts, resignations and Shrine values. A difference is printed
with the town; "no difference" over many games supports an equivalence argument but does not prove it.

    MUTATION_DIR=/tmp/mut-x python bench/mutation_differential.py --games 300 <mutant> ...
    ... --focus chapel greenhouse barrett-castle   # deal these buildings / monuments whenever possible
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mutants", nargs="+")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--focus", nargs="*", default=[])
    args = parser.parse_args()
    scratch = Path(os.environ.get("MUTATION_DIR", "/tmp/conductor-mutation")) / "tiny-towns-scoring"
    sys.path[:0] = [str(scratch / "mutants"), str(ROOT)]
    os.environ["MUTANT_UNDER_TEST"] = ""
    from games.tiny_towns import scoring
    from games.tiny_towns.content import CATALOGUE
    from tests.tiny_towns.helpers import game, with_town

    assert "mutants" in str(scoring.__file__), "the scoring module must come from the run's mutants/ tree"
    monuments = sorted(s for s, e in CATALOGUE.items() if e["monument"])
    by_colour: dict[str, list[str]] = {}
    for slug, entry in CATALOGUE.items():
        if not entry["monument"] and slug != "cottage":
            by_colour.setdefault(entry["colour"], []).append(slug)

    def deal(rng: random.Random) -> dict[str, Any]:
        chosen = []
        for _colour, slugs in sorted(by_colour.items()):
            wanted = [s for s in args.focus if s in slugs]
            chosen.append(rng.choice(wanted or slugs))
        players = rng.randint(1, 4)
        state = game(players, buildings=",".join(chosen), seed=rng.randint(1, 10_000))
        kinds = ["cottage"] * rng.randint(1, 4) + list(state["buildings"])
        for seat in range(players):
            monument = (
                rng.choice([m for m in args.focus if m in monuments] or monuments) if rng.random() < 0.6 else None
            )
            density = rng.random()
            tokens = []
            for _ in range(16):
                roll = rng.random()
                slug = rng.choice(kinds)
                if slug == "warehouse":
                    slug += ":" + "+".join(rng.choice(["wood", "stone"]) for _ in range(rng.randint(0, 3)))
                tokens.append("." if roll < 0.3 * density else rng.choice("WHBGS") if roll < 0.4 * density else slug)
            if monument and rng.random() < 0.8:  # kept in secret but not built in the other games
                tokens[rng.randrange(16)] = monument
            fields: dict[str, Any] = {"times_master_builder": rng.randint(0, 3), "resigned": rng.random() < 0.1}
            if rng.random() < 0.7:
                fields["completed_round"] = rng.randint(5, 9)
            if monument == "shrine-of-the-elder-tree":  # fixed at build time, the Shrine counted: never 0
                fields["shrine_vp"] = rng.choice([1, 2, 3, 4, 5, 8])
            text = " / ".join(" ".join(tokens[r * 4 : r * 4 + 4]) for r in range(4))
            state = with_town(state, seat, text, monument=monument, **fields)
        return state

    def outputs(state: dict[str, Any], mutant: str) -> str:
        os.environ["MUTANT_UNDER_TEST"] = mutant
        try:
            towns = [scoring.score_town(state, seat) for seat in range(len(state["towns"]))]
            return json.dumps([towns, scoring.standings(state)], sort_keys=True)
        except Exception as exc:  # a crash is a difference too
            return f"raised {exc!r}"
        finally:
            os.environ["MUTANT_UNDER_TEST"] = ""

    for mutant in args.mutants:
        rng = random.Random(17)
        for n in range(args.games):
            state = deal(rng)
            if outputs(state, "") != outputs(state, mutant):
                print(f"DIFFERENT {mutant} in game {n}: buildings {state['buildings']}")
                for town in state["towns"]:
                    print("   ", [c and (c.get("building") or c.get("resource")) for c in town["cells"]])
                break
        else:
            print(f"no difference {mutant} in {args.games} games", flush=True)


if __name__ == "__main__":
    main()
