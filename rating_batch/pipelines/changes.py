"""What a published list changes against the previous one (``changes.csv``, the ``Changes``
sheet and the terminal summary): players new on the list, players leaving it and why, every
rating change largest first, inactivity, and corrected player data."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.periods import Period
from rating_batch.store import Store
from rating_batch.values import text_of

CHANGE_COLUMNS = {
    "change": "string", "id": "string", "name": "string", "federation": "string",
    "rating_before": "Int64", "rating_after": "Int64", "difference": "Int64",
    "field": "string", "before": "string", "after": "string", "reason": "string",
}  # fmt: skip
"""``change`` is ``new``, ``left``, ``rating``, ``inactive``, ``active`` or ``correction``."""

CORRECTED_FIELDS = ("name", "federation", "sex", "title", "birth_year", "fide_id")


def list_changes(
    before: pd.DataFrame,
    after: pd.DataFrame,
    people: pd.DataFrame,
    players: pd.DataFrame,
    edits: pd.DataFrame,
) -> pd.DataFrame:
    """The changes from the list ``before`` to ``after``.

    Expects ``before`` and ``after``: player_id, rating, inactive (a list's states; rated
    players are on the list); ``people``: player_id, id, name, federation and the corrected
    fields as they are now; ``players``: the period's player_id, status, new_rating,
    rating_source and, when the list took an adjustment (docs/rules.md §7), adjustment;
    ``edits``: player_id, field, old_value (edits since the previous list, in order).
    Returns ``CHANGE_COLUMNS``, in the order described above."""
    old = before.set_index("player_id")[["rating", "inactive"]]
    new = after.set_index("player_id")[["rating", "inactive"]]
    ids = old.index.union(new.index)
    old, new = old.reindex(ids), new.reindex(ids)
    was, now = old["rating"].notna(), new["rating"].notna()
    status = players.set_index("player_id")["status"].reindex(ids).astype("string")
    source = players.set_index("player_id")["rating_source"].reindex(ids).astype("string")
    computed = players.set_index("player_id")["new_rating"].reindex(ids)
    frames = []

    def rows(mask: pd.Series, change: str, **columns: object) -> None:
        chosen = ids[mask.to_numpy(bool)]
        if len(chosen):
            frames.append(pd.DataFrame({"player_id": chosen, "change": change, **{
                name: (value.reindex(chosen).to_numpy() if isinstance(value, pd.Series) else value)
                for name, value in columns.items()
            }}))  # fmt: skip

    rating_before, rating_after = old["rating"].astype("Int64"), new["rating"].astype("Int64")
    arrived = ~was & now
    rows(
        arrived,
        "new",
        rating_after=rating_after,
        # A first rating, or a rapid/blitz list joined from the standard rating (§6).
        reason=status.map({"new": "first_rating"})
        .fillna(source.map({"standard": "standard_rating"}))
        .fillna(""),
    )
    left = was & ~now
    floor = status == "below_floor"
    rows(
        left,
        "left",
        rating_before=rating_before,
        rating_after=pd.Series(computed, dtype="Float64").round().astype("Int64").where(floor),
        reason=pd.Series(np.where(floor, "below_floor", "other"), index=ids),
    )
    stayed = was & now
    difference = (rating_after - rating_before).where(stayed)
    # A list adjustment (docs/rules.md §7) is said where it moved the rating.
    raised = players.set_index("player_id").get("adjustment", pd.Series(dtype="Int64"))
    raised = pd.Series(raised, dtype="Int64").reindex(ids).fillna(0).gt(0)
    rows(
        stayed & (difference != 0).fillna(False),
        "rating",
        rating_before=rating_before,
        rating_after=rating_after,
        difference=difference,
        reason=pd.Series("adjustment", index=ids, dtype="string").where(raised),
    )
    flag_before = old["inactive"].fillna(0).astype(bool)
    flag_after = new["inactive"].fillna(0).astype(bool)
    rows(now & flag_after & ~flag_before, "inactive", rating_after=rating_after)
    rows(now & was & ~flag_after & flag_before, "active", rating_after=rating_after)
    changes = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame({"player_id": []})
    changes = pd.concat([changes, _corrections(edits, people, ids[(was | now).to_numpy()])])
    return _ordered(changes, people)


def _corrections(edits: pd.DataFrame, people: pd.DataFrame, listed: pd.Index) -> pd.DataFrame:
    """Fields of listed players that differ from what they were at the previous list."""
    edits = edits[edits["player_id"].isin(listed) & edits["field"].isin(CORRECTED_FIELDS)]
    first = edits.drop_duplicates(["player_id", "field"], keep="first")
    if first.empty:
        return pd.DataFrame({"player_id": []})
    current = people.set_index("player_id")
    now = [
        current.at[player, field] if player in current.index else None
        for player, field in zip(first["player_id"], first["field"], strict=True)
    ]
    found = first.assign(before=first["old_value"].map(text_of), after=[text_of(v) for v in now])
    found = found[found["before"] != found["after"]]
    return pd.DataFrame(
        {
            "player_id": found["player_id"].to_numpy(),
            "change": "correction",
            "field": found["field"].to_numpy(),
            "before": found["before"].to_numpy(),
            "after": found["after"].to_numpy(),
        }
    )


_ORDER = {"new": 0, "left": 1, "rating": 2, "inactive": 3, "active": 4, "correction": 5}


def _ordered(changes: pd.DataFrame, people: pd.DataFrame) -> pd.DataFrame:
    who = people.set_index("player_id")[["id", "name", "federation"]]
    changes = changes.join(who, on="player_id")
    for name, dtype in CHANGE_COLUMNS.items():
        if name not in changes:
            changes[name] = pd.Series(pd.NA, index=changes.index, dtype=dtype)
    changes = changes.astype(CHANGE_COLUMNS)
    changes["order"] = changes["change"].map(_ORDER)
    # Largest first: new and leaving players by rating, rating changes by size.
    changes["size"] = (
        changes["difference"].abs().fillna(changes["rating_after"].fillna(changes["rating_before"]))
    ).fillna(0)
    changes = changes.sort_values(
        ["order", "size", "difference", "id", "field"],
        ascending=[True, False, False, True, True],
        kind="stable",
        na_position="last",
    )
    return changes[list(CHANGE_COLUMNS)].reset_index(drop=True)


@dataclass(frozen=True)
class ListCounts:
    """A new list's players counted as ``changes.csv`` counts them (every summary says these
    numbers, so none can contradict the file)."""

    listed: int
    """Players on the new list."""
    kept: int
    """… who were on the previous list."""
    new: int
    """… who were not: first ratings and players joining from the standard rating."""
    first_ratings: int
    from_standard: int
    left: int
    """Players of the previous list not on the new one."""
    below_floor: int
    """… because they fell below the floor."""

    @classmethod
    def of(cls, changes: pd.DataFrame, listed: int) -> ListCounts:
        """The counts of a list of ``listed`` players and its ``list_changes``."""
        new = changes[changes["change"] == "new"]
        left = changes[changes["change"] == "left"]
        return cls(
            listed=listed,
            kept=listed - len(new),
            new=len(new),
            first_ratings=int((new["reason"] == "first_rating").sum()),
            from_standard=int((new["reason"] == "standard_rating").sum()),
            left=len(left),
            below_floor=int((left["reason"] == "below_floor").sum()),
        )

    def arrivals(self) -> str:
        """``12 new``, or how they came when some joined from the standard rating."""
        if not self.from_standard:
            return f"{self.new} new"
        parts = [f"{self.from_standard} from their standard rating"]
        if self.first_ratings:
            parts.insert(0, f"{self.first_ratings} first rating(s)")
        return f"{self.new} new: " + ", ".join(parts)


def change_summary(changes: pd.DataFrame, against: str) -> str:
    """One line for the terminal: how many of each change, and the largest rating change."""
    counts = changes["change"].value_counts()
    parts = [f"{int(counts.get('new', 0))} new"]
    left = changes[changes["change"] == "left"]
    floor = int((left["reason"] == "below_floor").sum())
    parts.append(f"{len(left)} left" + (f" ({floor} below the floor)" if floor else ""))
    ratings = changes[changes["change"] == "rating"]
    shown = f"{len(ratings)} ratings changed"
    if len(ratings):
        top = ratings.iloc[0]
        shown += f" (largest {int(top['difference']):+d}: {top['name']}, {top['id']})"
    parts.append(shown)
    for change, label in (("inactive", "became inactive"), ("correction", "corrections")):
        if counts.get(change, 0):
            parts.append(f"{int(counts[change])} {label}")
    return f"changes against {against}: " + ", ".join(parts)


def edits_since(store: Store, period: Period | None, kind: str) -> pd.DataFrame:
    """The player edits made after the list of ``period`` (all of them without a list)."""
    mark = store.edit_mark(period, kind) if period is not None else 0
    return store.player_edits_after(mark)
