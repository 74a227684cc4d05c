"""The lists of the rating systems other than FIDE Elo (docs/formats.md §11): a CSV of ``id``
and a system's state columns, read line by line; every problem names the file and line."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.errors import InputError, Issue, raise_if_errors
from rating_batch.loaders.common import UNKNOWN_YEAR
from rating_batch.loaders.encoding import DecodingError, decode, table_evidence
from rating_batch.periods import PeriodError, canonical_period
from rating_batch.schema import NationalId

#: Columns of a state list kept as they are, when given (``init`` registers the players).
IDENTITY = ("national_id", "name", "federation", "sex", "title", "birth_year")
#: How a "boolean" state column may be written (empty: not given).
TRUTH = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}


def required_columns(state_columns: Mapping[str, str], optional: Collection[str] = ()) -> list[str]:
    """The state columns a list must have: the numbers but ``optional`` (text and true/false
    columns, such as a list period or DWZ's ``uplifted``, may be left out)."""
    return [
        c
        for c, dtype in state_columns.items()
        if dtype not in ("string", "boolean") and c not in optional
    ]


def is_state_list(
    path: Path,
    state_columns: Mapping[str, str],
    optional: Collection[str] = (),
    alone: Collection[str] = (),
) -> bool:
    """A CSV whose header holds ``id`` and the system's number columns (but ``optional``),
    or ``id`` and a column of ``alone`` (the ECF's list of old grades, docs/formats.md §11)."""
    if path.suffix.lower() != ".csv":
        return False
    try:
        with path.open(encoding="utf-8-sig", errors="replace") as handle:
            header = {name.strip() for name in handle.readline().split(",")}
    except OSError:
        return False
    required = set(required_columns(state_columns, optional))
    return "id" in header and (required <= header or bool(header & set(alone)))


def _csv_rows(path: Path, encoding: str | None) -> tuple[pd.DataFrame, np.ndarray]:
    """A CSV's rows as text by its header's names, and each row's line in the file; a row
    of another length than the header is an error naming its line (not silently cut). A
    list that is not UTF-8 is read in ``encoding``, else in the code page its evidence
    points to when that is sure (a guess is refused: this reader has no warnings)."""
    try:
        data = path.read_bytes()
        decoded = decode(data, encoding, table_evidence)
    except OSError as error:
        raise InputError(
            [Issue(str(path), None, f"cannot read the list: {error.strerror}")]
        ) from None
    except DecodingError as error:
        raise InputError([Issue(str(path), error.line, str(error))]) from None
    unsure = decoded.warning()
    if unsure:
        raise InputError([Issue(str(path), None, unsure)])
    text = decoded.text
    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[list[str]] = []
    lines: list[int] = []
    issues: list[Issue] = []
    try:
        header = [name.strip() for name in next(reader, [])]
        for row in reader:
            if not any(field.strip() for field in row):
                continue
            if len(row) != len(header):
                issues.append(Issue(str(path), reader.line_num, f"{len(row)} fields where the "
                                    f"header has {len(header)}"))  # fmt: skip
                continue
            rows.append(row)
            lines.append(reader.line_num)
    except csv.Error as error:
        issues.append(Issue(str(path), reader.line_num, f"not a readable CSV line: {error}"))
    if not header:
        issues.append(Issue(str(path), None, "the list is empty"))
    raise_if_errors(issues[:20])
    return pd.DataFrame(rows, columns=header, dtype=str), np.asarray(lines, dtype=np.int64)


def _national_id_issues(
    source: str, national: pd.Series, lines: np.ndarray, scheme: NationalId | None
) -> list[Issue]:
    """A national id the scheme's pattern refuses, or given to two rows (it names one
    person), each an error at its line."""
    given = national.ne("").to_numpy(bool)
    issues = []
    if scheme is not None:
        wrong = given & ~national.str.fullmatch(scheme.pattern).fillna(False).to_numpy(bool)
        issues += [
            Issue(source, int(lines[line]), f"national_id {national.iloc[line]!r}: not the "
                  f"form of the {scheme.label} ({scheme.example})")
            for line in np.flatnonzero(wrong)[:20]
        ]  # fmt: skip
    twice = given & national.duplicated(keep=False).to_numpy(bool)
    issues += [
        Issue(source, int(lines[line]), f"national_id {national.iloc[line]} is given to two "
              "rows: it names one person")
        for line in np.flatnonzero(twice)[:20]
    ]  # fmt: skip
    return issues


def _one_id(
    source: str, columns: pd.DataFrame, lines: np.ndarray, scheme: NationalId | None
) -> tuple[pd.Series, list[Issue]]:
    """Each row's national id from every id column (``national_id``, ``zps``, ``pkz``,
    ``uscf_id`` …), each column's values checked against ``scheme``'s pattern. Two columns
    giving one row two ids of one form (two ZPS, two US Chess ids) disagree: an error. Ids of
    two forms (the DSB's ZPS beside its PKZ, as its exports give them) name one person: the
    first column's is kept (the database keeps one national id)."""
    text = columns.apply(lambda column: column.str.strip().str.upper())
    issues = []
    if scheme is not None:
        for name in text.columns:
            values = text[name]
            wrong = values.ne("") & ~values.str.fullmatch(scheme.pattern).fillna(False)
            issues += [
                Issue(source, int(lines[line]), f"{name} {values.iloc[line]!r}: not the form "
                      f"of the {scheme.label} ({scheme.example})")
                for line in np.flatnonzero(wrong.to_numpy(bool))[:20]
            ]  # fmt: skip
    forms = _forms(scheme.pattern) if scheme is not None else [".*"]
    first = text.iloc[:, 0]
    for name in text.columns[1:]:
        values = text[name]
        for form in forms:  # two different ids of one form on one row
            both = first.str.fullmatch(form) & values.str.fullmatch(form)
            clash = both.fillna(False) & first.ne(values)
            issues += [
                Issue(source, int(lines[line]), f"{text.columns[0]} {first.iloc[line]} and "
                      f"{name} {values.iloc[line]} disagree: one person has one; correct one")
                for line in np.flatnonzero(clash.to_numpy(bool))[:20]
            ]  # fmt: skip
        first = first.where(first.ne(""), values)
    return first, issues


def _forms(pattern: str) -> list[str]:
    """A scheme's pattern's top-level alternatives (``ZPS|PKZ``): the forms of its id."""
    forms, depth, start = [], 0, 0
    for at, char in enumerate(pattern):
        depth += char in "([" and (at == 0 or pattern[at - 1] != "\\")
        depth -= char in ")]" and (at == 0 or pattern[at - 1] != "\\")
        if char == "|" and depth == 0:
            forms.append(pattern[start:at])
            start = at + 1
    return [*forms, pattern[start:]]


def read_state_list(
    path: Path,
    state_columns: Mapping[str, str],
    system: str,
    bounds: Mapping[str, tuple[float, float, str]] | None = None,
    encoding: str | None = None,
    *,
    optional: Collection[str] = (),
    choices: Mapping[str, Sequence[str]] | None = None,
    text_checks: Mapping[str, Callable[[str], str]] | None = None,
    alone: Collection[str] = (),
    not_from_elo: str = "",
    scheme: NationalId | None = None,
) -> pd.DataFrame:
    """A previous list for a rating system (docs/formats.md §11): a CSV with ``id`` and the
    system's ``state_columns`` (name → dtype; a "string" column, a list period unless
    ``choices`` or ``text_checks`` says otherwise, and a "boolean" column, written true or
    false, may be left out), with the ``IDENTITY`` columns given and each row's ``line``. A
    number outside its column's ``bounds`` (low, high, hint), a fraction in an "Int64"
    column, a string column in ``choices`` holding none of its values, or a text its check
    refuses (the check says what is wrong), is an error. A number column in ``optional`` may
    be left out or empty for a player with a state, but is an error without them unless it is
    in ``alone`` (a value the system makes a state of, the ECF's grade). Problems name the
    file and line. A list that looks like an Elo list is pointed to ``init``, which makes
    the first states from one, unless the system makes none (``not_from_elo`` says why).
    The federation's own id (``scheme``) comes as ``national_id`` or under the scheme's
    headers; a value its pattern refuses, or one given twice, is an error naming the line."""
    columns = ", ".join(state_columns)
    # An Elo list (any of its forms) makes a database's first states: docs/systems.md §7.
    elo_hint = (
        f"; if this is an Elo list, init --rules {system} --list makes each state from it"
        if not not_from_elo
        else f"; an Elo list will not do: {not_from_elo}"
    )
    if path.suffix.lower() != ".csv":
        wrong = f"a {system} list is a CSV file of id, {columns}{elo_hint}"
        raise InputError([Issue(str(path), None, wrong)])
    frame, lines = _csv_rows(path, encoding)
    headers = scheme.headers if scheme is not None else ()
    id_columns = [c for c in frame.columns if c.lower() in (*headers, "national_id")]
    issues: list[Issue] = []
    if id_columns:  # every one read and checked (docs/formats.md §11.1)
        national, issues = _one_id(str(path), frame[id_columns], lines, scheme)
        frame = frame.drop(columns=id_columns).assign(national_id=national)
    if "national_id" in frame.columns and "id" not in frame.columns:
        frame["id"] = ""  # each player known by the federation's id (below)
    required = required_columns(state_columns, optional)
    # A column the system makes a state of stands in for the required ones (a list of old
    # ECF grades alone): its rows give it, the others or none.
    wanted = ["id"] if set(alone) & set(frame.columns) else ["id", *required]
    missing = [c for c in wanted if c not in frame.columns]
    if missing:
        wrong = f"no column {', '.join(missing)} for {system} (a list has id, {columns})"
        if "rating" in frame.columns and "rating" not in missing:
            wrong += elo_hint
        raise InputError([Issue(str(path), 1, wrong)])
    state = pd.DataFrame({"id": frame["id"].str.strip()})
    if "national_id" in frame.columns:  # a row without our id is known by the federation's
        national = frame["national_id"]
        state["id"] = state["id"].where(state["id"].ne(""), national)
        issues += _national_id_issues(str(path), national, lines, None)
    for column, dtype in state_columns.items():
        text = frame[column].str.strip() if column in frame else pd.Series("", index=frame.index)
        if dtype == "string" and column in (choices or {}):
            allowed = list((choices or {})[column])
            unknown = text.ne("") & ~text.isin(allowed)
            issues += [
                Issue(str(path), int(lines[line]), f"{column} {text.iloc[line]!r} is not one of "
                      f"{', '.join(allowed)} (or empty)")
                for line in np.flatnonzero(unknown.to_numpy())[:20]
            ]  # fmt: skip
            state[column] = text.astype("string").where(text.ne(""))
            continue
        if dtype == "string" and text_checks and column in text_checks:
            check = text_checks[column]
            refused = [(line, check(str(text.iloc[line])))
                       for line in np.flatnonzero(text.ne("").to_numpy())]  # fmt: skip
            issues += [Issue(str(path), int(lines[line]), f"{column}: {problem}")
                       for line, problem in refused if problem][:20]  # fmt: skip
            state[column] = text.astype("string").where(text.ne(""))
            continue
        if dtype == "boolean":
            truth = text.str.lower().map(TRUTH)
            issues += [
                Issue(str(path), int(lines[line]), f"{column} {text.iloc[line]!r} is not "
                      "true or false")
                for line in np.flatnonzero((truth.isna() & text.ne("")).to_numpy())[:20]
            ]  # fmt: skip
            state[column] = truth.astype("boolean")
            continue
        if dtype == "string":
            # A list period (Glicko's last_period): written YYYY-MM, or empty.
            misdated: list[Issue] = []
            for line in np.flatnonzero(text.ne("").to_numpy()):
                try:
                    canonical_period(str(text.iloc[line]))
                except PeriodError as error:
                    misdated.append(Issue(str(path), int(lines[line]), f"{column}: {error}"))
            issues += misdated[:20]
            state[column] = text.astype("string").where(text.ne(""))
            continue
        values = pd.to_numeric(text.where(text.ne("")), errors="coerce")
        bad = values.isna() & text.ne("")
        issues += [
            Issue(str(path), int(lines[line]), f"{column} {text.iloc[line]!r} is not a number")
            for line in np.flatnonzero(bad.to_numpy())[:20]
        ]
        if dtype == "Int64":  # a state that is a whole number (the DWZ and its index)
            broken = values.notna() & (values != np.floor(values))
            issues += [
                Issue(str(path), int(lines[line]), f"{column} {text.iloc[line]!r} is not a "
                      "whole number")
                for line in np.flatnonzero(broken.to_numpy())[:20]
            ]  # fmt: skip
        state[column] = values.astype("Float64")
        if bounds and column in bounds:
            low, high, hint = bounds[column]
            outside = (values < low) | (values > high)
            issues += [
                Issue(str(path), int(lines[line]), f"{column} {text.iloc[line]} is out of range "
                      f"for {system} ({low:g} to {high:g}){'; ' + hint if hint else ''}")
                for line in np.flatnonzero(outside.fillna(False).to_numpy())[:20]
            ]  # fmt: skip
    given = state[required].notna()
    partly = given.any(axis=1) & ~given.all(axis=1)
    issues += [
        Issue(str(path), int(lines[line]), f"{', '.join(required)}: give all of them or none "
              "(none: the player starts as unrated)")
        for line in np.flatnonzero(partly.to_numpy())[:20]
    ]  # fmt: skip
    extra = [c for c in state_columns if c in optional and c not in alone]
    if extra:
        without = state[extra].notna().any(axis=1) & ~given.all(axis=1)
        issues += [
            Issue(str(path), int(lines[line]), f"{', '.join(extra)} given without "
                  f"{', '.join(required)}: give {', '.join(required)} too, or leave them empty")
            for line in np.flatnonzero(without.to_numpy())[:20]
        ]  # fmt: skip
    # A row nobody can be found by would be dropped, its player rated as new: an error.
    issues += [
        Issue(str(path), int(lines[line]), "no id: give the player's id (the FIDE ID, or "
              "<event>#<start rank> for a player without one) or national id")
        for line in np.flatnonzero(state["id"].eq("").to_numpy(bool))[:20]
    ]  # fmt: skip
    twice = state["id"].duplicated(keep=False) & state["id"].ne("")
    issues += [
        Issue(str(path), int(lines[line]), f"id {state['id'].iloc[line]} is listed twice")
        for line in np.flatnonzero(twice.to_numpy())[:20]
    ]
    raise_if_errors(issues)
    for column in IDENTITY:
        if column in frame.columns:
            text = frame[column].str.strip()
            present = text.ne("")
            if column == "birth_year":  # 0 or 0000: unknown (docs/formats.md §4.1)
                present = present & text.str.strip(UNKNOWN_YEAR).ne("")
            state[column] = text.astype("string").where(present)
    state["line"] = lines
    return state
