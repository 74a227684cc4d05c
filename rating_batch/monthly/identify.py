"""Who is who: each player line of the events an ``add`` stores, as a database player.

Identity is never guessed silently (docs/formats.md §11.1):

* a line with a FIDE ID is that FIDE ID's player; when its name is not the stored one (accents,
  case and word order aside) both names are printed, and so they are when the database has no
  name for it and the files of the ``add`` give it two (the first file's is stored);
* a line without one is the player with the same exact name, birth year and federation (among
  the database's players and those the same ``add`` creates), or a new player; two candidates
  are an error naming them;
* two lines of one file with the same name, birth year and federation and no FIDE ID stay two
  players, with a warning;
* a new FIDE ID whose exact name, birth year and federation are those of one known player
  without a FIDE ID, and of no one else, is that player's: the FIDE ID he received is given
  to him (a player edit, printed; ``remove`` of the event takes it back), unless the officer
  keeps them apart (``add --keep-apart``);
* a new FIDE ID whose name (spelling aside), birth year and federation match a known player
  otherwise prints "possible duplicate of …", with the command that makes them one;
* a known FIDE ID under another federation or sex than the database's is a warning, as a name
  is, with the command that accepts the new one (``edit-player``).

What the database does not know of a player (a list without birth years) is filled in from the
first file that gives it, and logged (``player_edits``) so that ``remove`` can take it back;
what it knows is never overwritten (a different birth year is a warning).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.errors import InputError, Issue
from rating_batch.identity import identity_pairs, near_matches, written_id
from rating_batch.loaders.common import normalise_sex
from rating_batch.names import different_names, fide_id_conflicts, name_keys
from rating_batch.schema import IDENTITY_KEY
from rating_batch.store import Store
from rating_batch.values import as_int, missing

IDENTITY = ("name", "national_id", "federation", "sex", "title", "birth_year")
"""What the database knows of a player and an event file may complete."""


@dataclass
class Identified:
    """``plan_identities``: each row's database id, the players created (event index and
    label) and the warnings about identity."""

    ids: np.ndarray
    created: pd.DataFrame
    warnings: list[Issue]
    attached: pd.DataFrame
    """Known players without a FIDE ID given the new one of a file: event index and label."""


@dataclass
class IdentityPlan:
    """``plan_identities``: who is who, and what the database is to be given: the new
    players (``Store.insert_players``) and the fields to fill in (``fill_player_fields``)."""

    identified: Identified
    new_players: pd.DataFrame
    fills: pd.DataFrame | None


def store_identities(store: Store, plan: IdentityPlan) -> Identified:
    """What ``plan`` gives the database: the new players, the fields filled in."""
    store.insert_players(plan.new_players)
    if plan.fills is not None:
        store.fill_player_fields(plan.fills)
    return plan.identified


def plan_identities(
    people: pd.DataFrame,
    players: pd.DataFrame,
    next_id: int,
    keep_apart: frozenset[int] = frozenset(),
) -> IdentityPlan:
    """Each player row's database id, for all the events of an ``add`` at once, against the
    database's players ``people`` (new players numbered from ``next_id``). Pure: no
    database (``add`` works it out on the second core).

    Expects the players frames of the events (``schema.PLAYERS_DTYPES``) with ``event_index``,
    ``event_id`` and ``key``. The result does not depend on the order of the files."""
    rows = players.reset_index(drop=True).copy()
    rows["position"] = np.arange(len(rows))
    fide = rows["fide_id"]
    by_fide = pd.Series(
        people["player_id"].to_numpy(np.int64), index=people["fide_id"].astype("Int64")
    )
    by_fide = by_fide[by_fide.index.notna()]
    ids = pd.Series(by_fide.reindex(fide).to_numpy(), index=rows.index, dtype="Int64")
    warnings = _name_mismatches(people, rows, ids) + _field_mismatches(people, rows, ids)

    # New FIDE IDs: one player each, made from the first row carrying it; or the known player
    # without a FIDE ID who is exactly that identity, who received it.
    new_fide = fide.notna() & ids.isna()
    fide_creators = rows[new_fide].drop_duplicates("fide_id")
    attach = _attachments(people, fide_creators, rows[fide.isna()], keep_apart)
    received = attach.set_index("fide_id")["player_id"]
    ids = ids.fillna(pd.Series(received.reindex(fide).to_numpy(), index=rows.index, dtype="Int64"))
    fide_creators = fide_creators[~fide_creators["fide_id"].isin(received.index)]
    warnings += _possible_duplicates(people, fide_creators)

    # Rows without a FIDE ID. Lines of one file sharing name, birth year and federation are
    # different people (twins): each a player of its own, never matched.
    no_fide = rows[fide.isna()]
    twin = no_fide.duplicated(["event_id", *IDENTITY_KEY], keep=False)
    twins, singles = no_fide[twin], no_fide[~twin]
    warnings += _twin_warnings(twins)
    # Known: the database's players, the new FIDE IDs' and twins' rows of this add; found
    # by the one rule of identity.find_rows (national id, public id, exact identity).
    mine = ["fide_id", "national_id", *IDENTITY_KEY]
    known = pd.concat(
        [
            people[["player_id", *mine]].assign(
                position=-1,
                public_id=people["created_by"].where(people["created_by"] != "list"),
                label="player " + _publics(people),
                handle=_publics(people),
            ),
            fide_creators[[*mine, "position"]].assign(player_id=-1, label="a new player"),
            twins[[*mine, "position"]].assign(player_id=-1, label="a new player"),
        ],
        ignore_index=True,
    )
    known = known.astype({"name": "string", "birth_year": "Int64", "federation": "string"})
    seekers = singles.assign(public_id=singles["key"].astype(str) + "#"
                             + singles["player"].astype(str))  # fmt: skip
    pairs = identity_pairs(seekers, known)
    warnings += near_matches(seekers, known, pairs, "this add's files")
    found = known.loc[pairs["known"].to_numpy()]
    matches = pd.DataFrame(
        {
            "position": seekers.loc[pairs["seeker"].to_numpy(), "position"].to_numpy(),
            "event_id": seekers.loc[pairs["seeker"].to_numpy(), "event_id"].to_numpy(),
            "candidate": found["player_id"].to_numpy(),
            "creator": found["position"].to_numpy(),
            "fide_id": found["fide_id"].to_numpy(),
            "known_name": found["name"].to_numpy(),
        }
    )
    # A twin is no candidate for a line of its own file (it would be a third person).
    own_file = rows["event_id"].to_numpy()[matches["creator"].clip(lower=0).to_numpy()]
    matches = matches[(matches["creator"] < 0) | (own_file != matches["event_id"].to_numpy())]
    count = matches.groupby("position").size()
    ambiguous = count[count > 1].index
    if len(ambiguous):
        raise InputError(_ambiguous(rows, matches[matches["position"].isin(ambiguous)]))
    single = matches.set_index("position")

    # Players found nowhere: one per identity, made from the first row with it.
    unmatched = singles[~singles["position"].isin(single.index)]
    identity_creators = unmatched.drop_duplicates(IDENTITY_KEY)
    creators = pd.concat([fide_creators, identity_creators, twins]).sort_values("position")
    creators["player_id"] = np.arange(next_id, next_id + len(creators), dtype=np.int64)
    new_of_fide = creators.dropna(subset=["fide_id"]).set_index("fide_id")["player_id"]
    ids = ids.fillna(pd.Series(new_of_fide.reindex(fide).to_numpy(), dtype="Int64"))
    by_creator = creators.set_index("position")["player_id"]
    # Rows matched to a known player, to a new FIDE ID's creator row, or to a twin.
    matched = single["candidate"].where(
        single["candidate"] >= 0, by_creator.reindex(single["creator"]).to_numpy()
    )
    ids.loc[matched.index.to_numpy()] = matched.to_numpy()
    new_identity = unmatched.merge(
        identity_creators[[*IDENTITY_KEY, "position"]].merge(
            creators[["position", "player_id"]], on="position"
        )[[*IDENTITY_KEY, "player_id"]],
        how="left",
        on=IDENTITY_KEY,
    )
    ids.loc[unmatched["position"].to_numpy()] = new_identity["player_id"].to_numpy()
    ids.loc[twins["position"].to_numpy()] = by_creator.reindex(twins["position"]).to_numpy()
    resolved = ids.to_numpy(dtype=np.int64)
    held = _held_elsewhere(people, rows, resolved)
    if held:
        raise InputError(held)

    given = rows[list(IDENTITY)].copy()
    given["name"] = given["name"].mask(given["name"] == "")  # a blank name is no name
    first = given.groupby(resolved).first()  # each player's first value given, per column
    warnings += _birth_year_conflicts(people, rows, resolved, first["birth_year"])
    # A new player as the lists will name him: his FIDE ID, else <event>#<start rank>.
    fide_id = creators["fide_id"].astype("Int64").astype("string")
    entry = creators["key"].astype(str) + "#" + creators["player"].astype(str)
    created = pd.DataFrame(
        {
            "event_index": creators["event_index"].to_numpy(),
            "label": (
                creators["name"].fillna("").astype(object)
                + (" (FIDE ID " + fide_id + ")").fillna(" (no FIDE ID, " + entry + ")")
            ).to_numpy(),
        }
    )
    fills = [_fills(people, rows, given, resolved), _fide_id_fills(attach)]
    chosen = [fill for fill in fills if fill is not None]
    return IdentityPlan(
        Identified(resolved, created, warnings, attach[["event_index", "label"]]),
        _new_players(first, creators),
        pd.concat(chosen, ignore_index=True) if chosen else None,
    )


def _attachments(
    people: pd.DataFrame, creators: pd.DataFrame, without: pd.DataFrame, keep_apart: frozenset[int]
) -> pd.DataFrame:
    """The new FIDE IDs whose first row is, exactly, the name, birth year and federation of
    one known player without a FIDE ID, and of no other known player or line without one in
    its file (a twin): that player received it. Columns ``fide_id``, ``player_id``,
    ``event_id``, ``event_index`` and ``label`` (what ``add`` prints)."""
    columns = ["fide_id", "player_id", "event_id", "event_index", "label"]
    by_id = _national_attachments(people, creators, keep_apart)[columns]
    creators = creators[~creators["fide_id"].isin(by_id["fide_id"])]
    people = people[~people["player_id"].isin(by_id["player_id"])]
    offered = creators[
        creators["name"].fillna("").ne("").to_numpy(bool)
        & creators["birth_year"].notna().to_numpy(bool)
        & creators["federation"].notna().to_numpy(bool)
        & ~creators["fide_id"].isin(list(keep_apart)).to_numpy(bool)
    ]
    if offered.empty or people.empty:
        return by_id.reset_index(drop=True)
    key = {"name": "string", "birth_year": "Int64", "federation": "string"}
    # Only the players of those names are compared (the database may hold a whole list).
    named = people[people["name"].isin(offered["name"].unique())]
    known = named[[*IDENTITY_KEY, "player_id", "fide_id", "created_by"]].astype(key)
    pairs = offered.astype(key).merge(known, on=IDENTITY_KEY, suffixes=("", "_known"))
    # Unambiguous: one known player has this identity, and he has no FIDE ID; one new FIDE
    # ID claims him; no line without one in the same file is him (that line is another).
    pairs = pairs[~pairs.duplicated("fide_id", keep=False)]
    pairs = pairs[pairs["fide_id_known"].isna() & ~pairs.duplicated("player_id", keep=False)]
    lines = without[without["name"].isin(pairs["name"].unique())]
    lines = lines[["event_id", *IDENTITY_KEY]].astype(key)
    twins = pairs.merge(lines, on=["event_id", *IDENTITY_KEY])["fide_id"]
    pairs = pairs[~pairs["fide_id"].isin(twins)]
    fide_id = pairs["fide_id"].astype(str)
    label = (
        "FIDE ID " + fide_id + " given to " + pairs["name"].astype(str) + " ("
        + pairs["created_by"].astype(str) + ", born " + pairs["birth_year"].astype(str) + ", "
        + pairs["federation"].astype(str) + "): his exact name, birth year and federation "
        "(two people? restore latest, then add with --keep-apart " + fide_id + ")"
    )  # fmt: skip
    found = pairs.assign(label=label)[columns]
    return (
        pd.concat([by_id, found], ignore_index=True) if len(by_id) else found.reset_index(drop=True)
    )


def _national_attachments(
    people: pd.DataFrame, creators: pd.DataFrame, keep_apart: frozenset[int]
) -> pd.DataFrame:
    """The new FIDE IDs whose first row gives the national id of one known player without
    a FIDE ID, claimed by no other new FIDE ID: that player received it (the rule of
    ``identity``: the federation's id before name, birth year and federation)."""
    columns = ["fide_id", "player_id", "event_id", "event_index", "label"]
    offered = creators[~creators["fide_id"].isin(list(keep_apart)).to_numpy(bool)]
    offered = offered.assign(key=written_id(offered["national_id"])).dropna(subset=["key"])
    if offered.empty or people.empty:
        return pd.DataFrame({column: pd.Series(dtype=object) for column in columns})
    known = people.assign(key=written_id(people["national_id"])).dropna(subset=["key"])
    known = known[known["fide_id"].isna()][["key", "player_id", "name", "created_by"]]
    pairs = offered[["key", "fide_id", "event_id", "event_index"]].merge(known, on="key")
    pairs = pairs[~pairs.duplicated("fide_id", keep=False)]
    pairs = pairs[~pairs.duplicated("player_id", keep=False)]
    fide_id = pairs["fide_id"].astype(str)
    label = (
        "FIDE ID " + fide_id + " given to " + pairs["name"].astype(str) + " ("
        + pairs["created_by"].astype(str) + "): his national id " + pairs["key"].astype(str)
        + " (two people? restore latest, then add with --keep-apart " + fide_id + ")"
    )  # fmt: skip
    return pairs.assign(label=label)[columns].reset_index(drop=True)


def _fide_id_fills(attach: pd.DataFrame) -> pd.DataFrame | None:
    """The FIDE IDs given to known players, as fills logged with the event that gave them."""
    if attach.empty:
        return None
    return pd.DataFrame(
        {
            "player_id": attach["player_id"].astype("int64").to_numpy(),
            "value": attach["fide_id"].astype("int64").to_numpy(),
            "event_id": attach["event_id"].astype("int64").to_numpy(),
            "field": "fide_id",
            "old_value": None,
        }
    )


def _where(row: pd.Series) -> tuple[str, int]:
    return str(row["source"]), int(row["line"])


def _name_mismatches(people: pd.DataFrame, rows: pd.DataFrame, ids: pd.Series) -> list[Issue]:
    """A FIDE ID whose name in the file is not the stored one (spelling aside); where the
    database has no name for it (a new FIDE ID), not the name of the first file giving one."""
    known = ids.notna().to_numpy()
    stored = people.set_index("player_id")["name"]
    found = rows[known].assign(stored=stored.reindex(ids[known].astype("int64")).to_numpy())
    differ = identity_differs("name", found["name"], found["stored"])
    warnings = [
        Issue(
            *_where(row),
            f"FIDE ID {row['fide_id']} is {row['name']!r} in this file but {row['stored']!r} "
            "in the database (the database's name is kept): is the FIDE ID right? If the name "
            f"changed: rating-batch edit-player {row['fide_id']} --name {shlex.quote(row['name'])}",
            "warning",
        )
        for _, row in found[differ].iterrows()
    ]
    # The files of one add compared with each other, as a later add would compare them with
    # the database (the first file's name is stored).
    unnamed = ~known
    unnamed[np.flatnonzero(known)] = found["stored"].fillna("").to_numpy() == ""
    named = rows[unnamed & rows["fide_id"].notna().to_numpy() & rows["name"].notna().to_numpy()]
    named = named[named["name"] != ""]
    return warnings + fide_id_conflicts(named, named, "the first file's name is stored")


#: Fields of a known FIDE ID compared with the database besides the name: how each is
#: written alike, and what the officer's command to accept the file's value says.
COMPARED = {"federation": "--federation", "sex": "--sex", "national_id": "--national-id"}


def _field_mismatches(people: pd.DataFrame, rows: pd.DataFrame, ids: pd.Series) -> list[Issue]:
    """A known FIDE ID whose federation or sex in the file is not the database's (a transfer,
    a typo): the database's is kept, as for a name; ``edit-player`` accepts the new one."""
    known = ids.notna().to_numpy()
    stored = people.set_index("player_id")
    found = rows[known]
    warnings = []
    for field, option in COMPARED.items():
        kept_raw = stored[field].reindex(ids[known].astype("int64"))
        # As identity_differs compares them, each side written alike once.
        given, kept = same_written(field, found[field]), same_written(field, kept_raw)
        differ = _written_differ(given, kept)
        warnings += [
            Issue(
                str(source),
                int(line),
                f"FIDE ID {fide_id} is {field} {new!r} in this file but {old!r} in the database "
                f"(the database's is kept): to accept the new one, rating-batch edit-player "
                f"{fide_id} {option} {new}",
                "warning",
            )
            for source, line, fide_id, new, old in zip(
                found["source"][differ], found["line"][differ], found["fide_id"][differ],
                given[differ], kept[differ], strict=True,
            )
        ]  # fmt: skip
    return sorted(warnings, key=lambda issue: (issue.source, issue.line or 0))


def same_written(field: str, values: pd.Series) -> pd.Series:
    """A federation or sex as it is compared: federations in capitals, sex as ``M``/``F``
    (``m``, ``w``, ``f`` …, as the readers write it); blank is missing."""
    codes, distinct = pd.factorize(values.astype("string"))  # each spelling once
    written = pd.Series(distinct, dtype="string").str.strip()
    if field == "sex":
        written = written.map(normalise_sex, na_action="ignore").astype("string")
    else:
        written = written.mask(written == "").str.upper()
    chosen = written.reindex(codes).reset_index(drop=True)  # code -1 (missing) is NA
    return chosen.astype("string")


def identity_differs(field: str, given: pd.Series, kept: pd.Series) -> np.ndarray:
    """Row by row, whether a value of an identity field differs from the one kept, as
    ``add`` compares a file with the database and ``edit-player --fide-id`` two players:
    names spelling aside (``names.different_names``), federations and sex as written alike
    (``same_written``), birth years as numbers; a missing value differs from none."""
    if field == "name":
        return different_names(given, kept)
    if field == "birth_year":
        first = pd.Series(given.to_numpy(), dtype="Int64")
        second = pd.Series(kept.to_numpy(), dtype="Int64")
        return (first.notna() & second.notna() & (first != second)).to_numpy(bool)
    return _written_differ(same_written(field, given), same_written(field, kept))


def _written_differ(first: pd.Series, second: pd.Series) -> np.ndarray:
    """Row by row, whether two values written alike (``same_written``) differ, both given."""
    result: np.ndarray = (first.notna() & second.notna()).to_numpy(bool) & (
        first.fillna("").to_numpy(str) != second.fillna("").to_numpy(str)
    )
    return result


def _possible_duplicates(people: pd.DataFrame, creators: pd.DataFrame) -> list[Issue]:
    """New FIDE IDs whose name, birth year and federation match a known player."""
    if creators.empty or people.empty:
        return []
    keys = ["name_key", "birth_year", "federation"]
    new = creators.assign(name_key=name_keys(creators["name"]))
    new = new[new["name_key"] != ""].astype({"birth_year": "Int64", "federation": "string"})
    known = people.astype({"birth_year": "Int64", "federation": "string"})
    pairs = new.dropna(subset=["birth_year"]).merge(known, on=keys, suffixes=("", "_known"))
    return [
        Issue(
            *_where(row),
            f"new FIDE ID {row['fide_id']} {row['name']!r}: possible duplicate of "
            f"{row['name_known']!r} ({_label(row['fide_id_known'], row['created_by'])}, born "
            f"{row['birth_year']}, {row['federation']}); both are kept (if they are one "
            f"person: rating-batch edit-player {_public(row['fide_id_known'], row['created_by'])} "
            f"--fide-id {row['fide_id']})",
            "warning",
        )
        for _, row in pairs.iterrows()
    ]


def _publics(people: pd.DataFrame) -> pd.Series:
    """Each player's public id (``_public``), as text."""
    fide = people["fide_id"].astype("Int64").astype("string")
    return fide.fillna(people["created_by"].astype("string"))


def _public(fide_id: object, created_by: object) -> str:
    """A player's public id: the FIDE ID, else what made him (``<event>#<start rank>``)."""
    # A frame's number or NA: int() takes it.
    return str(created_by) if missing(fide_id) else str(as_int(fide_id))


def _label(fide_id: object, created_by: object) -> str:
    return f"no FIDE ID, {created_by}" if missing(fide_id) else f"FIDE ID {as_int(fide_id)}"


def _twin_warnings(twins: pd.DataFrame) -> list[Issue]:
    warnings = []
    for _, group in twins.groupby(["event_id", *IDENTITY_KEY], dropna=False, sort=False):
        first = group.iloc[0]
        lines = ", ".join(str(line) for line in group["line"].tolist())
        born = first["birth_year"] if pd.notna(first["birth_year"]) else "?"
        warnings.append(
            Issue(
                *_where(first),
                f"lines {lines}: {len(group)} players named {first['name']!r} (born {born}, "
                f"{first['federation'] if pd.notna(first['federation']) else 'no federation'}) "
                "without a FIDE ID: kept as different players; give their FIDE IDs to match "
                "them to the database",
                "warning",
            )
        )
    return warnings


def _held_elsewhere(people: pd.DataFrame, rows: pd.DataFrame, ids: np.ndarray) -> list[Issue]:
    """Errors for a row whose national id another player of the database holds than the
    one it is (by its FIDE ID): two players match it, and one national id is never given
    to two players (docs/formats.md §11.1)."""
    given = written_id(rows["national_id"])
    known = people.assign(key=written_id(people["national_id"])).dropna(subset=["key"])
    holder = known.drop_duplicates("key").set_index("key")
    found = rows.assign(key=given, resolved=ids).dropna(subset=["key"])
    found = found[found["key"].isin(holder.index)]
    found = found[holder.loc[found["key"], "player_id"].to_numpy(np.int64)
                  != found["resolved"].to_numpy(np.int64)]  # fmt: skip
    stored = people.set_index("player_id")
    problems = []
    for _, row in found.iterrows():
        other = holder.loc[row["key"]]
        own = stored.loc[row["resolved"]] if row["resolved"] in stored.index else None
        first = (
            f"#{row['resolved']} {own['name']!r} ({_label(own['fide_id'], own['created_by'])})"
            if own is not None
            else f"a new player (FIDE ID {as_int(row['fide_id'])})"
        )
        problems.append(
            Issue(
                *_where(row),
                f"{row['name']!r} matches 2 players: {first} by the FIDE ID, and "
                f"#{other['player_id']} {other['name']!r} "
                f"({_label(other['fide_id'], other['created_by'])}) by the national id "
                f"{row['key']}, which one player holds; correct the FIDE ID or the national "
                "id in the file",
            )
        )  # fmt: skip
    return problems


def _ambiguous(rows: pd.DataFrame, matches: pd.DataFrame) -> list[Issue]:
    problems = []
    for position in sorted(set(matches["position"].tolist())):
        row = rows.iloc[position]
        group = matches[matches["position"] == position]
        # Each candidate by his own name, not the file's (they may differ: a national id).
        names = ", ".join(
            f"{'#' + str(candidate) if candidate >= 0 else 'a new player'} {own!r} "
            f"(FIDE ID {other if other is not pd.NA else 'none'})"
            for candidate, other, own in zip(
                group["candidate"].tolist(), group["fide_id"].astype("Int64").tolist(),
                group["known_name"].tolist(), strict=True,
            )
        )  # fmt: skip
        problems.append(
            Issue(
                str(row["source"]),
                int(row["line"]),
                f"{row['name']!r} matches several players: {names}; give the file the "
                "player's FIDE ID, or a national id only one of them holds (rating-batch "
                "edit-player PLAYER --national-id corrects a wrong one)",
            )
        )
    return problems


def _birth_year_conflicts(
    people: pd.DataFrame, rows: pd.DataFrame, ids: np.ndarray, first: pd.Series
) -> list[Issue]:
    """A birth year in a file that differs from the one the database knows, or from the one
    an earlier file of the ``add`` gave it (the database's is kept): a warning with the file
    and line (consistency across events)."""
    years = rows["birth_year"]
    database = pd.Series(
        people["birth_year"].to_numpy(), index=people["player_id"].to_numpy(), dtype="Int64"
    )
    # The database's, else the first file's (``first``: by player id).
    reference = database.reindex(ids).fillna(first.reindex(ids)).to_numpy()
    known = pd.Series(reference, dtype="Int64")
    differ = identity_differs("birth_year", years, known)
    lines = rows["line"].to_numpy(np.int64)
    return [
        Issue(
            str(rows["source"].iat[i]),
            int(lines[i]),
            f"{rows['name'].iat[i]}: born {rows['birth_year'].iat[i]} in this file, "
            f"{known.iat[i]} in the database (the database's is kept)",
            "warning",
        )
        for i in np.flatnonzero(differ).tolist()
    ]


def _new_players(first: pd.DataFrame, creators: pd.DataFrame) -> pd.DataFrame:
    """The new players, completed from the first file that gives each field."""
    new = creators.set_index("player_id")
    for column in IDENTITY:
        new[column] = new[column].fillna(first[column].reindex(new.index))
    new["name"] = new["name"].fillna("")
    return pd.DataFrame(
        {
            "player_id": new.index.to_numpy(),
            "fide_id": new["fide_id"].to_numpy(),
            **{column: new[column].to_numpy() for column in IDENTITY},
            "created_by": (new["key"].astype(str) + "#" + new["player"].astype(str)).to_numpy(),
            "created_event": new["event_id"].to_numpy(),
        }
    )


def _fills(
    people: pd.DataFrame, rows: pd.DataFrame, given: pd.DataFrame, ids: np.ndarray
) -> pd.DataFrame | None:
    """What the database does not know of its players, from the first row that gives it
    (what it knows is never overwritten), each fill with the event that gave it: the rows of
    ``fill_player_fields`` (None: nothing to fill)."""
    stored = people.set_index("player_id")
    fills = []
    for column in IDENTITY:
        offered = pd.DataFrame(
            {"player_id": ids, "value": given[column], "event_id": rows["event_id"]}
        )
        offered = offered[offered["value"].notna()].drop_duplicates("player_id")
        offered = offered[offered["player_id"].isin(stored.index)]
        current = stored[column].reindex(offered["player_id"])
        missing = current.isna() | (current == "") if column == "name" else current.isna()
        chosen = offered[missing.fillna(True).to_numpy(dtype=bool)]
        if len(chosen):
            fills.append(
                chosen.assign(
                    field=column, old_value=current[missing.fillna(True).to_numpy(bool)].to_numpy()
                )
            )
    return pd.concat(fills, ignore_index=True) if fills else None
