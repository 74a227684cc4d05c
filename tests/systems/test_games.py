"""The order systems rate in (docs/systems.md §1): waves of units that share no player."""

from __future__ import annotations

import numpy as np

from rating_batch.systems.games import waves


def test_units_sharing_a_player_come_in_order_others_together() -> None:
    # Units 0 (players 1, 2), 1 (3, 4), 2 (2, 3), 3 (5, 6): 0, 1 and 3 share no one: wave 1;
    # unit 2 follows 0 and 1: wave 2.
    unit = np.array([0, 0, 1, 1, 2, 2, 3, 3])
    pidx = np.array([1, 2, 3, 4, 2, 3, 5, 6])
    assert waves(unit, pidx).tolist() == [1, 1, 1, 1, 2, 2, 1, 1]


def test_a_player_in_every_unit_makes_them_one_after_another() -> None:
    unit = np.array([2, 2, 0, 0, 1, 1])
    pidx = np.array([0, 3, 0, 1, 0, 2])
    assert waves(unit, pidx).tolist() == [3, 3, 1, 1, 2, 2]
