"""Factory, Bank, Warehouse, Shed abilities, played through apply()."""

from __future__ import annotations

from tests.tiny_towns.helpers import at_place_phase, game, play, rejected, score, with_town


def _two(buildings: str) -> dict:
    return game(2, buildings)


def test_factory_substitutes_when_another_player_names_its_resource() -> None:
    state = with_town(
        _two("farm,well,chapel,tavern,theater,factory"), 1, "factory:wood . . . / . . . . / . . . . / . . . ."
    )
    state = at_place_phase(state, "wood")  # seat 0 names wood
    new, _ = play(state, 1, "/tt place B1 glass")
    assert new["towns"][1]["cells"][1] == {"resource": "glass"}
    assert "Factories holds" in rejected(state, 0, "/tt place B1 glass")
    stone = at_place_phase(
        with_town(
            _two("farm,well,chapel,tavern,theater,factory"), 1, "factory:wood . . . / . . . . / . . . . / . . . ."
        ),
        "stone",
    )
    assert "This round's resource is stone" in rejected(stone, 1, "/tt place B1 glass")


def test_factory_does_not_react_to_its_owners_own_naming() -> None:
    state = with_town(
        _two("farm,well,chapel,tavern,theater,factory"), 0, "factory:wood . . . / . . . . / . . . . / . . . ."
    )
    state = at_place_phase(state, "wood")
    assert "another player named it" in rejected(state, 0, "/tt place B1 glass")


def test_factory_and_bank_hold_the_resource_given_with() -> None:
    state = at_place_phase(_two("farm,well,chapel,tavern,theater,factory"))
    state = with_town(state, 0, "W . . . / B S S B / . . . . / . . . .", placed=True)
    assert "add 'with <resource>'" in rejected(state, 0, "/tt build factory A1 A2 B2 C2 D2 at A1")
    new, _ = play(state, 0, "/tt build factory A1 A2 B2 C2 D2 at A1 with wheat")
    assert new["towns"][0]["cells"][0] == {"building": "factory", "holds": "wheat"}
    assert "Only a Factory or a Bank" in rejected(
        with_town(state, 0, "W S . . / . . . . / . . . . / . . . .", placed=True), 0, "/tt build well A1 B1 with wood"
    )


def test_bank_resource_may_not_be_named_and_banks_hold_different_resources() -> None:
    state = with_town(_two("farm,well,chapel,tavern,theater,bank"), 0, "bank:wood . . . / H H . . / W G B . / . . . .")
    assert "Your Bank holds wood" in rejected(state, 0, "/tt announce wood")
    state = at_place_phase(state, "stone")
    state["towns"][0]["placed"] = True
    assert "already holds wood" in rejected(state, 0, "/tt build bank A2 B2 A3 B3 C3 at A3 with wood")
    new, _ = play(state, 0, "/tt build bank A2 B2 A3 B3 C3 at A3 with glass")
    assert new["towns"][0]["cells"][8] == {"building": "bank", "holds": "glass"}
    assert score(new) == 8 - 14


def test_bank_restriction_does_not_bind_other_players() -> None:
    state = with_town(_two("farm,well,chapel,tavern,theater,bank"), 1, "bank:wood . . . / . . . . / . . . . / . . . .")
    new, _ = play(state, 0, "/tt announce wood")
    assert new["resource"] == "wood"


def test_warehouse_store_swap_and_final_score() -> None:
    base = with_town(
        _two("farm,well,chapel,tavern,theater,warehouse"), 1, "warehouse:wood+stone . . . / . . . . / . . . . / . . . ."
    )
    state = at_place_phase(base, "glass")
    new, _ = play(state, 1, "/tt store A1")
    assert new["towns"][1]["cells"][0]["stored"] == ["wood", "stone", "glass"]
    assert new["towns"][1]["placed"]
    assert score(new, 1) == -3 - 15
    full = at_place_phase(with_town(base, 1, "warehouse:wood+stone+glass . . . / . . . . / . . . . / . . . ."), "brick")
    assert "is full" in rejected(full, 1, "/tt store A1")
    assert "holds wood, stone, glass, not wheat" in rejected(full, 1, "/tt store A1 swap wheat to B1")
    swapped, _ = play(full, 1, "/tt store A1 swap stone to B1")
    cells = swapped["towns"][1]["cells"]
    assert cells[0]["stored"] == ["wood", "glass", "brick"]
    assert cells[1] == {"resource": "stone"}
    # A Warehouse only reacts to another player's resource.
    own = at_place_phase(with_town(base, 0, "warehouse . . . / . . . . / . . . . / . . . ."), "brick")
    assert "named by another player" in rejected(own, 0, "/tt store A1")


def test_shed_goes_on_any_empty_square() -> None:
    state = at_place_phase(_two("farm,shed,chapel,tavern,theater,factory"))
    state = with_town(state, 0, "W S . . / . . . . / . . . . / . . . .", placed=True)
    new, _ = play(state, 0, "/tt build shed A1 B1 at D4")
    cells = new["towns"][0]["cells"]
    assert cells[15] == {"building": "shed"} and cells[0] is None and cells[1] is None


def test_other_buildings_go_on_a_freed_square() -> None:
    state = at_place_phase(_two("farm,well,chapel,tavern,theater,factory"))
    state = with_town(state, 0, "W S . . / . . . . / . . . . / . . . .", placed=True)
    assert "must go on a square just freed: A1, B1" in rejected(state, 0, "/tt build well A1 B1 at D4")


def test_occupied_square_names_its_content() -> None:
    state = at_place_phase(with_town(_two("first-game"), 1, "cottage W . . / . . . . / . . . . / . . . ."))
    assert "A1 already holds a Cottage" in rejected(state, 1, "/tt place A1")
    assert "B1 already holds a wood cube" in rejected(state, 1, "/tt place B1")


def test_building_not_in_play_is_refused() -> None:
    state = at_place_phase(_two("first-game"))
    state = with_town(state, 0, "W S . . / . . . . / . . . . / . . . .", placed=True)
    assert "not in play" in rejected(state, 0, "/tt build shed A1 B1")
    assert "not your monument" in rejected(state, 0, "/tt build fort-ironweed A1 B1")
