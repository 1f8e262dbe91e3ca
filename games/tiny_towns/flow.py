"""Round progression: who names the resource, readiness, town completion, game end."""

from __future__ import annotations

from typing import Any

from games.base import Event, Standing, State, Status
from games.rng import Rng
from games.tiny_towns.bitboard import SPANS, Board, could_fit_any_counts, counts_of, joint_fits, town_board
from games.tiny_towns.content import CATALOGUE, RULES
from games.tiny_towns.copying import own_all_towns
from games.tiny_towns.scoring import standings
from games.tiny_towns.town import has_built, is_full, possible_monuments, with_choices


def active_seats(state: State) -> list[int]:
    # town.is_active inlined: this runs several times per move.
    return [s for s, town in enumerate(state["towns"]) if not town.get("complete") and not town.get("resigned")]


def named_by_other(state: State, seat: int) -> bool:
    """Factory, Warehouse, Statue and cave react only to a resource named by someone else."""
    source = state.get("source")
    if source == "master":
        return state.get("named_by") != seat
    return source in ("mayor", "solo")


def cycle_step(state: State) -> str:
    cycle = RULES["town_hall"]["cycle"]
    return cycle[(state["round"] - 1) % len(cycle)]


def next_master_builder(state: State, after: int, active: list[int] | None = None) -> int | None:
    """Next seat to the left that may hold the hammer (completed towns and Fort owners skipped).

    ``active``: active_seats(state), when the caller has it."""
    towns = state["towns"]
    n = len(towns)
    if active is None:
        active = active_seats(state)
    if not active:
        return None
    # (has_built(town, "fort-ironweed") inlined: this runs at every round's end)
    eligible = [
        s for s in active if not (towns[s].get("monument_built") and towns[s].get("monument") == "fort-ironweed")
    ]
    pool = eligible or active
    for k in range(1, n + 1):
        seat = (after + k) % n
        if seat in pool:
            return seat
    return None


def _draw_town_hall(state: State, events: list[Event]) -> str:
    hall = state["town_hall"]
    if not hall["draw_pile"]:
        rng = Rng(state["rng"])
        pile = rng.shuffled(hall["discards"])
        state["rng"] = rng.state
        face_down = RULES["town_hall"]["discard_face_down"]
        hall["discards"] = pile[:face_down]
        hall["draw_pile"] = pile[face_down:]
        events.append(
            {
                "text": f"The resource deck is reshuffled and {face_down} cards are discarded face down.",
                "irreversible": True,
            }
        )
    card = hall["draw_pile"].pop(0)
    hall["revealed"] = card
    return card


def start_round(state: State, events: list[Event]) -> None:
    """Open state['round']: reset readiness and name the resource where that is automatic.

    Every town changes: the callers (check_round_end, begin_play) own them all first."""
    for town in state["towns"]:
        town["placed"] = False
        town["done"] = False
        town["skipped"] = False
    state["resource"] = None
    state["source"] = None
    state["named_by"] = None
    variant = state["variant"]
    if variant == "standard":
        state["phase"] = "announce"
        return
    if variant == "solo":
        state["phase"] = "announce"
        return
    state["phase"] = "place"
    if cycle_step(state) == "draw":
        card = _draw_town_hall(state, events)
        state["resource"] = card
        state["source"] = "mayor"
        mayor = state["names"][state["town_hall"]["mayor"]]
        events.append({"text": f"Round {state['round']}: the Mayor ({mayor}) draws {card}.", "irreversible": True})
    else:
        state["source"] = "free"
        events.append({"text": f"Round {state['round']}: free choice, everyone places a resource of their choice."})
        active = active_seats(state)
        for seat in active:
            town = state["towns"][seat]
            if len(active) > 1 and has_built(town, "fort-ironweed"):
                town["placed"] = True
                town["skipped"] = True
                events.append({"text": f"{state['names'][seat]} (Fort Ironweed) takes no resource this round."})
        for seat in active:
            maybe_auto_done(state, seat, events)
        check_round_end(state, events)


def claimable(town: dict[str, Any]) -> bool:
    return bool(town.get("pending_claims")) and None in town["cells"]


def complete_town(state: State, seat: int, events: list[Event]) -> None:
    town = state["towns"][seat]
    town["complete"] = True
    town["completed_round"] = state["round"]
    town["pending_claims"] = []
    events.append({"text": f"{state['names'][seat]}'s town is complete."})


def mark_done(state: State, seat: int, events: list[Event], auto: bool) -> None:
    town = state["towns"][seat]
    town["done"] = True
    if town.get("pending_claims"):
        lapsed = ", ".join(CATALOGUE[s]["name"] for s in town["pending_claims"])
        events.append({"text": f"{state['names'][seat]} has no empty square: the claim on {lapsed} lapses."})
        town["pending_claims"] = []
    if None not in town["cells"]:  # (town.is_full)
        complete_town(state, seat, events)
    elif auto:
        text = "You cannot build anything now: you are done for this round."
        events.append({"private": {"seat": seat, "text": text}})


