"""The house's rules (docs/architecture.md, "The house"), read from the code with ``ast``:
what a rating system is (``systems/``) stands on the ground and imports nothing above it,
how a command runs one (``pipelines/``) imports no command, no import runs back up a floor
and no modules import each other in a circle."""

from __future__ import annotations

import pytest
from layers import Import, house, imports

#: What ``systems/`` may import besides itself: the ground floor.
GROUND = {"errors", "schema", "periods", "values", "rules_check"}
#: The commands and faces: nothing below them imports them.
COMMANDS = {"monthly", "cli", "web", "rate", "compare", "norms", "__main__"}

FOUND = imports()


def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _named(found: list[Import]) -> list[str]:
    return [f"{each.source} (line {each.line}) imports {each.target}" for each in found]


def test_systems_import_only_the_ground() -> None:
    above = [
        each
        for each in FOUND
        if _top(each.source) == "systems" and _top(each.target) not in {"systems", *GROUND}
    ]
    assert _named(above) == []


def test_titles_stand_beside_the_systems() -> None:
    """Norms and title applications (titles/) are pure like the systems: the ground, and
    FIDE Elo's tables (the dp table) of systems/."""
    above = [
        each
        for each in FOUND
        if _top(each.source) == "titles" and _top(each.target) not in {"titles", "systems", *GROUND}
    ]
    assert _named(above) == []


def test_pipelines_import_no_command() -> None:
    commands = [
        each for each in FOUND if _top(each.source) == "pipelines" and _top(each.target) in COMMANDS
    ]
    assert _named(commands) == []


@pytest.mark.parametrize(
    "opened", [(), ("systems", "pipelines"), ("systems", "pipelines", "monthly")]
)
def test_no_import_runs_back_up_a_floor(opened: tuple[str, ...]) -> None:
    assert house(opened, FOUND).back_up == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert house((), FOUND).circles == []


def test_an_import_back_down_is_seen_as_one_back_up_and_a_circle() -> None:
    """The rules above can fail: systems.glicko2 importing monthly.add, which imports it."""
    down = Import("rating_batch.monthly.add", "rating_batch.systems.glicko2", 1, True)
    up = Import("rating_batch.systems.glicko2", "rating_batch.monthly.add", 9, True)
    drawn = house((), [down, up])
    assert len(drawn.back_up) == 1
    assert drawn.circles == [["rating_batch.monthly.add", "rating_batch.systems.glicko2"]]
    assert house(("systems",), [down]).back_up == []
