"""The older lists' rows of the players whose pages a publish writes, cut from the copies
the site keeps beside it (monthly/site_rows.py, issue 42): a quiet month does not read the
older lists' games, players and calculations whole; the site it leaves is the one
``rating-batch site`` writes from the database; a copy whose bytes or index do not fit the
file the store names is never used (the file is read whole, as before, and kept again)."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from tempfile import TemporaryDirectory

import numpy as np
import pandas as pd
import pytest
from db_helpers import NEWBIE_FIDE_ID, run

from monthly.test_site_incremental import published_site_equals_fresh, two_months
from rating_batch.monthly import site_rows
from rating_batch.monthly.site import cut_lists, deferred_list
from rating_batch.monthly.site_rows import ROWS_FOLDER, ROWS_VERSION, Cut, RowCache
from rating_batch.periods import Period
from rating_batch.writers.site import SiteList
from rating_batch.writers.site_players import column_facts

NEWBIE = str(NEWBIE_FIDE_ID)


def test_a_quiet_month_cuts_the_older_lists_rows_of_the_players_it_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, out = two_months(tmp_path)
    # February's publish (the first site) indexed its games, players and calculations, in
    # its period's folder (no copy: the files there are the bytes published).
    kept = sorted(p.name for p in (out / ROWS_FOLDER).iterdir())
    assert len([n for n in kept if n.endswith(".npz")]) == 3
    assert not [n for n in kept if n.endswith(".csv")]
    whole: list[str] = []
    read_whole = RowCache.whole

    def spy_whole(self: RowCache, period: Period, path: str, columns: object = None) -> object:
        whole.append(f"{period}/{path}")
        return read_whole(self, period, path, columns)  # type: ignore[arg-type]

    cut_ids: list[tuple[list[str], list[str]]] = []
    cut_frame = Cut.frame

    def spy_frame(self: Cut, rows: np.ndarray, columns: object = None) -> object:
        found = cut_frame(self, rows, columns)  # type: ignore[arg-type]
        if found is not None:
            cut_ids.append((sorted(found.columns), sorted(set(found["id"]))))
        return found

    monkeypatch.setattr(RowCache, "whole", spy_whole)
    monkeypatch.setattr(Cut, "frame", spy_frame)
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    # February's lists: list.csv, changes.csv and norms.csv whole (every page's history),
    # its games, players and calculations cut; March's (the newest) whole.
    older = [path for path in whole if path.startswith("2026-02/")]
    assert not [p for p in older if p.endswith(("games.csv", "players.csv", "calculations.csv"))]
    assert "2026-03/standard/games.csv" in whole
    # The pages written: 15 and 16 (they played in February), Newbie (new on the list);
    # January's event page again (it now links Newbie's page): February's calculations of
    # those three (11 to 14 have none: their January games were against an unrated player).
    calculations = [ids for columns, ids in cut_ids if "calculation" in columns]
    assert calculations == [["15", "16", NEWBIE]]
    monkeypatch.undo()
    published_site_equals_fresh(tmp_path, db, out)


def damage(place: Path) -> None:
    """The last byte of a file's last row changed (it still parses)."""
    data = bytearray(place.read_bytes())
    data[-2] = ord("7") if data[-2] != ord("7") else ord("8")
    place.write_bytes(bytes(data))


