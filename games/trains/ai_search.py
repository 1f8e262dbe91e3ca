"""Trains level 2: level 1's card play with level 2's own rules, and the end-game buys chosen by
determinized Monte Carlo.

- Starting rail: level 1's choice without its penalty for starting near another seat (ai_start.py).
- Card play follows level 1 (its candidates, checked with ``apply``), except: rails are laid by
  level 2's plan, which prefers cities no other seat reaches (ai_rails.py); stations go only where
  they gain over the other seats (ai_play.py); and the last rail, which ends the game, is never laid
  while the bot would then lose (ai_end.py, from public scores).
- Buying while the projected end of the game is far (``_BUILD_UNTIL`` own turns) follows level 1's
  plan, minus station cards with no city to use them (ai_buy.py). In the last turns, what to buy
  decides the game, so level 2 searches it: every affordable card (and pairs of the best few) is
  judged by simulating the bot's own remaining turns over several determinized orders of its own
  cards (the composition it knows, never the true order of its draw pile, and nothing of any other
  seat's hand or deck). Each simulated hand is turned into points with a simple model: rails laid,
  stations, money spent on victory cards in the last turns.

Random numbers come from a hash of the bot's own cards (as counts) and the public board, so a move
is the same each time the host recomputes it. The weights were tuned against level 1 on 60 seeded
2-player games per map (seeds 1000-1059) and confirmed by bench/bench_ai.py on its own seeds (0-199).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

from games.base import MOVE_KEY, IllegalMove, Move, State
from games.rng import Rng
from games.trains import ai, ai_buy, ai_end, ai_play, ai_rails, ai_start, movegen
from games.trains.content import CARDS, RULES
from games.trains.deck import all_cards
from games.trains.rules import apply
from games.trains.scoring import rails_on_board

_SAMPLES = 16  # determinized futures per decision
_HORIZON = 16  # simulated own turns at most
_RAIL_VP = 2.5  # points a rail brings on average (tuned: 2.5 beat 1.0 and 1.6 with ai_rails)
_STATION_VP = 0.5  # points a station card brings (tuned: 0.5 beat 1.5 and 2.5: level 1 follows stations)
_EARLY_MONEY = 1.6  # points per coin early
_PACE = 1.5  # scales the projected end: level 2 plans for a somewhat longer game than the raw pace
_WASTE = 0.15  # the Waste a rail or a station brings clogs later hands
_BUILD_UNTIL = 10.0  # projected own turns left above which level 1's buying plan is kept
_PAIRS = 4  # best single buys combined into pairs
_LATE = 4  # simulated last turns in which money buys victory cards
_STATION_RULE = True  # level 2 places stations by ai_play (tuning switch)
_RAIL_RULE = True  # level 2 lays rails by ai_rails (tuning switch)
_END_GUARD = True  # never lay the last rail (ending the game) while that loses it
_VP_COSTS = (("skyscraper", 8, 4), ("tower", 5, 2), ("apartment", 3, 1))


def choose(state: State, seat: int) -> Move:
    """The level-2 move for ``seat`` (who is to act)."""
    if state["phase"] == "start":
        return {MOVE_KEY: "start", "hex": ai_start.best_start(state, seat)}
    for move in _plays(state, seat):
        try:
            after, _ = apply(state, seat, move)
        except IllegalMove:
            continue
        if _END_GUARD and ai_end.ends_behind(state, after, seat):
            continue
        return move
    bought = _choose_buy(state, seat)
    if bought is not None:
        return bought
    return {MOVE_KEY: "end"}


def _plays(state: State, seat: int) -> Iterator[Move]:
    """Level 1's candidates before its buys (cards, rails), with level 2's own stations."""
    rails_done = False
    for move in ai._candidates(state, seat):
        if move[MOVE_KEY] in ("buy", "end"):
            return
        if _RAIL_RULE and ai_rails.is_rail_move(move):
            if not rails_done:  # level 2's own rail plan, where level 1's rail moves come
                rails_done = True
                yield from ai_rails.rail_moves(state, seat)
            continue
        if _STATION_RULE and ai_play.is_plain_station(move):
            mine = ai_play.station_move(state, seat, str(move["card"]))
            if mine is not None:
                yield mine
            continue
        yield move


# ---------------------------------------------------------------- buys


def turns_left(state: State, seat: int) -> float:
    """Own turns until the game likely ends (each end condition projected at a rough pace)."""
    players = [p for p in state["players"] if not p["resigned"]]
    n = max(1, len(players))
    empty = sum(1 for s in state["piles"] if state["supply"][s] == 0)
    low_piles = sorted(state["supply"][s] for s in state["piles"] if state["supply"][s] > 0)
    need = max(0, RULES["end_empty_piles"] - empty)
    piles = sum(low_piles[:need]) / (0.8 * n) if need else 0.0
    rails = min(p["rails_left"] for p in players) / 1.3
    stations = state["stations_left"] / (0.5 * n)
    return max(1.0, _PACE * min(piles, rails, stations, 30.0))


def _rng(state: State, seat: int) -> Rng:
    """Seeded only by what the seat sees: its own cards (as counts) and the public board."""
    player = state["players"][seat]
    mine = ",".join(sorted(all_cards(player)))
    public = repr((sorted(state["rails"].items()), sorted(state["stations"].items()), state["move_number"], seat))
    return Rng(zlib.crc32(f"{mine}|{public}".encode()) | (seat + 1) << 32)


def _future_value(cards: list[str], horizon: float, orders: list[list[float]], state: State, seat: int) -> float:
    """Average points the deck ``cards`` makes over ``horizon`` own turns, over determinized orders."""
    turns = max(1, min(_HORIZON, round(horizon)))
    hand_size = RULES["hand_size"]
    rails_left = state["players"][seat]["rails_left"]
    late_from = max(0, round(horizon) - _LATE)  # money buys victory cards in the last turns
    total = 0.0
    for keys in orders:
        order = [c for _, c in sorted(zip(keys[: len(cards)], cards, strict=False))]
        pos = 0
        rails = rails_left
        value = 0.0
        for t in range(turns):
            hand = []
            draw = hand_size
            while draw > 0:
                card = order[pos % len(order)]
                pos += 1
                hand.append(card)
                draw -= 1
                effect = CARDS[card].effect
                if effect.get("kind") == "draw":
                    draw += int(effect.get("count", 0))
            # Commuter Rush brings a Waste: count its money one short.
            money = sum(CARDS[c].money - (1 if CARDS[c].kind == "gain_waste" else 0) for c in hand)
            lay = sum(int(CARDS[c].effect.get("rails", 0)) for c in hand if CARDS[c].kind == "lay_rails")
            lay = min(lay, rails, money + 1)  # most rails cost a coin or so
            rails -= lay
            money -= lay // 2
            stations = sum(1 for c in hand if CARDS[c].kind in ("station", "terminal"))
            value += lay * _RAIL_VP + stations * _STATION_VP - _WASTE * (lay + stations)
            value += sum(float(CARDS[c].effect.get("vp", 0)) for c in hand if CARDS[c].kind == "track_vp")
            if t >= late_from:
                for _, cost, vp in _VP_COSTS:
                    while money >= cost:
                        money -= cost
                        value += vp
            else:
                value += _EARLY_MONEY * max(0, money - 2)
        total += value
    return total / len(orders)


def _card_points(slug: str, state: State, seat: int) -> float:
    card = CARDS[slug]
    points = float(card.vp)
    if card.vp_per_rails:
        rails = rails_on_board(state, seat) + 0.6 * state["players"][seat]["rails_left"]
        points += rails // card.vp_per_rails
    return points


def _affordable(state: State) -> list[str]:
    money = state["turn"]["money"]
    return [s for s in state["piles"] if state["supply"][s] > 0 and CARDS[s].cost <= money]


def _buy_move(state: State, chosen: tuple[str, ...]) -> Move:
    slug = max(chosen, key=lambda s: (CARDS[s].cost, s))  # the dearer first: the money then fits the other
    early = state["turn"]["early"] and CARDS[slug].type != "victory"
    return {MOVE_KEY: "buy", "card": slug, "top": early}


def _choose_buy(state: State, seat: int) -> Move | None:
    if state["turn"]["money"] < 1:
        return None
    if not any(m[MOVE_KEY] == "buy" for m in movegen.legal_moves(state, seat)):
        return None
    horizon = turns_left(state, seat)
    if horizon > _BUILD_UNTIL:  # building the network and the deck: level 1's plan, adapted
        return ai_buy.build_buy(state, seat)
    cards = sorted(all_cards(state["players"][seat]))  # sorted: the samples must not follow the deck order
    rng = _rng(state, seat)
    width = len(cards) + 2
    orders = [[rng.below(1 << 30) / (1 << 30) for _ in range(width)] for _ in range(_SAMPLES)]

    def judge(chosen: tuple[str, ...]) -> float:
        value = _future_value(cards + list(chosen), horizon, orders, state, seat)
        return value + sum(_card_points(s, state, seat) for s in chosen)

    # Single cards first; pairs only of the best few singles (the search stays within its budget).
    singles = sorted(((judge((s,)), (s,)) for s in _affordable(state)), reverse=True)
    best: tuple[float, tuple[str, ...]] = (judge(()), ())
    for value, chosen in singles:
        if value > best[0] + 1e-9:
            best = (value, chosen)
    money = state["turn"]["money"]
    top = [c[0] for _, c in singles[:_PAIRS]]
    for i, a in enumerate(top):
        for b in top[i:]:
            if CARDS[a].cost + CARDS[b].cost <= money and (a != b or state["supply"][a] >= 2):
                value = judge((a, b))
                if value > best[0] + 1e-9:
                    best = (value, (a, b))
    if not best[1]:
        return None
    move = _buy_move(state, best[1])
    try:
        apply(state, seat, move)
    except IllegalMove:
        return None
    return move


__all__ = ["choose", "turns_left"]
