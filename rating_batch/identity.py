"""Who is who, once for every command (docs/formats.md §11.1): the rule by which a player
without a FIDE ID in an event file is found among known players, whether they are the rows
of a rating list (``rate --list``, ``check``) or a database's players (``add``, made by
``init``). Pure: frames in, frames out.

A player without a FIDE ID is, in this order, the known player with

1. the same id in the federation's own scheme (``national_id``: the DSB's ZPS-Mgl or PKZ,
   the US Chess id, the ECF rating code), when both give one;
2. the same public id (``<event key>#<start rank>``, which our lists give such a player);
3. the same exact name, birth year and federation (``schema.IDENTITY_KEY``).

The first rule that finds anyone decides; the callers say what several candidates mean.
What almost matches is told, never taken: the same name and birth year where one side's
federation is blank (``near_matches``), and the same national id under another name.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rating_batch.errors import Issue
from rating_batch.names import different_names
from rating_batch.schema import IDENTITY_KEY, NationalId

#: The dtypes identity columns are compared in (a list read as text, a file as numbers).
KEY_TYPES = {"name": "string", "birth_year": "Int64", "federation": "string"}


def written_id(values: pd.Series) -> pd.Series:
    """An id as it is compared: text without surrounding spaces, in capitals; blank is none
    (``c0327-123`` is ``C0327-123``)."""
    text = values.astype("string").str.strip().str.upper()
    return text.mask(text == "")


def _prepared(frame: pd.DataFrame) -> pd.DataFrame:
    prepared = pd.DataFrame(index=frame.index)
    for column in ("national_id", "public_id"):
        given = frame[column] if column in frame else pd.Series(pd.NA, index=frame.index)
        prepared[column] = written_id(given)
    return prepared.join(frame[list(KEY_TYPES)].astype(KEY_TYPES))


def identity_pairs(seeking: pd.DataFrame, known: pd.DataFrame) -> pd.DataFrame:
    """Each row of ``seeking`` (players without a FIDE ID) with the rows of ``known`` it is,
    by the first rule of the module's that finds any: columns ``seeker`` and ``known`` (the
    two frames' index labels) and ``by`` (``national_id``, ``public_id`` or ``identity``).
    A row found by no rule has no pair."""
    mine, theirs = _prepared(seeking), _prepared(known)
    mine = mine.rename_axis("seeker").reset_index()
    theirs = theirs.rename_axis("known").reset_index()
    pairs = []
    left = mine
    for rule, on in (
        ("national_id", ["national_id"]),
        ("public_id", ["public_id"]),
        ("identity", IDENTITY_KEY),
    ):
        candidates, offered = left[["seeker", *on]], theirs[["known", *on]]
        if rule != "identity":  # an id nobody gave matches nobody
            candidates, offered = candidates.dropna(subset=on), offered.dropna(subset=on)
        found = candidates.merge(offered, on=on)[["seeker", "known"]]
        pairs.append(found.assign(by=rule))
        left = left[~left["seeker"].isin(found["seeker"])]
    return pd.concat(pairs, ignore_index=True)


def id_form_issues(players: pd.DataFrame, scheme: NationalId | None) -> list[Issue]:
    """Warnings for event players' national ids not of the system's form (``scheme``): such
    an id finds only a player given it written so (a typo finds nobody, or someone else)."""
    if scheme is None or "national_id" not in players:
        return []
    given = written_id(players["national_id"])
    wrong = given.notna() & ~given.str.fullmatch(scheme.pattern).fillna(True)
    return [
        Issue(
            str(source), int(line),
            f"national_id {value!r}: not the form of the {scheme.label} ({scheme.example}); "
            "it finds only a player given it written so",
            "warning",
        )
        for source, line, value in zip(players["source"][wrong], players["line"][wrong],
                                       given[wrong], strict=True)
    ]  # fmt: skip


def near_matches(
    seeking: pd.DataFrame, known: pd.DataFrame, pairs: pd.DataFrame, what: str
) -> list[Issue]:
    """Warnings, at each seeking row's file and line, for what almost matched: a row found
    by nobody whose name and birth year are a known row's while one federation is blank
    ("Groß, Dörte (born 1990) matches list row 6 except its federation (blank vs GER)"),
    and a row found by its national id under another name (spelling aside). ``known`` has a
    ``label`` column (``list row 6``, ``player L1``), and for a database's players a
    ``handle`` (the id ``edit-player`` takes): the way out is then the commands; ``what``
    names the known side otherwise (``the list``)."""
    issues: list[Issue] = []
    # An id (national or public, rules 1 and 2) found under another name: the same warning.
    by_id = pairs[pairs["by"].isin(["national_id", "public_id"])]
    if len(by_id):
        mine = seeking.loc[by_id["seeker"]]
        theirs = known.loc[by_id["known"]]
        other = different_names(mine["name"].reset_index(drop=True),
                                theirs["name"].reset_index(drop=True))  # fmt: skip
        rules = by_id["by"].to_numpy()[other]
        for (_, row), (_, kept), rule in zip(mine[other].iterrows(), theirs[other].iterrows(),
                                             rules, strict=True):  # fmt: skip
            what = "national id" if rule == "national_id" else "public id"
            issues.append(
                Issue(
                    str(row["source"]), int(row["line"]),
                    f"{row['name']} has the {what} {str(row[rule]).strip()} "
                    f"of {kept['name']!r} ({kept['label']}): taken as that player; if the id is "
                    f"wrong, correct it in the file",
                    "warning",
                )
            )  # fmt: skip
    unmatched = seeking[~seeking.index.isin(pairs["seeker"])]
    if unmatched.empty or known.empty:
        return issues
    keys = ["name", "birth_year"]
    mine = (
        _prepared(unmatched)
        .assign(source=unmatched["source"], line=unmatched["line"])
        .rename_axis("seeker")
        .reset_index()
    )
    handles = known["handle"] if "handle" in known else pd.Series(pd.NA, index=known.index)
    theirs = _prepared(known).assign(label=known["label"], handle=handles)
    near = mine.dropna(subset=keys).merge(theirs.dropna(subset=keys), on=keys,
                                          suffixes=("", "_known"))  # fmt: skip
    one_blank = near["federation"].isna() ^ near["federation_known"].isna()
    for _, row in near[one_blank.to_numpy(bool)].iterrows():
        theirs_fed = row["federation_known"] if pd.notna(row["federation_known"]) else "blank"
        mine_fed = row["federation"] if pd.notna(row["federation"]) else "blank"
        if pd.isna(row["handle"]):
            fix = f"give the federation (or the national id) in {what} and the file"
        elif pd.isna(row["federation_known"]):
            fix = (
                f"rating-batch restore latest, then edit-player {row['handle']} --federation "
                f"{mine_fed} (or --national-id), and add the file again"
            )
        else:
            fix = (
                f"rating-batch restore latest, give the file her federation {theirs_fed} "
                "(or the national id), and add it again"
            )
        issues.append(
            Issue(
                str(row["source"]), int(row["line"]),
                f"{row['name']} (born {row['birth_year']}) matches {row['label']} except its "
                f"federation ({theirs_fed} vs {mine_fed}): taken as a new player; if they are "
                f"one person: {fix}",
                "warning",
            )
        )  # fmt: skip
    return issues


def find_rows(
    people: pd.DataFrame, known: pd.DataFrame, what: str
) -> tuple[np.ndarray, list[Issue], list[Issue]]:
    """Each event player's row of ``known`` (its position; -1: none), as ``rate --list`` finds
    a list's rows and ``add`` a database's players: by FIDE ID, else by ``identity_pairs``.
    Two players of one event alike (name, birth year, federation, no FIDE ID) are two people
    and take no row by that rule; a player matching several rows is an error naming them.

    ``people``: ``fide_id``, ``event``, ``public_id``, the identity columns, ``national_id``
    (optional), ``source`` and ``line``. ``known``: ``fide_id`` (Int64), ``public_id``,
    ``national_id`` (optional), the identity columns and ``label``. Returns the rows, the
    errors and the warnings (``near_matches``)."""
    people = people.reset_index(drop=True)
    known = known.reset_index(drop=True)
    by_fide = pd.Series(np.arange(len(known)), index=known["fide_id"].astype("Int64"))
    by_fide = by_fide[by_fide.index.notna() & ~by_fide.index.duplicated()]
    rows = by_fide.reindex(people["fide_id"].astype("Int64")).fillna(-1).to_numpy(np.int64)
    _received(people, known, rows)
    split = _split_ids(people, known, rows, what)
    without = people["fide_id"].isna().to_numpy(bool)
    seeking = people[without]
    if seeking.empty or known.empty:
        return rows, split, []
    twins = seeking.astype(KEY_TYPES).duplicated(["event", *IDENTITY_KEY], keep=False)
    pairs = identity_pairs(seeking, known)
    pairs = pairs[~((pairs["by"] == "identity") & twins.reindex(pairs["seeker"]).to_numpy(bool))]
    count = pairs.groupby("seeker")["known"].transform("size").to_numpy()
    single = pairs[count == 1]
    rows[single["seeker"].to_numpy(np.int64)] = single["known"].to_numpy(np.int64)
    several = pairs[count > 1]
    errors = [
        _ambiguous(people.iloc[seeker], known.loc[several.loc[several["seeker"] == seeker,
                                                                "known"].to_numpy()], what)
        for seeker in several["seeker"].drop_duplicates().to_numpy(np.int64).tolist()
    ]  # fmt: skip
    return rows, split + errors, near_matches(seeking, known, pairs, what)


def _split_ids(
    people: pd.DataFrame, known: pd.DataFrame, rows: np.ndarray, what: str
) -> list[Issue]:
    """Errors for a player found by his FIDE ID whose national id is another known row's:
    two rows match him, and neither is taken (docs/formats.md §11.1)."""
    if "national_id" not in people or "national_id" not in known:
        return []
    given = written_id(people["national_id"]).to_numpy(object)
    held = written_id(known["national_id"])
    holders = pd.Series(np.arange(len(known)), index=held.to_numpy(object))[held.notna().to_numpy()]
    errors = []
    for seeker in np.flatnonzero((rows >= 0) & pd.notna(given)).tolist():
        others = holders[holders.index == given[seeker]]
        others = others[others != rows[seeker]]
        if others.empty:
            continue
        person = people.iloc[seeker]
        both = known.iloc[[int(rows[seeker]), *others.tolist()]]
        rows[seeker] = -1
        errors.append(
            Issue(
                str(person["source"]), int(person["line"]),
                f"{person['name']!r} matches {len(both)} players of {what}: "
                f"{', '.join(_named(both, own_names=True))} (the FIDE ID "
                f"{as_text(person['fide_id'])} is the first's, the national id "
                f"{given[seeker]} the other's); correct the FIDE ID or the national id in "
                "the file",
            )
        )  # fmt: skip
    return errors


def as_text(value: object) -> str:
    """A FIDE ID as a message prints it (a float column's ``15.0`` is ``15``)."""
    return str(int(value)) if isinstance(value, (int, float, np.integer)) else str(value)


def _received(people: pd.DataFrame, known: pd.DataFrame, rows: np.ndarray) -> None:
    """A FIDE ID the known rows do not hold, whose player is one known row without a FIDE
    ID by national id, or by a full exact name, birth year and federation, and no other
    player's: that row (he received the FIDE ID since; ``add`` gives it to him). Sets
    ``rows`` in place."""
    unfound = people["fide_id"].notna().to_numpy(bool) & (rows < 0)
    candidates = known[known["fide_id"].isna()]
    if not unfound.any() or candidates.empty:
        return
    newcomers = people[unfound].drop(columns="public_id", errors="ignore")
    pairs = identity_pairs(newcomers, candidates)
    whole = newcomers[IDENTITY_KEY].notna().all(axis=1) & newcomers["name"].ne("")
    pairs = pairs[(pairs["by"] != "identity") | whole.reindex(pairs["seeker"]).to_numpy(bool)]
    pairs = pairs[~pairs["seeker"].duplicated(keep=False) & ~pairs["known"].duplicated(keep=False)]
    rows[pairs["seeker"].to_numpy(np.int64)] = pairs["known"].to_numpy(np.int64)


def _ambiguous(person: pd.Series, rows: pd.DataFrame, what: str) -> Issue:
    """A player without a FIDE ID matching several known players."""
    born = person["birth_year"] if pd.notna(person["birth_year"]) else "?"
    federation = person["federation"] if pd.notna(person["federation"]) else "no federation"
    return Issue(
        str(person["source"]),
        int(person["line"]),
        f"{person['name']!r} (born {born}, {federation}) without a FIDE ID matches "
        f"{len(rows)} players of {what}: {', '.join(_named(rows))}; give the "
        "FIDE ID (or the national id) in the file",
    )


def _named(rows: pd.DataFrame, own_names: bool = False) -> list[str]:
    """Known rows as an error names them: ``n1#7 (list row 3)``, their id first; with
    ``own_names``, each row's own name too (``15 'Five, E' (list row 2)``)."""
    ids = rows["fide_id"].astype("Int64").astype("string").fillna(rows["public_id"])
    names = rows["name"] if own_names and "name" in rows else pd.Series(pd.NA, index=rows.index)
    named = [
        str(label) if pd.isna(own) else f"{own} ({label})"
        for own, label in zip(ids.tolist(), rows["label"].tolist(), strict=True)
    ]
    return [
        text if pd.isna(name) else f"{name!r} {text}"
        for text, name in zip(named, names.tolist(), strict=True)
    ]
