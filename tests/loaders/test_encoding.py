"""The encoding of a file that is not UTF-8 (loaders/encoding.py, docs/formats.md §2): found
from the file's names and federations, said when unsure, and given with ``--encoding``.

The files of tests/data/encodings (SOURCES.md there) hold Polish, Czech, Russian, Ukrainian
and Japanese names in the code pages their countries' software writes; the expected names are
written here as they are spelt."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA, read_csv
from db_helpers import ADULT, database, dump, process, query, run
from trf_text import P, trf

from rating_batch.loaders.encoding import decode
from rating_batch.loaders.trf import read_trf

ENCODINGS = DATA / "encodings"

# file → (encoding, event name, city, the six players' names in start order)
EVENTS = {
    "lodz-cp1250.trf": (
        "windows-1250", "Puchar Łodzi w szachach szybkich", "Łódź",
        ["Żółkiewski, Łukasz", "Wiśniewska, Małgorzata", "Szczęsny, Paweł",
         "Dąbrowski, Jędrzej", "Wróblewska, Zofia", "Kowalczyk, Ewa"],
    ),
    "brno-cp1250.trf": (
        "windows-1250", "Brněnský rapid 2026", "Brno",
        ["Dvořák, Jiří", "Růžičková, Kateřina", "Šťastný, Tomáš", "Černý, Ondřej",
         "Procházková, Eliška", "Novák, Petr"],
    ),
    "moskva-cp1251.trf": (
        "windows-1251", "Блиц-турнир Москва", "Москва",
        ["Иванов, Пётр", "Смирнова, Елена", "Кузнецов, Дмитрий", "Попова, Анастасия",
         "Соколов, Михаил", "Лебедева, Ольга"],
    ),
    "tokyo-sjis.trf": (
        "cp932", "東京オープン 2026", "東京",
        ["山田, 太郎", "佐藤, 花子", "鈴木, 一郎", "高橋, 美咲", "田中, 健太", "渡辺, さくら"],
    ),
    # KOI8-R read as Windows-1251 gives 'йЧБОПЧ, рЈФТ': letters, but the case upside down.
    "moskva-koi8r.trf": (
        "koi8-r", "Блиц-турнир Москва", "Москва",
        ["Иванов, Пётр", "Смирнова, Елена", "Кузнецов, Дмитрий", "Попова, Анастасия",
         "Соколов, Михаил", "Лебедева, Ольга"],
    ),
    # KOI8-R has no і, ї, є: only KOI8-U reads them as letters.
    "kyiv-koi8u.trf": (
        "koi8-u", "Кубок Києва з рапіду", "Київ",
        ["Шевченко, Тарас", "Коваленко, Олена", "Бондаренко, Ігор", "Ткаченко, Наталія",
         "Олійник, Євген", "Кравченко, Юлія"],
    ),
}  # fmt: skip
FEDERATIONS = {"lodz-cp1250.trf": "POL", "brno-cp1250.trf": "CZE", "moskva-cp1251.trf": "RUS",
               "tokyo-sjis.trf": "JPN", "moskva-koi8r.trf": "RUS",
               "kyiv-koi8u.trf": "UKR"}  # fmt: skip
#: The ratings make.py writes, in start order.
RATINGS = [2105, 1987, 1876, 1765, 1654, 1543]


@pytest.mark.parametrize("file", sorted(EVENTS), ids=sorted(EVENTS))
def test_a_file_in_its_countrys_code_page_reads_as_written(file: str) -> None:
    encoding, name, city, names = EVENTS[file]
    event = read_trf(ENCODINGS / file)
    assert (event.issues, event.info.encoding) == ([], encoding)
    assert (event.info.name, event.info.city) == (name, city)
    assert event.players["name"].tolist() == names
    # The fields after the name are in place (in the Shift-JIS file, counted in bytes).
    assert event.players["rating"].tolist() == RATINGS
    assert event.players["federation"].unique().tolist() == [FEDERATIONS[file]]


@pytest.mark.parametrize("file", sorted(EVENTS), ids=sorted(EVENTS))
def test_rate_writes_the_names_in_their_alphabet_without_a_warning(
    file: str, tmp_path: Path
) -> None:
    _, _, _, names = EVENTS[file]
    code, _, err = run("rate", ENCODINGS / file, "--rules", "fide-2025", "--out", tmp_path)
    assert (code, err) == (0, "")
    assert [row["name"] for row in read_csv(tmp_path / "players.csv")] == names


@pytest.mark.parametrize(
    ("file", "first_id"), [("lodz-cp1250.trf", 900000101), ("moskva-koi8r.trf", 900000141)]
)
def test_add_stores_the_names_and_the_encoding(file: str, first_id: int, tmp_path: Path) -> None:
    db = database(tmp_path, *(f"{first_id + n},{RATINGS[n]}" for n in range(6)))
    code, _, err = run("add", ENCODINGS / file, "--db", db)
    assert (code, err) == (0, "")
    encoding, name, _, names = EVENTS[file]
    assert query(db, "SELECT name, encoding FROM events") == [(name, encoding)]
    stored = query(db, "SELECT name FROM players WHERE name != '' ORDER BY fide_id")
    assert [name for (name,) in stored] == names


def test_a_list_and_a_crosstable_in_a_code_page(tmp_path: Path) -> None:
    listing = ENCODINGS / "list-cp1251.csv"
    assert run("check", listing)[1:] == ("", "0 error(s), 0 warning(s)\n")
    db = tmp_path / "r.sqlite"
    code, _, err = run("init", "--list", listing, "--period", "2026-01", "--db", db)
    assert (code, err) == (0, "")
    stored = query(db, "SELECT name FROM players ORDER BY fide_id")
    assert [name for (name,) in stored] == EVENTS["moskva-cp1251.trf"][3]
    code, _, err = process(
        "rate", ENCODINGS / "brno-cp1250.csv", "--rules", "fide-2025", "--out", tmp_path / "out"
    )
    assert (code, err) == (0, "")
    rows = read_csv(tmp_path / "out" / "players.csv")
    assert [row["name"] for row in rows] == EVENTS["brno-cp1250.trf"][3]


#: Two Czech names whose every letter Windows-1252 and 1257 have too: without a federation
#: to tell, the file could be any of the three.
UNSURE = [P(1, "Dvořák, Jiří", 1800, 900000201, ADULT), P(2, "Novák, Petr", 1700, 900000202, ADULT)]


def test_an_unsure_reading_is_a_warning_showing_the_other_readings(tmp_path: Path) -> None:
    path = tmp_path / "czech.trf"
    path.write_bytes(trf(UNSURE, [(1, 1, 2, "1-0")], name="Rapid 2026").encode("cp1250"))
    warning = (
        f"{path}: warning: not UTF-8: read as windows-1250 ('Dvořák, Jiří', windows-1252 "
        "'Dvoøák, Jiøí', windows-1257 'Dvoųįk, Jiųķ'), unsure (the names read as letters in "
        "it): if names read wrong, give --encoding with the file's code page (windows-1250, "
        "windows-1251, koi8-r, cp932 …)"
    )
    assert run("check", path) == (0, warning + "\n", "0 error(s), 1 warning(s)\n")
    code, _, err = run("rate", path, "--rules", "fide-2025", "--out", tmp_path / "out")
    assert (code, err) == (0, warning + "\n")
    # Said once, the officer's --encoding is taken without a word.
    code, _, err = process(
        "rate", path, "--encoding", "windows-1252", "--rules", "fide-2025", "--out", tmp_path / "b"
    )
    assert (code, err) == (0, "")
    assert [r["name"] for r in read_csv(tmp_path / "b" / "players.csv")] == [
        "Dvoøák, Jiøí",
        "Novák, Petr",
    ]


def test_the_federation_makes_a_reading_sure(tmp_path: Path) -> None:
    """The same names with federation CZE (Windows-1250): no other reading is likely."""
    players = [P(p.rank, p.name, p.rating, p.fide_id, ADULT, federation="CZE") for p in UNSURE]
    path = tmp_path / "czech.trf"
    path.write_bytes(trf(players, [(1, 1, 2, "1-0")]).encode("cp1250"))
    event = read_trf(path)
    assert (event.issues, event.info.encoding) == ([], "windows-1250")
    assert event.players["name"].tolist() == ["Dvořák, Jiří", "Novák, Petr"]


def test_encoding_reads_only_the_files_that_are_not_utf8(tmp_path: Path) -> None:
    """A folder of UTF-8 and Windows-1251 files: --encoding windows-1251 leaves the UTF-8 one
    as it is (its bytes say so), and reads the other as told."""
    folder = tmp_path / "events"
    folder.mkdir()
    (folder / "moskva.trf").write_bytes((ENCODINGS / "moskva-cp1251.trf").read_bytes())
    players = [P(1, "Błaszczyk, Anna", 1600, 900000301, ADULT),
               P(2, "Ölander, Åsa", 1500, 900000302, ADULT)]  # fmt: skip
    (folder / "utf8.trf").write_text(trf(players, [(1, 1, 2, "=-=")]), encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = process(
        "rate", folder, "--encoding", "windows-1251", "--rules", "fide-2025", "--out", out
    )
    assert (code, err) == (0, "")
    names = {row["name"] for row in read_csv(out / "players.csv")}
    assert names == {"Błaszczyk, Anna", "Ölander, Åsa", *EVENTS["moskva-cp1251.trf"][3]}


@pytest.mark.parametrize("command", ["check", "rate", "add", "compare-rules", "init"])
def test_an_unknown_encoding_is_a_usage_error_that_changes_nothing(
    command: str, tmp_path: Path
) -> None:
    db = database(tmp_path)
    before = dump(db)
    event = ENCODINGS / "lodz-cp1250.trf"
    args = {
        "check": [event],
        "rate": [event, "--out", tmp_path / "out"],
        "add": [event, "--db", db],
        "compare-rules": [event, "--rules", "fide", "--rules", "fide-2024"],
        "init": ["--list", ENCODINGS / "list-cp1251.csv", "--db", tmp_path / "new.sqlite"],
    }[command]
    code, out, err = run(command, *args, "--encoding", "klingon")
    assert (code, out) == (2, "")
    assert err.endswith(
        "Error: Invalid value for '--encoding': unknown encoding 'klingon' (e.g. windows-1250, "
        "windows-1251, cp932, latin-1)\n"
    )
    assert dump(db) == before
    assert not (tmp_path / "out").exists() and not (tmp_path / "new.sqlite").exists()


@pytest.mark.parametrize(
    ("data", "text", "encoding", "sure"),
    [
        ("Hülleman".encode(), "Hülleman", "utf-8", True),
        (b"\xef\xbb\xbf012 x", "012 x", "utf-8-sig", True),
        # Alone, a word every western code page reads as letters: a guess.
        ("Mícheál".encode("cp1252"), "Mícheál", "windows-1252", False),
        ("Żółkiewski".encode("cp1250"), "Żółkiewski", "windows-1250", True),  # ¯ó³kiewski
        # Not Èâàíîâ, Ï¸òð (1252), nor Θβΰνξβ, ΟΈςπ (1253: ς only ends a word).
        # Nor хБЮМНБ, о╦РП (KOI8-R: the case upside down, a box-drawing line).
        ("Иванов, Пётр".encode("cp1251"), "Иванов, Пётр", "windows-1251", True),
        # Not йЧБОПЧ, рЈФТ (1251): KOI8 has the small letters where 1251 has the capitals.
        ("Иванов, Пётр".encode("koi8_r"), "Иванов, Пётр", "koi8-r", True),
        # Capitals alone: 1251 reads them as йчбопч, a name without a capital, less likely
        # but possible (all-small KOI8 reads in 1251 as capitals): a guess, said.
        ("ИВАНОВ, ПЁТР".encode("koi8_r"), "ИВАНОВ, ПЁТР", "koi8-r", False),
        # Not ╤гор (KOI8-R has no І), nor 鉀ﾗﾞﾅﾎﾋﾏ (cp932: a kanji among half-width kana).
        ("Шевченко, Ігор".encode("koi8_u"), "Шевченко, Ігор", "koi8-u", True),
    ],
    ids=["utf8", "bom", "latin1-word", "polish", "russian", "koi8-r", "koi8-r-capitals", "koi8-u"],
)
def test_decode(data: bytes, text: str, encoding: str, sure: bool) -> None:
    decoded = decode(data)
    assert (decoded.text, decoded.encoding, decoded.sure) == (text, encoding, sure)


def test_an_irish_latin1_file_is_windows_1252_by_its_federation() -> None:
    """docs/formats.md §2: IRL writes Windows-1252, so 'Mícheál' is not a Baltic 'Mķcheįl'."""
    event = read_trf(DATA / "trf" / "irl_champs-intermediate-2011_swiss-21p_latin1.trf")
    assert event.info.encoding == "windows-1252"
    assert "Morgan, Mícheál" in event.players["name"].tolist()
    assert not [i for i in event.issues if "UTF-8" in i.message]


@pytest.mark.parametrize(
    ("names", "codec", "taken", "other"),
    [
        # (An Ё would tell: KOI8-R reads 1251's as a box-drawing line.)
        (["ИВАНОВ, ПЕТР", "СМИРНОВА, ЕЛЕНА"], "cp1251", "windows-1251", "koi8-r 'хбюмнб, оерп'"),
        (["иванов, петр", "смирнова, елена"], "koi8_r", "windows-1251", "koi8-r 'иванов, петр'"),
    ],
    ids=["capitals-1251", "small-koi8"],
)
def test_names_of_one_case_are_a_guess_even_in_russia(
    names: list[str], codec: str, taken: str, other: str, tmp_path: Path
) -> None:
    """RUS writes Windows-1251 or KOI8-R, and each reads the other's capitals as small
    letters: names all of one case cannot tell them apart. The capitals are taken, and the
    warning names the other reading, never a silent guess."""
    players = [P(1, names[0], 1800, 900000201, ADULT, federation="RUS"),
               P(2, names[1], 1700, 900000202, ADULT, federation="RUS")]  # fmt: skip
    path = tmp_path / "one-case.trf"
    path.write_bytes(trf(players, [(1, 1, 2, "1-0")]).encode(codec))
    event = read_trf(path)
    assert event.info.encoding == taken
    [warning] = [issue.message for issue in event.issues]
    assert warning.startswith(f"not UTF-8: read as {taken} (")
    assert other in warning and "unsure" in warning and "--encoding" in warning


def test_capitals_without_a_federation_are_a_warning_naming_both_readings(
    tmp_path: Path,
) -> None:
    """Shift-JIS reads them as half-width katakana, which a name may be: the officer is told
    both readings (whichever is taken) and --encoding."""
    players = [P(1, "ИВАНОВ, ПЁТР", 1800, 900000201, ADULT, federation=""),
               P(2, "СМИРНОВА, ЕЛЕНА", 1700, 900000202, ADULT, federation="")]  # fmt: skip
    path = tmp_path / "caps.trf"
    path.write_bytes(trf(players, [(1, 1, 2, "1-0")]).encode("cp1251"))
    code, _, err = run("rate", path, "--rules", "fide-2025", "--out", tmp_path / "out")
    assert code == 0
    assert err.startswith(f"{path}: warning: not UTF-8: read as ")
    assert "windows-1251" in err and "'ИВАНОВ" in err and "cp932" in err and "unsure" in err
    assert "give --encoding" in err


def test_utf16_without_a_byte_order_mark_is_read_as_encoding_says(tmp_path: Path) -> None:
    """Its NUL bytes make it no text file, unless --encoding names UTF-16."""
    players = [P(1, "Łukasz, Żółć", 1800, 900000201, ADULT),
               P(2, "Иванов, Пётр", 1700, 900000202, ADULT)]  # fmt: skip
    path = tmp_path / "u16be.trf"
    path.write_bytes(trf(players, [(1, 1, 2, "1-0")]).encode("utf-16-be"))
    code, _, err = run("rate", path, "--rules", "fide-2025", "--out", tmp_path / "no")
    assert (code, err) == (
        1,
        f"Error: {path}: not a text file (it contains NUL bytes); if it is UTF-16 without a "
        "byte-order mark, give --encoding utf-16-le or utf-16-be\n",
    )
    assert not (tmp_path / "no").exists()
    out = tmp_path / "out"
    code, _, err = run(
        "rate", path, "--encoding", "utf-16-be", "--rules", "fide-2025", "--out", out
    )
    assert (code, err) == (0, "")
    assert [row["name"] for row in read_csv(out / "players.csv")] == [
        "Łukasz, Żółć",
        "Иванов, Пётр",
    ]


def test_a_utf16_encoding_leaves_the_utf8_files_of_a_folder_as_they_are(tmp_path: Path) -> None:
    """docs/formats.md §2: --encoding reads only the files that are not UTF-8; plain utf-16
    tells the byte order of a file without a byte-order mark by where the NUL bytes are."""
    folder = tmp_path / "events"
    folder.mkdir()
    wide = [P(1, "Łukasz, Żółć", 1800, 900000201, ADULT),
            P(2, "Иванов, Пётр", 1700, 900000202, ADULT)]  # fmt: skip
    (folder / "u16be.trf").write_bytes(trf(wide, [(1, 1, 2, "1-0")]).encode("utf-16-be"))
    plain = [P(1, "Ölander, Åsa", 1600, 900000301, ADULT),
             P(2, "Novák, Petr", 1500, 900000302, ADULT)]  # fmt: skip
    (folder / "utf8.trf").write_text(trf(plain, [(1, 1, 2, "=-=")]), encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run("rate", folder, "--encoding", "utf-16", "--rules", "fide-2025", "--out", out)
    assert (code, err) == (0, "")
    names = {row["name"] for row in read_csv(out / "players.csv")}
    assert names == {"Łukasz, Żółć", "Иванов, Пётр", "Ölander, Åsa", "Novák, Petr"}
