"""``player``: "how was my rating computed?" For a player, the rating history per list and,
for every published period the player played in, FIDE's individual calculation read from the
files that publish wrote (stored in the database: a published list never changes, so neither
does its explanation); the games pending toward a first rating. ``player --name`` finds
players. Under another rating system, the same from its stored states
(``RatingSystem.database.explain``). Read-only: the database is never changed.

A player is named by FIDE ID, or without one by the id the lists print for him
(``<event>#<start rank>``); the database's own row numbers are never matched, so no typed
number can show somebody else. ``--name`` finds both. A player who received a FIDE ID is
found by the id he had too, and the lists published before it, which name him by that id,
are explained as he played them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from rating_batch.assemble import player_ids
from rating_batch.errors import RatingBatchError
from rating_batch.loaders.common import MAX_ID_DIGITS, is_digits
from rating_batch.names import name_key
from rating_batch.pipelines.registry import database_system, rule_book
from rating_batch.store import Store, open_store
from rating_batch.values import number

#: ``player --name`` lists at most this many players.
MAX_FOUND = 50


def find_player(store: Store, who: str, db: Path) -> tuple[dict[str, Any] | None, list[str]]:
    """The player ``who`` names, as ``player`` and ``edit-player`` find him alike: his FIDE
    ID; the id the lists give a player without one (``<event>#<start rank>``, or the list's
    own id); the id he had until he received a FIDE ID, or until he was merged into a player
    with one (said); else his national id
    (docs/formats.md §11.1: ``C0327-123``, as a DSB list and the site print it). None: no
    one; several holding one id are an error naming them."""
    if is_digits(who, MAX_ID_DIGITS):  # "¹²".isdigit() is True
        found = store.player_by_fide_id(int(who))
        if found is not None:
            return found, []
    else:
        matches = store.players_created_by(who)
        if len(matches) > 1:
            raise RatingBatchError(
                f"{db}: {len(matches)} players without a FIDE ID are {who!r}: "
                + ", ".join(repr(name) for name in matches["name"])
            )
        if len(matches) == 1:
            return {str(k): v for k, v in matches.iloc[0].items()}, []
        found = store.player_by_former_id(who)  # the lists before the FIDE ID name him so
        if found is not None:
            return found, [f"{who} received FIDE ID {_label(found)}: shown under it"]
        found = store.player_by_entry(who)  # merged into a player with a FIDE ID since
        if found is not None and pd.notna(found["fide_id"]):
            key, _, rank = who.rpartition("#")
            return found, [
                f"{who} (start rank {rank} of {key}) was merged into FIDE ID {_label(found)}: "
                "shown under it"
            ]
    holders = store.players_by_national_id(who)
    if len(holders) > 1:
        raise RatingBatchError(
            f"{db}: {len(holders)} players hold the national id {who.strip().upper()}: "
            + ", ".join(repr(name) for name in holders["name"])
            + "; 'rating-batch edit-player ID --national-id' corrects the wrong one"
        )
    if len(holders) == 1:
        return {str(k): v for k, v in holders.iloc[0].items()}, []
    return None, []


def player_report(fide_id: str, *, db: Path, out: Path | None = None) -> str:
    """The player with this FIDE ID (or, without one, this ``<event>#<start rank>`` id, or
    his national id: ``find_player``), as text; with ``out``, also ``player-<id>.xlsx`` and
    ``player-<id>.html``."""
    without = "#" in fide_id
    with open_store(db) as store:
        person, said = find_player(store, fide_id, db)
        if person is not None:
            return "\n".join([*said, _report(store, person, out)])
    if not without and not is_digits(fide_id, MAX_ID_DIGITS):
        raise RatingBatchError(
            f"{fide_id!r} is not a FIDE ID (digits only) nor the id of a player without one "
            "(<event>#<start rank>, as the lists print it) nor a player's national id in the "
            "database; 'rating-batch player --name TEXT' "
            "finds players by name, with or without a FIDE ID"
        )
    what = "player without a FIDE ID whose id is" if without else "player with FIDE ID"
    raise RatingBatchError(
        f"no {what} {fide_id} in {db} ('rating-batch player --name TEXT' searches by name)"
    )


@dataclass(frozen=True)
class Found:
    """A player a name search found: his id (the FIDE ID, else the id the lists give him),
    whether it is a FIDE ID, and who he is as the database knows him."""

    label: str
    fide: bool
    name: str
    federation: str
    born: str


def players_named(text: str, *, db: Path) -> list[Found]:
    """Every player whose name contains ``text`` (accents, case and word order aside), as
    data: the desk lays them out itself (``find_players`` prints them)."""
    with open_store(db) as store:
        return _found(_named(store, text, db))


def _named(store: Store, text: str, db: Path) -> pd.DataFrame:
    wanted = name_key(text).split()
    if not wanted:
        raise RatingBatchError(f"--name {text!r}: give some letters of the name")
    people = store.players()
    found = people[[all(word in key for word in wanted) for key in people["name_key"]]]
    if found.empty:
        raise RatingBatchError(f"no player named like {text!r} in {db}")
    return found


def _found(people: pd.DataFrame) -> list[Found]:
    return [
        Found(
            label=label,
            fide=bool(pd.notna(row["fide_id"])),
            name=str(row["name"]),
            federation=str(row["federation"]) if pd.notna(row["federation"]) else "-",
            born=number(row["birth_year"]) or "?",
        )
        for (_, row), label in zip(people.iterrows(), player_ids(people), strict=True)
    ]


def find_players(text: str, *, db: Path, out: Path | None = None) -> str:
    """Players whose name contains ``text`` (accents, case and word order aside); the report
    of the one found when there is exactly one."""
    with open_store(db) as store:
        found = _named(store, text, db)
        if len(found) == 1:
            person = {str(k): v for k, v in found.iloc[0].items()}
            return _report(store, person, out)
    lines = [f"{len(found)} players named like {text!r}:"]
    for each in _found(found.head(MAX_FOUND)):
        fide = f"FIDE ID {each.label}" if each.fide else f"no FIDE ID ({each.label})"
        lines.append(f"  {each.name}, {each.federation}, born {each.born}: {fide}")
    if len(found) > MAX_FOUND:
        lines.append(f"  … and {len(found) - MAX_FOUND} more: give more of the name")
    lines.append("'rating-batch player ID' shows one: the FIDE ID, or the id in brackets")
    return "\n".join(lines)


def _label(person: dict[str, Any]) -> str:
    """The player's public id: the FIDE ID, else ``<event>#<start rank>``."""
    fide = person["fide_id"]
    return str(int(fide)) if pd.notna(fide) else str(person["created_by"])


def _stem(label: str) -> str:
    """The name of the player's report files (``player-<id>``)."""
    return f"player-{label.replace('#', '-')}"


def _report(store: Store, person: dict[str, Any], out: Path | None) -> str:
    """The player's report as text; with ``out``, its workbook and page written, and said
    (as every command says what it wrote)."""
    text = _explained(store, person, out)
    if out is None:
        return text
    stem = _stem(_label(person))
    return "\n".join([text, *(f"wrote {out / stem}{suffix}" for suffix in (".xlsx", ".html"))])


def _explained(store: Store, person: dict[str, Any], out: Path | None) -> str:
    label = _label(person)
    files = None if out is None else out / _stem(label)
    system = database_system(store)
    return system.database.explain(store, rule_book(store), person, label, files)
