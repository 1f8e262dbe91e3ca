"""The argument grammar of every card: its usage line, the words it accepts, and each refusal word for word.

Players see these texts whenever a card is played wrongly (every refusal ends with the card's usage line)
and in `/game rules trains cards`, so they are checked whole, not by a fragment.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.base import IllegalMove
from games.trains import GAME
from games.trains.content import CARDS
from games.trains.effects import normalize, usage

# Card wording (reference, kingdom list) -> the choices the command asks for; "(or 'skip')" for every
# card with an effect to leave out (Commuter Rush's Waste is not optional, trains without an effect have
# nothing to skip, Victory and Waste cannot be played at all).
USAGE = {
    "normal-train": "/trains play normal-train",
    "express-train": "/trains play express-train",
    "limited-express-train": "/trains play limited-express-train",
    "lay-rails": "/trains play lay-rails HEX (or 'skip')",
    "station-expansion": "/trains play station-expansion HEX (or 'skip')",
    "apartment": "/trains play apartment",
    "tower": "/trains play tower",
    "skyscraper": "/trains play skyscraper",
    "waste": "/trains play waste",
    "amusement-park": "/trains play amusement-park TRAIN-PLAYED-THIS-TURN (or 'skip')",
    "command-central": "/trains play command-central TYPE (train|rail|station|action|victory|waste) (or 'skip')",
    "landfill": "/trains play landfill (or 'skip')",
    "early-train": "/trains play early-train (or 'skip')",
    "freight-train": "/trains play freight-train [NUMBER-OF-WASTE] (or 'skip')",
    "mail-train": "/trains play mail-train [CARD ...] (or 'skip')",
    "tourist-train": "/trains play tourist-train (or 'skip')",
    "tunnel": "/trains play tunnel HEX (or 'skip')",
    "steel-bridge": "/trains play steel-bridge HEX (or 'skip')",
    "viaduct": "/trains play viaduct HEX (or 'skip')",
    "parallel-line": "/trains play parallel-line HEX (or 'skip')",
    "track-crew": "/trains play track-crew HEX (or 'skip')",
    "double-track": "/trains play double-track HEX HEX (or 'skip')",
    "rail-yard": "/trains play rail-yard (or 'skip')",
    "timetable": "/trains play timetable (or 'skip')",
    "transfer": "/trains play transfer [up to 2 CARDS] (or 'skip')",
    "refurbishment": "/trains play refurbishment TRAIN-TO-TRASH TRAIN-TO-GAIN (or 'skip')",
    "central-station": "/trains play central-station money | draw | rail HEX (or 'skip')",
    "scrapyard": "/trains play scrapyard [up to 2 CARDS] (or 'skip')",
    "coupling": "/trains play coupling TRAIN-CARD [ITS CHOICES] [then SECOND-CHOICES] (or 'skip')",
    "dispatcher": "/trains play dispatcher ACTION-CARD [ITS CHOICES] [then SECOND-CHOICES] (or 'skip')",
    "lost-and-found": "/trains play lost-and-found CARD-FROM-DISCARD (or 'skip')",
    "terminal": "/trains play terminal HEX (or 'skip')",
    "urban-planning": "/trains play urban-planning HEX (or 'skip')",
    "commuter-rush": "/trains play commuter-rush",
    "night-train": "/trains play night-train (or 'skip')",
    "sightseeing-bus": "/trains play sightseeing-bus (or 'skip')",
    "recycling-plant": "/trains play recycling-plant [NUMBER-OF-WASTE, at most 3] (or 'skip')",
    "signal-box": "/trains play signal-box (or 'skip')",
    "rail-magnate": "/trains play rail-magnate",
}


def test_every_card_shows_the_choices_it_takes():
    assert {slug: usage(card) for slug, card in CARDS.items()} == USAGE


def _use(slug: str) -> str:
    return f" Use: {USAGE[slug]}"


# (words after "/trains play", the whole refusal)
REFUSALS = [
    ("normal-train skip", "Normal Train has no effect to skip." + _use("normal-train")),
    ("commuter-rush skip", "Commuter Rush's effect is not optional." + _use("commuter-rush")),
    ("timetable now", "Timetable takes no choices." + _use("timetable")),
    ("lay-rails", "Lay Rails needs 1 hex." + _use("lay-rails")),
    ("double-track e4", "Double Track needs 2 hexes." + _use("double-track")),
    ("lay-rails e5x", '"e5x" is not a hex label like E5 or a city name like shinjuku.' + _use("lay-rails")),
    ("station-expansion", "Station Expansion needs the city hex." + _use("station-expansion")),
    (
        "station-expansion e5x",
        '"e5x" is not a hex label like E5 or a city name like shinjuku.' + _use("station-expansion"),
    ),
    ("terminal d5 e5", "Terminal needs the city hex." + _use("terminal")),
    ("amusement-park", "Name the Train you played this turn whose value you copy." + _use("amusement-park")),
    ("amusement-park xyz", 'Unknown train "xyz".' + _use("amusement-park")),
    ("amusement-park lay-rails", "Lay Rails is not a Train." + _use("amusement-park")),
    ("command-central", "Name one card type." + _use("command-central")),
    ("command-central trian", 'Name one card type (did you mean "train"?).' + _use("command-central")),
    ("command-central train rail", 'Name one card type (did you mean "train"?).' + _use("command-central")),
    ("freight-train 1 2", "Give at most one number." + _use("freight-train")),
    ("recycling-plant 1 2", "Give at most one number." + _use("recycling-plant")),
    ("freight-train abc", '"abc" is not a number (write it with the digits 0-9).' + _use("freight-train")),
    ("freight-train ²", '"²" is not a number (write it with the digits 0-9).' + _use("freight-train")),
    ("freight-train 1234", '"1234" is not a number (write it with the digits 0-9).' + _use("freight-train")),
    # A long word is quoted by its first 20 characters only.
    (
        "freight-train " + "x" * 21,
        f'"{"x" * 20}" is not a number (write it with the digits 0-9).' + _use("freight-train"),
    ),
    ("transfer waste waste waste", "Transfer handles at most 2 cards." + _use("transfer")),
    ("scrapyard waste waste waste", "Scrapyard handles at most 2 cards." + _use("scrapyard")),
    # "any number of cards": a sanity cap far above any hand.
    ("mail-train" + " waste" * 100, "Mail Train handles at most 99 cards." + _use("mail-train")),
    ("mail-train xyz", 'Unknown card "xyz".' + _use("mail-train")),
    ("transfer expres-train", 'Unknown card "expres-train" (did you mean "express-train"?).' + _use("transfer")),
    ("refurbishment normal-train", "Name the Train to trash and the Train to gain." + _use("refurbishment")),
    ("refurbishment xyz express-train", 'Unknown train "xyz".' + _use("refurbishment")),
    ("refurbishment normal-train lay-rails", "Lay Rails is not a Train." + _use("refurbishment")),
    ("central-station", "Choose money, draw, or rail HEX." + _use("central-station")),
    ("central-station money e5", "Choose money, draw, or rail HEX." + _use("central-station")),
    ("central-station rail", "Choose money, draw, or rail HEX." + _use("central-station")),
    (
        "central-station rail zz",
        '"zz" is not a hex label like E5 or a city name like shinjuku.' + _use("central-station"),
    ),
    ("lost-and-found", "Name the card to take from your discard pile." + _use("lost-and-found")),
    ("lost-and-found tower waste", "Name the card to take from your discard pile." + _use("lost-and-found")),
    ("lost-and-found xyz", 'Unknown card "xyz".' + _use("lost-and-found")),
    ("coupling", "Name the train card to play twice." + _use("coupling")),
    ("dispatcher", "Name the action card to play twice." + _use("dispatcher")),
    ("coupling xyz", 'Unknown card "xyz".' + _use("coupling")),
    ("coupling timetable", "Timetable is not a train card." + _use("coupling")),
    ("dispatcher apartment", "Apartment is not an action card." + _use("dispatcher")),
    # The played card's own grammar applies to each of the two plays.
    ("dispatcher timetable now", "Timetable takes no choices." + _use("timetable")),
    ("dispatcher central-station money then cash", "Choose money, draw, or rail HEX." + _use("central-station")),
]


@pytest.mark.parametrize("words,message", REFUSALS)
def test_card_refusals_are_word_for_word(words, message):
    with pytest.raises(IllegalMove) as err:
        GAME.parse(f"/trains play {words}")
    assert err.value.message == message


# (words after "/trains play", the canonical choices)
ACCEPTED = [
    ("lay-rails e5", ["E5"]),
    ("lay-rails Shinjuku", ["shinjuku"]),
    # A hex label on neither map still reads as a hex (the board refuses it by name later).
    ("lay-rails z99", ["Z99"]),
    ("double-track e4 d4", ["E4", "D4"]),
    ("freight-train", []),
    ("freight-train 007", ["7"]),
    ("freight-train 100", ["100"]),
    ("command-central TRAIN", ["train"]),
    ("central-station rail shinjuku", ["rail", "shinjuku"]),
    ("central-station draw", ["draw"]),
    ("mail-train" + " waste" * 99, ["waste"] * 99),
    ("coupling tourist-train then skip", ["tourist-train", "then", "skip"]),
    ("coupling express-train", ["express-train"]),
    ("coupling express-train then", ["express-train"]),
    ("dispatcher central-station money then draw", ["central-station", "money", "then", "draw"]),
    ("dispatcher central-station money then money", ["central-station", "money"]),
]


@pytest.mark.parametrize("words,args", ACCEPTED)
def test_card_choices_are_read_into_canonical_words(words, args):
    assert GAME.parse(f"/trains play {words}")["args"] == args


def test_a_move_whose_choices_are_not_canonical_is_refused_with_the_usage(tr):
    state = tr.scenario(["lay-rails"], rails={"E5": [0]})
    with pytest.raises(IllegalMove) as err:
        tr.GAME.apply(state, 0, {"verb": "play", "card": "lay-rails", "args": ["e4"]})
    assert err.value.message == "Arguments for Lay Rails are not canonical; use: " + USAGE["lay-rails"]


# The card list is data a group may edit (content.py checks it on load); these hooks of the grammar are
# unused by today's cards, so they are checked on edited copies of real cards.


def test_a_play_twice_card_refuses_the_cards_its_data_excludes():
    dispatcher = replace(CARDS["dispatcher"], effect={**CARDS["dispatcher"].effect, "exclude": ["dispatcher"]})
    with pytest.raises(IllegalMove) as err:
        normalize(dispatcher, ["dispatcher", "timetable"])
    assert err.value.message == "Dispatcher cannot play Dispatcher." + _use("dispatcher")
    assert normalize(dispatcher, ["coupling", "express-train"]) == ["coupling", "express-train"]


def test_a_card_of_a_kind_this_engine_does_not_know_cannot_be_played():
    unknown = replace(CARDS["timetable"], effect={"kind": "teleport"})
    with pytest.raises(IllegalMove) as err:
        normalize(unknown, ["e5"])
    assert err.value.message == "Timetable cannot be played. Use: /trains play timetable (or 'skip')"