def test_a_file_changed_since_it_was_published_is_never_cut_and_is_copied(
    tmp_path: Path,
) -> None:
    db, out = two_months(tmp_path)
    rows = out / ROWS_FOLDER
    # February's files in its folder changed by hand (the officer's, or a disk's, doing).
    for name in ("games.csv", "players.csv", "calculations.csv"):
        damage(out / "2026-02" / "standard" / name)
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    published_site_equals_fresh(tmp_path, db, out)
    # Each was read whole from the database, and its bytes as published kept as a copy:
    # its name is their SHA-256; a damaged copy is not used either, and is kept again.
    copies = sorted(rows.glob("*.csv"))
    assert len(copies) == 3
    for place in copies:
        assert hashlib.sha256(place.read_bytes()).hexdigest() == place.name[:-4]
        damage(place)
    assert run("unpublish", "2026-03", "--db", db)[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    published_site_equals_fresh(tmp_path, db, out)
    for place in copies:
        assert hashlib.sha256(place.read_bytes()).hexdigest() == place.name[:-4]


def test_an_index_that_does_not_fit_its_copy_is_never_used(tmp_path: Path) -> None:
    db, out = two_months(tmp_path)
    rows = out / ROWS_FOLDER
    indexes = sorted(rows.glob(f"*.{ROWS_VERSION}.npz"))
    assert len(indexes) == 3
    # Another file's index under this one's name (its digest says so), and an index whose
    # ids are shifted by one row (the rows cut are not the ids it names).
    first, second, third = indexes
    first.write_bytes(second.read_bytes())
    with np.load(third) as saved:
        arrays = {name: saved[name] for name in saved.files}
    arrays["id_codes"] = np.roll(arrays["id_codes"], 1)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    third.write_bytes(buffer.getvalue())
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    published_site_equals_fresh(tmp_path, db, out)


def test_a_list_unpublished_takes_its_copies_away(tmp_path: Path) -> None:
    db, out = two_months(tmp_path)
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    assert len(list((out / ROWS_FOLDER).glob("*.npz"))) == 6  # February's three, March's
    assert run("unpublish", "2026-03", "--db", db)[0] == 0
    assert run("site", "--db", db, "--out", out)[0] == 0
    assert len(list((out / ROWS_FOLDER).glob("*.npz"))) == 3


class FileStore:
    """A store of one published file, as RowCache asks for it."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def published_file(self, period: Period, path: str) -> bytes:
        return self.data

    def published_digest(self, period: Period, path: str) -> str:
        return hashlib.sha256(self.data).hexdigest()


FEBRUARY = Period.parse("2026-02")


def test_rows_cut_are_parsed_as_the_whole_file_is(tmp_path: Path) -> None:
    # Player 2's name was neutralised by our CSV writer ('=Bob), one field is quoted with a
    # comma; rows of 2 (any event) and of event "b" (any player): lines 2, 3 and 4.
    data = ("\ufeffid,event,name\n1,a,Ann\n2,a,'=Bob\n3,b,\"Cy, Jr\"\n2,c,'=Bob\n4,d,Di\n").encode()
    cache = RowCache(FileStore(data), tmp_path)  # type: ignore[arg-type]
    whole = cache.whole(FEBRUARY, "standard/games.csv")
    assert whole is not None and whole["name"].tolist() == ["Ann", "=Bob", "Cy, Jr", "=Bob", "Di"]
    cut = cache.index(FEBRUARY, "standard/games.csv")
    assert cut is not None
    assert cut.events_of(["2"]) == {"a", "c"}
    rows = cut.rows(["2"], ["b"])
    assert rows.tolist() == [1, 2, 3]
    frame = cut.frame(rows, None)
    assert frame is not None
    pd.testing.assert_frame_equal(frame, whole.iloc[[1, 2, 3]].reset_index(drop=True))


def test_a_file_with_a_line_end_inside_a_field_is_not_kept(tmp_path: Path) -> None:
    data = b'id,event,name\n1,a,"Ann\nSmith"\n2,a,Bob\n'
    cache = RowCache(FileStore(data), tmp_path)  # type: ignore[arg-type]
    assert cache.whole(FEBRUARY, "standard/players.csv") is not None
    assert cache.index(FEBRUARY, "standard/players.csv") is None  # read whole each time


def test_column_facts_are_decided_on_every_row() -> None:
    # k: numbers, several; note: text; flag: true/false only (no system column); blank:
    # never filled; calculation: one kind only. id and name are never a calculation column.
    frame = pd.DataFrame(
        {"id": ["1", "2"], "name": ["A", "B"], "k": ["20", "40"], "note": ["x", ""],
         "flag": ["true", "false"], "blank": ["", ""], "calculation": ["rating", "rating"]}
    )  # fmt: skip
    facts = column_facts(frame)
    assert facts.index.tolist() == ["k", "note", "flag", "blank", "calculation"]
    assert facts.to_dict("index") == {
        "k": {"flag": False, "filled": True, "several": True, "numbers": True},
        "note": {"flag": False, "filled": True, "several": True, "numbers": False},
        "flag": {"flag": True, "filled": True, "several": True, "numbers": False},
        "blank": {"flag": True, "filled": False, "several": False, "numbers": True},
        "calculation": {"flag": False, "filled": True, "several": False, "numbers": False},
    }


def test_the_module_keeps_no_copy_without_a_folder() -> None:
    cache = RowCache(FileStore(b"id\n1\n"), None)  # type: ignore[arg-type]
    assert cache.whole(FEBRUARY, "standard/games.csv") is not None
    assert cache.index(FEBRUARY, "standard/games.csv") is None
    assert site_rows.ROWS_FOLDER == ".site-rows"


def test_line_ends_and_the_files_bytes_are_found_a_chunk_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(site_rows, "CHUNK", 4)
    data = b"id\n1\n22\n333\n"  # line feeds at 2, 4, 7 and 11: across chunks of 4 bytes
    assert site_rows._line_ends(data).tolist() == [2, 4, 7, 11]
    place = tmp_path / "games.csv"
    place.write_bytes(data)
    assert site_rows._holds(place, data)
    assert not site_rows._holds(place, data[:-1] + b"4")  # its last byte other
    assert not site_rows._holds(place, data[:-1])  # the file holds one byte more
    assert not site_rows._holds(place, data + b"4\n")  # one line less
    assert not site_rows._holds(tmp_path / "gone.csv", data)


class FilesStore(FileStore):
    """A store of a list's published files, by path."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files

    def published_file(self, period: Period, path: str) -> bytes:
        return self.files[path]

    def published_digest(self, period: Period, path: str) -> str:
        return hashlib.sha256(self.files[path]).hexdigest()


def test_an_event_page_written_again_gets_all_its_players_rows() -> None:
    # A's page is new (moved): the page of e1, his event, is written again, and its rating
    # before each player is his calculation row of e1: B's too, whose page is not written.
    # C and D (e2) are not read.
    files = {
        "standard/games.csv": b"id,event,opponent_id,score,reason\nA,e1,B,1,\nB,e1,A,0,\n"
        b"C,e2,D,1,\nD,e2,C,0,\n",
        "standard/players.csv": b"id,name,rating\nA,Ann,1500\nB,Bob,1600\nC,Cy,1700\nD,Di,1800\n",
        "standard/calculations.csv": b"id,event,rating,calculation\nA,e1,1500,rating\n"
        b"B,e1,1600,rating\nC,e2,1700,rating\nD,e2,1800,rating\n",
    }
    with TemporaryDirectory() as folder:
        rows = RowCache(FilesStore(files), Path(folder))  # type: ignore[arg-type]
        for path in files:
            assert rows.whole(FEBRUARY, path) is not None  # kept, with its index
        events = pd.DataFrame({"key": ["e1", "e2"], "name": ["E1", "E2"], "start": "", "end": ""})
        listing = pd.DataFrame({"id": ["A", "B", "C", "D"], "rating": ["1500"] * 4})
        each = SiteList(FEBRUARY, "standard", listing, None, None, None, events, {})
        partial = deferred_list(rows, each)
        assert partial is not None and partial.partial
        assert partial.events["key"].tolist() == ["e1", "e2"]
        (cut,) = cut_lists(rows, [partial], {"A"}, {"A"})
        assert cut.games is not None and cut.players is not None
        assert cut.calculations is not None
        assert cut.games["id"].tolist() == ["A", "B"]
        assert cut.players["id"].tolist() == ["A", "B"]
        assert cut.calculations["id"].tolist() == ["A", "B"]
        assert cut.facts is not None and not cut.facts.at["calculation", "several"]
