"""The generic standings image (any game's standings list)."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest
from PIL import Image

import games
from rendering import render_standings, theme
from rendering.standings import PAD, standings_image
from tests.rendering import synthetic
from tests.rendering.imaging import decode, diff_box

TRAINS_VIEW: dict[str, Any] = {
    "game": "trains",
    "names": ["ann", "bob", "cat"],
    "viewer": None,
    "finished": False,
    "round": 12,
}
TRAINS_STANDINGS: list[dict[str, Any]] = [
    {
        "seat": 2,
        "player": "cat",
        "score": 31,
        "rank": 1,
        "breakdown": {"Territory": 12, "Stations": 8, "VP cards": 11},
    },
    {"seat": 0, "player": "ann", "score": 25, "rank": 2, "breakdown": {"Territory": 10, "VP cards": 15}},
    {
        "seat": 1,
        "player": "bob",
        "score": 25,
        "rank": 2,
        "breakdown": {"Territory": 9, "Stations": 4, "Waste": -2},
    },
]


def test_tiny_towns_standings_png() -> None:
    view = synthetic.view(4, seed=1)
    png = decode(render_standings(view, synthetic.standings_for(view)))
    assert png.size == standings_image(view, synthetic.standings_for(view)).size
    assert png.width < 1200 and png.height < 900


def test_any_games_labels_become_rows() -> None:
    base = standings_image(TRAINS_VIEW, TRAINS_STANDINGS)
    extra = copy.deepcopy(TRAINS_STANDINGS)
    extra[1]["breakdown"]["Bonus"] = 3  # a label nobody else has adds a bar segment and a legend entry
    changed = standings_image(TRAINS_VIEW, extra)
    box = diff_box(base, changed)
    assert changed.width == base.width and box is not None
    legend_top = PAD + 48 + len(TRAINS_STANDINGS) * 58
    assert box[3] > legend_top, "the legend names the new label"
    assert box[1] < legend_top, "bob's bar grows"
    decode(render_standings(TRAINS_VIEW, TRAINS_STANDINGS))


def test_more_players_make_a_taller_chart() -> None:
    heights = []
    for players in (2, 6):
        view = synthetic.view(players, seed=1)
        image = standings_image(view, synthetic.standings_for(view))
        assert image.width <= 1600
        heights.append(image.height)
    assert heights[1] >= heights[0] + 4 * 58, "one bar row per player"


def test_scores_titles_and_ties_change_the_image() -> None:
    base = standings_image(TRAINS_VIEW, TRAINS_STANDINGS)
    rescored = copy.deepcopy(TRAINS_STANDINGS)
    rescored[0]["score"] = 32
    assert diff_box(base, standings_image(TRAINS_VIEW, rescored)) is not None
    untied = copy.deepcopy(TRAINS_STANDINGS)
    untied[2]["rank"] = 3
    assert diff_box(base, standings_image(TRAINS_VIEW, untied)) is not None
    titled = copy.deepcopy(TRAINS_STANDINGS)
    titled[0]["title"] = "Master Architect"
    assert diff_box(base, standings_image(TRAINS_VIEW, titled)) is not None


def test_empty_standings_still_render() -> None:
    decode(render_standings({"game": "tiny-towns", "names": []}, []))


def heading(image: Image.Image) -> Image.Image:
    """The title strip above the table (game name and accent rule)."""
    return image.crop((0, 0, image.width, PAD + 40))


def colours(image: Image.Image) -> set[object]:
    return {colour for _, colour in image.convert("RGB").getcolors(maxcolors=1 << 16) or []}


def with_manifest(monkeypatch: pytest.MonkeyPatch, **changes: Any) -> None:
    """Trains as registered, but with another display name or palette."""
    manifest = games.get_manifest("trains")
    if "name" in changes:
        manifest = dataclasses.replace(manifest, spec=dataclasses.replace(manifest.spec, name=changes.pop("name")))
    manifest = dataclasses.replace(manifest, **changes)
    real = games.get_manifest
    monkeypatch.setattr(games, "get_manifest", lambda slug: manifest if slug == "trains" else real(slug))


def test_heading_has_the_manifests_name_and_accent(monkeypatch: pytest.MonkeyPatch) -> None:
    accent = games.get_manifest("trains").palette["accent"]
    base = standings_image(TRAINS_VIEW, TRAINS_STANDINGS)
    assert accent in colours(heading(base))
    with_manifest(monkeypatch, name="Trains: Rising Sun")
    renamed = standings_image(TRAINS_VIEW, TRAINS_STANDINGS)
    box = diff_box(base, renamed)
    assert box is not None and box[3] <= PAD + 40, "only the heading changes with the name"


def test_without_an_accent_the_heading_keeps_the_plain_look(monkeypatch: pytest.MonkeyPatch) -> None:
    accent = games.get_manifest("trains").palette["accent"]
    accented = standings_image(TRAINS_VIEW, TRAINS_STANDINGS)
    with_manifest(monkeypatch, palette={})
    plain = standings_image(TRAINS_VIEW, TRAINS_STANDINGS)
    assert accent not in colours(heading(plain))
    box = diff_box(accented, plain)
    assert box is not None and box[3] <= PAD + 40
    # An unregistered game (an old view) still draws: its slug in words, no accent.
    unknown = standings_image({**TRAINS_VIEW, "game": "old-game"}, TRAINS_STANDINGS)
    assert accent not in colours(heading(unknown))
    box = diff_box(plain, unknown)
    assert box is not None and box[3] <= PAD + 40


def test_names_come_from_the_entries_then_the_views_names() -> None:
    nameless = [{key: value for key, value in entry.items() if key != "player"} for entry in TRAINS_STANDINGS]
    same = standings_image(TRAINS_VIEW, nameless)
    assert diff_box(standings_image(TRAINS_VIEW, TRAINS_STANDINGS), same) is None
    renamed = standings_image({**TRAINS_VIEW, "names": ["xavier", "yuki", "zoe"]}, nameless)
    assert diff_box(same, renamed) is not None
    # Entries that carry their player win over the view's names.
    assert (
        diff_box(
            standings_image({**TRAINS_VIEW, "names": ["xavier", "yuki", "zoe"]}, TRAINS_STANDINGS),
            standings_image(TRAINS_VIEW, TRAINS_STANDINGS),
        )
        is None
    )


def drawn_texts(view: dict[str, Any], standings: list[dict[str, Any]]) -> list[str]:
    with theme.recording() as drawn:
        standings_image(view, standings)
    return [item.text for item in drawn]


def test_the_summary_explains_the_winner_tie_breaks_and_who_left() -> None:
    final = {**TRAINS_VIEW, "finished": True}
    ranked = copy.deepcopy(TRAINS_STANDINGS)
    ranked[2]["rank"] = 3  # ann and bob tie on 25; the rails tie-break put ann first
    texts = drawn_texts(final, ranked)
    assert "Winner: cat with 31 points." in texts
    assert "ann ranks above bob on equal points by the tie-break: more rails on the board." in texts
    shared = drawn_texts(final, TRAINS_STANDINGS)
    assert "ann and bob tie on 25 points and share the place." in shared
    # Before the end nobody is called the winner.
    assert not any(text.startswith("Winner") for text in drawn_texts(TRAINS_VIEW, ranked))
    left = copy.deepcopy(ranked)
    left[2]["title"] = "kicked"
    texts = drawn_texts(final, left)
    assert "bob kicked: ranked last." in texts and "bob (kicked)" in texts


def test_every_breakdown_label_has_a_legend_entry_and_a_segment() -> None:
    texts = drawn_texts(TRAINS_VIEW, TRAINS_STANDINGS)
    for label in ("Territory", "Stations", "VP cards", "Waste"):
        assert label in texts
    # Segment values are printed where they fit; the negative part too.
    assert "12" in texts and "-2" in texts


def test_each_game_words_its_tie_break_in_its_manifest() -> None:
    from rendering.standings import _tie_break

    built_in = ("tiny-towns", "trains", "tramways", "trolley-town")
    rules = {slug: games.get_manifest(slug).tie_break for slug in built_in}
    assert all(rules.values()) and len(set(rules.values())) == len(built_in)
    assert all(_tie_break(slug) == rule for slug, rule in rules.items())
    assert _tie_break("no-such-game") == "the game's tie-break rules"
