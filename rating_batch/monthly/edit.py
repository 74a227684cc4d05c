"""``edit-player``: the officer's corrections of who a player is.

What an event file says of a known player never overwrites the database
(monthly/identify.py). A name changed by a marriage, a federation transfer, a sex or birth
year written wrong, or a FIDE ID received by a player who had none are accepted here. Each
change is a player edit (``player_edits``, logged with event ``OFFICER``): the next list's
changes.csv shows it as a correction, and like every command it is recorded in the undo
journal (``restore latest`` takes it back).

A FIDE ID that another player of the database holds makes the two one player when one of them
is on no list and played in no published period: he goes, and his event entries become the
other's. A published list never changes, so two players who are both on one are refused. Two
whose name (spelling aside), federation or birth year differ, compared as ``add`` compares
them, are two people until the officer says otherwise (``--force``): a FIDE ID with two
digits swapped would merge them.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from rating_batch.errors import RatingBatchError
from rating_batch.loaders.common import normalise_sex
from rating_batch.monthly.identify import IDENTITY, identity_differs
from rating_batch.monthly.player import find_player
from rating_batch.periods import shown
from rating_batch.pipelines.registry import database_system
from rating_batch.pipelines.seam import Outcome
from rating_batch.schema import CONTROL_CHARACTERS
from rating_batch.store import DEFAULT_WAIT, Store, open_store
from rating_batch.values import text_of

OFFICER = 0
"""The event of an officer's edit in ``player_edits`` (no event gave it; event ids start at 1,
so ``remove`` never takes it back)."""

#: FIDE IDs have at most 10 digits, as in every list.
FIDE_ID_MAX = 9_999_999_999


@dataclass(frozen=True)
class PlayerEdit:
    """What the officer gives: each field None when left as it is."""

    name: str | None = None
    federation: str | None = None
    sex: str | None = None
    birth_year: int | None = None
    fide_id: int | None = None
    national_id: str | None = None
    """The player's id in the federation's own scheme (docs/formats.md §11.1)."""


def edit_player(
    who: str, edit: PlayerEdit, *, db: Path, wait: float = DEFAULT_WAIT, force: bool = False
) -> Outcome:
    """Correct what the database knows of the player ``who`` (a FIDE ID, or the id a list
    gives a player without one); ``--fide-id`` may make two players one (two whose name,
    federation or birth year differ only with ``force``)."""
    wanted = _checked(edit)
    with open_store(db, write=True, command=f"edit-player {who}", wait=wait) as store:
        with store.writing():
            player = _find(store, who, db)
            if wanted.get("national_id") is not None:
                _national_id_free(store, player, str(wanted["national_id"]))
            lines = [f"edited {_label(player)}:"]
            if edit.fide_id is not None:
                player, said = _give_fide_id(store, player, edit.fide_id, force=force)
                lines += said
            changed = {
                field: value
                for field, value in wanted.items()
                if text_of(player[field]) != text_of(value)
            }
            _log(store, player, changed)
            lines += [f"  {f} {text_of(player[f])!r} → {text_of(v)!r}" for f, v in changed.items()]
        if len(lines) == 1:
            return Outcome([f"{_label(player)}: nothing to change, the database has it so"])
        undo, notes = store.undo_point, store.notes
    return Outcome(
        [
            *lines,
            "the next list's changes.csv shows it as a correction",
            f"'rating-batch restore latest' takes it back (journal entry {undo})",
            *notes,
        ]
    )


def _checked(edit: PlayerEdit) -> dict[str, object]:
    """The identity fields given, as the database keeps them; an impossible value (a FIDE ID
    too) is an error naming its option."""
    if edit == PlayerEdit():
        raise RatingBatchError(
            "give what to correct: --name, --federation, --sex, --birth-year, --fide-id or "
            "--national-id"
        )
    if edit.fide_id is not None and not 1 <= edit.fide_id <= FIDE_ID_MAX:
        raise RatingBatchError(f"--fide-id {edit.fide_id}: a FIDE ID is 1 to 10 digits")
    checked: dict[str, object] = {}
    if edit.name is not None:
        checked["name"] = name = CONTROL_CHARACTERS.sub("", edit.name).strip()
        if not name:
            raise RatingBatchError(f"--name {edit.name!r}: a name cannot be empty")
    if edit.federation is not None:
        checked["federation"] = federation = edit.federation.strip().upper()
        if not re.fullmatch("[A-Z]{3}", federation):
            raise RatingBatchError(
                f"--federation {edit.federation!r}: a federation is three letters, e.g. ESP"
            )
    if edit.national_id is not None:
        national = edit.national_id.strip().upper()
        if national == "":  # --national-id "": the player keeps none (docs/formats.md §11.1)
            checked["national_id"] = None
        elif not re.fullmatch(r"[0-9A-Z][0-9A-Z-]{0,19}", national):
            raise RatingBatchError(
                f"--national-id {edit.national_id!r}: letters, digits and '-', as the "
                "federation writes it (C0327-123, 12345678, 123456A)"
            )
        else:
            checked["national_id"] = national
    if edit.sex is not None:
        sex = normalise_sex(edit.sex)
        if sex is None:
            raise RatingBatchError(f"--sex {edit.sex!r}: m, or w (f)")
        checked["sex"] = sex
    if edit.birth_year is not None:
        if not 1900 <= edit.birth_year <= dt.date.today().year:
            raise RatingBatchError(f"--birth-year {edit.birth_year}: a year from 1900 to this year")
        checked["birth_year"] = edit.birth_year
    return checked


def _national_id_free(store: Store, player: dict[str, Any], national: str) -> None:
    """Refuse a national id not of the database system's form, or one another player holds
    (it names one person: docs/formats.md §11.1)."""
    scheme = database_system(store).national_id
    if scheme is not None and not re.fullmatch(scheme.pattern, national):
        raise RatingBatchError(
            f"--national-id {national!r}: not the form of the {scheme.label} ({scheme.example})"
        )
    holders = store.players_by_national_id(national)
    others = holders[holders["player_id"] != int(player["player_id"])]
    if len(others):
        holder = {str(k): v for k, v in others.iloc[0].items()}
        raise RatingBatchError(
            f"--national-id {national}: {_label(holder)} holds it, and one id names one "
            f"person; if that player has it by mistake: rating-batch edit-player {_public(holder)} "
            '--national-id ""'
        )


def _find(store: Store, who: str, db: Path) -> dict[str, Any]:
    """The player ``who`` names, found as ``player`` finds him (``find_player``)."""
    found, _ = find_player(store, who, db)
    if found is not None:
        return found
    raise RatingBatchError(
        f"{db}: no player {who!r} (a FIDE ID, or the id the lists give a player without one, "
        "e.g. e1#7; 'rating-batch player --name TEXT' finds it)"
    )


def _give_fide_id(
    store: Store, player: dict[str, Any], fide_id: int, *, force: bool
) -> tuple[dict[str, Any], list[str]]:
    """``player`` receives ``fide_id``; held by another player, the two become one (when
    they differ, only by ``force``). The player as he is now, and what was done."""
    if pd.notna(player["fide_id"]):
        if int(player["fide_id"]) == fide_id:
            return player, []
        raise RatingBatchError(
            f"{_label(player)} has a FIDE ID already; a FIDE ID is given to a player without one"
        )
    holder = store.player_by_fide_id(fide_id)
    if holder is None:
        _log(store, player, {"fide_id": fide_id})
        return {**player, "fide_id": fide_id}, [f"  fide_id none → {fide_id}"]
    keep, gone = _who_stays(store, player, holder)
    if not force:
        _refuse_different(player, holder)
    store.merge_players(int(keep["player_id"]), int(gone["player_id"]))
    said = [f"  merged {_label(gone)} into {_label(keep)}: one player from now on"]
    # What the one who stays does not know, the other told (the FIDE ID first).
    known = {field: gone[field] for field in ("fide_id", *IDENTITY) if text_of(keep[field]) == ""}
    filled = {field: value for field, value in known.items() if text_of(value) != ""}
    _log(store, keep, filled)
    said += [f"  {field} none → {_shown(field, value)}" for field, value in filled.items()]
    return {**keep, **filled}, said


def _who_stays(
    store: Store, player: dict[str, Any], holder: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Of two players to make one, the one who stays and the one who goes: the one who is on
    no list and played in no published period goes (``player`` stays when both could)."""
    ids = [int(player["player_id"]), int(holder["player_id"])]
    footprint = store.player_footprint(ids)
    last = store.last_published()
    entries = footprint[footprint["key"].notna()]
    both = set(entries[entries["player_id"] == ids[0]]["key"]) & set(
        entries[entries["player_id"] == ids[1]]["key"]
    )
    if both:
        raise RatingBatchError(
            f"{_label(player)} and {_label(holder)} both play in {', '.join(sorted(both))}: "
            "two people, not one"
        )
    published = footprint["key"].isna() | (
        footprint["period"].le(last) if last is not None else False
    )
    listed = set(footprint[published]["player_id"].astype("int64"))
    if ids[1] not in listed:
        return player, holder
    if ids[0] not in listed:
        return holder, player
    periods = sorted(set(footprint[published]["period"].astype(str)))
    raise RatingBatchError(
        f"FIDE ID {int(holder['fide_id'])} is {_label(holder)}; both are on lists or in "
        f"published periods ({', '.join(shown(p) for p in periods)}): making them one player "
        "would change a published list"
    )