def maybe_auto_done(state: State, seat: int, events: list[Event], board: Board | None = None) -> None:
    """A player who has placed and has no possible build left is done automatically (the
    reference's readiness rule 8), their secret monument included.

    Whether a player is done is public. When only the secret monument can decide it (no public
    building fits, but some monument it might be does), the answer tells the others something
    about that monument: the move that led here is flagged irreversible (hidden information came
    out, so it can't be taken back), as a card draw would be.
    """
    town = state["towns"][seat]
    # town.is_active and claimable inlined: this runs after almost every move.
    # (subscripts, as rules._require_town_in_play: every town has both fields, setup.new_town)
    if not town["placed"] or town["done"] or town["complete"] or town["resigned"]:
        return
    if town.get("pending_claims") and None in town["cells"]:
        return
    if board is None:  # (the place handler passes the board it just worked out for the squares)
        board = town_board(town["cells"])  # read once for the questions below (and remembered)
    monument = town.get("monument") if not town.get("monument_built") else None
    # The public buildings and the kept monument matched at once (bitboard.joint_fits).
    slugs = state["buildings"]
    fits = joint_fits((*slugs, monument) if monument else tuple(slugs), board)
    # town.has_any_build(state, seat, "public", board) inlined: pattern first, it rules out most.
    if fits:
        for slug in slugs:
            # (with_choices inlined: only a Bank can have no choice, when every resource is banked)
            if fits & SPANS[slug] and (_ABILITY.get(slug) != "bank" or with_choices(state, seat, slug)):
                return
    # (possible_monuments' first test inlined: no kept monument, or a built one, and nothing is secret)
    possible = possible_monuments(state, seat) if monument else ()
    if monument and possible:  # an unbuilt secret monument decides
        # (town.monument_fits inlined: possible_monuments is not empty only for a kept, unbuilt one)
        if fits & SPANS[monument] and with_choices(state, seat, monument):
            events.append({"irreversible": True})
            return
        # (town.might_fit_a_monument, with the list above) it might have fitted: not fitting says which it is not
        if could_fit_any_counts(possible, counts_of(board)):
            events.append({"irreversible": True})
    mark_done(state, seat, events, auto=True)


_ABILITY: dict[str, Any] = {slug: entry.get("ability") for slug, entry in CATALOGUE.items()}


def after_claim(state: State, seat: int, events: list[Event]) -> None:
    town = state["towns"][seat]
    if town["done"]:
        if is_full(town["cells"]):
            complete_town(state, seat, events)
    else:
        maybe_auto_done(state, seat, events)


def round_over(state: State) -> bool:
    if state["phase"] != "place":
        return False
    # active_seats and claimable inlined: this runs after every move and usually stops at the first town.
    for town in state["towns"]:
        # (subscripts, as rules._require_town_in_play: every town has both fields, setup.new_town)
        if town["complete"] or town["resigned"]:
            continue
        if not town["done"] or (town.get("pending_claims") and None in town["cells"]):
            return False
    return True


def check_round_end(state: State, events: list[Event]) -> None:
    if not round_over(state):
        return
    own_all_towns(state)  # after rules.fork the other towns are shared with the old state
    towns = state["towns"]
    active = active_seats(state)  # (the steps below change no town's complete or resigned)
    for seat in active:  # claims nobody can use any more
        towns[seat]["pending_claims"] = []
    if state["town_hall"] and state["town_hall"]["revealed"]:
        state["town_hall"]["discards"].append(state["town_hall"]["revealed"])
        state["town_hall"]["revealed"] = None
    if not active:
        finish(state, events)
        return
    events.append({"text": f"Round {state['round']} is over.", "post_board": True})
    state["round"] += 1
    if state["variant"] == "standard":
        previous = state["master_builder"]
        state["master_builder"] = next_master_builder(state, previous if previous is not None else -1, active)
    start_round(state, events)


def finish(state: State, events: list[Event]) -> None:
    global _LAST_FINISHED
    state["phase"] = "finished"
    state["resource"] = None
    state["source"] = None
    table = standings(state)
    _LAST_FINISHED = (state, table)
    winners = [row["player"] for row in table if row["rank"] == 1]
    scores = ", ".join(f"{row['player']} {row['score']}" for row in table)
    title = f" ({table[0]['title']})" if "title" in table[0] else ""
    events.append({"text": f"Game over. Winner: {' and '.join(winners)}{title}. Scores: {scores}.", "post_board": True})


# The state finish() ended last and its standings: status() is asked of that very state right after
# the move, and scoring every town twice cost about 3% of a game. A state returned by apply is never
# changed in place (the states after it share its parts), so the same object has the same standings.
_LAST_FINISHED: tuple[State, list[Standing]] | None = None


def final_standings(state: State) -> list[Standing]:
    """``scoring.standings(state)`` of a finished state, reused when finish() just computed it."""
    last = _LAST_FINISHED
    if last is not None and last[0] is state:
        return last[1]
    return standings(state)


_STATUSES: dict[tuple[tuple[int, ...], str], Status] = {}


def open_status(to_act: tuple[int, ...], summary: str) -> Status:
    """``Status(to_act, False, summary)``, the same object for the same fields (a Status is frozen):
    status runs after every move and the frozen dataclass's __init__ was a tenth of it."""
    key = (to_act, summary)
    found = _STATUSES.get(key)
    if found is None:
        if len(_STATUSES) >= 4096:  # a long-lived worker sees every player name: keep it bounded
            _STATUSES.clear()
        found = _STATUSES[key] = Status(to_act, False, summary)
    return found


def begin_play(state: State, events: list[Event]) -> None:
    """After setup (or the monuments phase): hand out the hammer and open round 1."""
    own_all_towns(state)  # after rules.fork the other towns are shared with the old state
    if state["variant"] == "standard":
        start = RULES["start_master_builder"]
        state["master_builder"] = next_master_builder(state, (start - 1) % len(state["towns"]))
    if not active_seats(state):
        finish(state, events)
        return
    start_round(state, events)