#: What makes two players of the database one person for ``--fide-id``, as ``add`` matches
#: a line without a FIDE ID (monthly/identify.py): name, federation, birth year.
SAME_PERSON = {"name": "name", "federation": "federation", "birth_year": "birth year"}


def _refuse_different(player: dict[str, Any], holder: dict[str, Any]) -> None:
    """A FIDE ID mistyped (two digits swapped) would merge two people: refused when the
    holder's name (spelling aside), federation or birth year is not the player's, compared
    as ``add`` compares a file with the database (a value one of them lacks differs from
    none)."""
    differ = [
        words
        for field, words in SAME_PERSON.items()
        if identity_differs(field, pd.Series([holder[field]]), pd.Series([player[field]]))[0]
    ]
    if not differ:
        return
    what = differ[0] if len(differ) == 1 else f"{', '.join(differ[:-1])} or {differ[-1]}"
    raise RatingBatchError(
        f"{int(holder['fide_id'])} is {holder['name']!r}, {_origin(holder)} — not the same "
        f"{what} as {_label(player)}, {_origin(player)}; pass --force to merge them"
    )


def _origin(player: dict[str, Any]) -> str:
    """``ESP, born 2000`` (``-`` and ``?`` for what the database does not know)."""
    return f"{text_of(player['federation']) or '-'}, born {text_of(player['birth_year']) or '?'}"


def _log(store: Store, player: dict[str, Any], changed: Mapping[str, object]) -> None:
    """Set fields of ``player``, each logged as the officer's player edit."""
    if not changed:
        return
    store.fill_player_fields(
        pd.DataFrame(
            {
                "player_id": int(player["player_id"]),
                "field": list(changed),
                "old_value": [_plain(player[field]) for field in changed],
                "value": list(changed.values()),
                "event_id": OFFICER,
            }
        )
    )


def _shown(field: str, value: object) -> str:
    """A value as the command prints it: quoted text, a FIDE ID as a number."""
    return text_of(value) if field == "fide_id" else repr(text_of(value))


def _plain(value: object) -> object:
    return None if text_of(value) == "" else value


def _label(player: dict[str, Any]) -> str:
    """``'Newbie, Sam' (955555555)``: the name and the public id."""
    return f"{player['name']!r} ({_public(player)})"


def _public(player: dict[str, Any]) -> str:
    """The id the lists print: the FIDE ID, else ``<event>#<start rank>``."""
    return str(int(player["fide_id"])) if pd.notna(player["fide_id"]) else str(player["created_by"])
