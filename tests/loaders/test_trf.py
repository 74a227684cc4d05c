"""The TRF reader on every corpus file and on malformed variants of them.

Expected values come from tests/data/trf/SOURCES.md and from the assertions of the source
repositories it cites (sklangen/TRF, echecsjs/trf, icu_tournament, icu_ratings_app)."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
from conftest import DATA, TRF_CORPUS

from rating_batch.errors import InputError
from rating_batch.loaders import load_event, read_event, read_events
from rating_batch.loaders.common import parse_date
from rating_batch.loaders.trf import parse_trf, read_trf
from rating_batch.schema import combined, one_batch

TRF = DATA / "trf"

# file stem prefix → (players, rounds, encoding, format, warnings)
CORPUS = {
    "fide-example1": (284, 7, "utf-8", "TRF06", 0),
    "esp_torneo-san-viator": (137, 7, "utf-8", "TRF16", 0),
    "javafo-aum": (52, 9, "utf-8", "TRFx", 0),
    "lichess_swiss": (13, 10, "utf-8", "TRFx", 0),
    "irl_bunratty-masters": (34, 6, "utf-8", "TRF16", 5),
    "irl_bunratty-major": (56, 6, "utf-8", "TRF06", 11),
    "irl_bunratty-minor": (103, 6, "utf-8", "TRF06", 17),
    "irl_champs-intermediate": (21, 5, "windows-1252", "TRF16", 1),
    "irl_armstrong-cup-2010-11": (160, 11, "utf-8", "TRF06", 0),
    "irl_armstrong-cup-2011-12": (2, 1, "utf-8-sig", "TRF16", 0),
    "irl_u19-championship-2010_": (4, 3, "utf-8", "TRF16", 0),
    "irl_u19-championship-2010-plus": (8, 4, "utf-8", "TRF06", 1),
    "irl_galway-major": (59, 6, "utf-8", "TRF16", 9),  # 8 points; round dates of 2001 (132)
    "irl_kilkenny-masters": (34, 6, "utf-8", "TRF06", 0),
    "fide-tec-trf2026": (249, 14, "utf-8", "TRF-2026", 0),  # NRS lines read (national ids)
}


def corpus_file(prefix: str) -> Path:
    (path,) = [p for p in TRF_CORPUS if p.name.startswith(prefix)]
    return path


def games_of(event_players: pd.DataFrame, games: pd.DataFrame, rank: int) -> pd.DataFrame:
    return games[games["player"] == rank].sort_values("round")


def test_every_corpus_file_is_covered() -> None:
    assert len(TRF_CORPUS) == len(CORPUS) == 15
    for path in TRF_CORPUS:
        assert sum(path.name.startswith(prefix) for prefix in CORPUS) == 1, path.name


@pytest.mark.parametrize("prefix", sorted(CORPUS), ids=sorted(CORPUS))
def test_corpus_file_loads_without_errors(prefix: str) -> None:
    players, rounds, encoding, version, warnings = CORPUS[prefix]
    event = load_event(corpus_file(prefix))
    assert len(event.players) == players
    assert event.info.rounds == rounds
    assert event.info.encoding == encoding
    assert event.info.format == version
    assert [i for i in event.issues if i.severity == "error"] == []
    assert len(event.issues) == warnings, [str(i) for i in event.issues]
    # Long format: one row per player per round with data; every played game seen twice.
    assert len(event.games) == players * event.games["round"].nunique()
    rated = event.games[event.games["rated"]]
    mirrored = rated.merge(
        rated, left_on=["round", "player", "opponent"], right_on=["round", "opponent", "player"]
    )
    assert len(mirrored) == len(rated)


def test_fide_example1_fields_match_the_source_repository() -> None:
    # sklangen/TRF tests/test_trf.py: players[25].name, [144].id, [114].rating, [81].birthdate,
    # players[74].games[4] == (188, 'w', '1', round 5); 146 rated (record 072).
    event = read_trf(corpus_file("fide-example1"))
    players = event.players
    assert players.iloc[25]["name"] == "Schaffer,Hendrik"
    assert players.iloc[144]["fide_id"] == 24615480
    assert players.iloc[114]["rating"] == 1994
    assert players.iloc[81]["birth_year"] == 1965
    assert players["rating"].notna().sum() == 146
    game = event.games[(event.games["player"] == 75) & (event.games["round"] == 5)].iloc[0]
    assert (game["opponent"], game["colour"], game["result"], game["rated"]) == (
        188,
        "w",
        "1",
        True,
    )
    assert event.info.name == "9. Karl-Mala-Gedenkturnier"
    assert (str(event.info.start), str(event.info.end)) == ("2005-07-28", "2005-07-31")
    # Letter titles ('g' → GM) and 'f' for women (docs/formats.md §4.1).
    first = players.iloc[0]
    assert (first["title"], first["name"], first["federation"]) == ("GM", "Vasquez,Rodrigo", "CHI")


def test_fide_example1_trf06_forfeits_are_not_rated() -> None:
    # Line 26: '153 - -' (forfeit loss with colour '-'), line 76: '204 - +' (forfeit win).
    games = read_trf(corpus_file("fide-example1")).games
    loss = games[(games["player"] == 13) & (games["round"] == 1)].iloc[0]
    win = games[(games["player"] == 63) & (games["round"] == 1)].iloc[0]
    assert (loss["opponent"], loss["result"], loss["rated"], loss["reason"], loss["score"]) == (
        153,
        "-",
        False,
        "forfeit",
        0.0,
    )
    assert (win["opponent"], win["score"], win["rated"], win["reason"]) == (
        204,
        1.0,
        False,
        "forfeit",
    )


def test_javafo_sample_fields() -> None:
    # echecsjs/trf: P1 Mirzoev Azer 2527 AZE 13400304 m; P23 w; P28 all Z; P14 an H; P48 a U.
    event = read_trf(corpus_file("javafo-aum"))
    players = event.players.set_index("player")
    first = players.loc[1]
    assert (
        first["name"],
        first["rating"],
        first["federation"],
        first["fide_id"],
        first["sex"],
    ) == (
        "Mirzoev Azer",
        2527,
        "AZE",
        13400304,
        "M",
    )
    assert first["title"] == "GM"
    assert players.loc[23, "sex"] == "F"
    games = event.games
    assert set(games_of(players, games, 28)["result"]) == {"Z"}
    assert "H" in set(games_of(players, games, 14)["result"])
    assert "U" in set(games_of(players, games, 48)["result"])
    assert event.info.time_control == "moves/time, increment"  # record 122


def test_bunratty_masters_fields() -> None:
    # icu_tournament spec: Short, Nigel M 2658 ENG GM rank 5; O'Connor 2111 results DWLDDL;
    # Wilson, Alexandra F 2020 ENG WFM. Start 2011-02-25, end 2011-02-27.
    event = read_trf(corpus_file("irl_bunratty-masters"))
    players = event.players.set_index("player")
    short = players.loc[1]
    assert (short["name"], short["sex"], short["rating"], short["federation"], short["title"]) == (
        "Short, Nigel",
        "M",
        2658,
        "ENG",
        "GM",
    )
    wilson = players.loc[26]
    assert (wilson["name"], wilson["sex"], wilson["rating"], wilson["title"]) == (
        "Wilson, Alexandra",
        "F",
        2020,
        "WFM",
    )
    oconnor = games_of(players, event.games, 16)
    # DWLDDL in the source spec, whose parser turned the two blank rounds into byes.
    assert oconnor["result"].fillna("").tolist() == ["=", "1", "0", "", "", "0"]
    assert oconnor["reason"].tolist()[3:5] == ["bye", "bye"]
    assert oconnor["score"].sum() == 1.5  # raw sum: two blank rounds were scored as byes
    assert (str(event.info.start), str(event.info.end)) == ("2011-02-25", "2011-02-27")


def test_u19_round_robin_fields() -> None:
    # icu_ratings_app uploads spec: Griffiths colours W|W|B, id 6897, rating 2225; Dunne
    # born 1992; Hülleman results L|W|L (a UTF-8 name that must not shift the columns).
    event = read_trf(corpus_file("irl_u19-championship-2010_"))
    players = event.players.set_index("player")
    assert (players.loc[1, "fide_id"], players.loc[1, "rating"]) == (6897, 2225)
    assert games_of(players, event.games, 1)["colour"].tolist() == ["w", "w", "b"]
    assert players.loc[4, "birth_year"] == 1992
    assert pd.isna(players.loc[4, "rating"])
    assert players.loc[3, "name"] == "Hülleman,Leon"
    assert games_of(players, event.games, 3)["result"].tolist() == ["0", "1", "0"]


def test_latin1_file_is_decoded_as_windows_1252() -> None:
    event = read_trf(corpus_file("irl_champs-intermediate"))
    assert event.players.set_index("player").loc[20, "name"] == "Morgan, Mícheál"


def test_bom_is_stripped_and_the_template_line_skipped() -> None:
    event = read_trf(corpus_file("irl_armstrong-cup-2011-12"))
    assert event.info.name == "Leinster Chess Union Div 1 Armstrong Cup 2011 - 2012"
    assert event.players["name"].tolist() == ["Griffiths, Ryan-Rhys", "Cafolla, Peter"]


def test_lichess_byes_without_opponent_or_colour() -> None:
    # '    H', '    U', '    -': four blanks mean no opponent (docs/formats.md §9).
    event = read_trf(corpus_file("lichess_swiss"))
    five = games_of(event.players, event.games, 5)
    assert five["result"].tolist()[:2] == ["H", "-"]
    assert five["reason"].tolist()[:2] == ["bye", "bye"]
    assert five["opponent"].isna().tolist()[:2] == [True, True]
    assert str(event.info.start) == "2020-05-29"


def test_legacy_bye_codes() -> None:
    # U19-plus: '0000 - =' half-point bye, '5 - +' forfeit with colour '-', '0000 - 0' → Z.
    event = read_trf(corpus_file("irl_u19-championship-2010-plus"))
    games = event.games
    flynn = games_of(event.players, games, 2).iloc[0]
    assert (flynn["score"], flynn["rated"], flynn["reason"]) == (0.5, False, "bye")
    griffiths = games_of(event.players, games, 1).iloc[0]
    assert (griffiths["opponent"], griffiths["score"], griffiths["reason"]) == (5, 1.0, "forfeit")
    assert [str(i) for i in event.issues] == [
        f"{corpus_file('irl_u19-championship-2010-plus')}:10: warning: round 1: "
        "result '0' without an opponent read as a zero-point bye"
    ]


def test_trf2026_national_rating_lines_give_the_national_ids() -> None:
    # TRF26's National Rating Support lines (172 IND FIDE, then "IND" lines in the 001
    # layout): columns 58-68 are the player's national id (docs/formats.md §11.1); the
    # national rating is not read.
    path = corpus_file("fide-tec-trf2026")
    event = read_trf(path)
    assert event.issues == []
    assert event.players["fide_id"].iloc[0] == 70123454321  # 11-digit IDs
    national = event.players.set_index("player")["national_id"]
    # Line 278: "IND    1   GM Player0001 …  2634 CG  70100010001 1987/07/05".
    assert (national[1], national[5], national[50]) == ("70100010001", "70500020002",
                                                        "75000070007")  # fmt: skip
    assert int(national.notna().sum()) == 15 and pd.isna(national[2])


def test_federation_lines_without_a_172_record_are_unknown_records() -> None:
    lines = corpus_file("fide-tec-trf2026").read_text(encoding="utf-8").splitlines()
    event = parse_trf([line for line in lines if not line.startswith("172")], source="t.trf")
    assert [str(i) for i in event.issues] == [
        "t.trf:277: warning: unknown record 'IND' ignored (15 lines)"
    ]
    assert event.players["national_id"].isna().all()


# -- malformed variants: every problem reported with file and line, nothing raised ------------


def u19_lines() -> list[str]:
    return corpus_file("irl_u19-championship-2010_").read_text(encoding="utf-8").splitlines()


def messages(lines: list[str]) -> list[str]:
    return [str(issue) for issue in parse_trf(lines, source="bad.trf").issues]


def test_one_sided_result_and_colour_are_errors() -> None:
    lines = u19_lines()
    lines[3] = lines[3].replace("     2 w 1", "     2 b =")
    assert messages(lines) == [
        "bad.trf:4: warning: declared points 3 but the rounds give 2.5",
        "bad.trf:4: round 2: result '=' against 2, whose line 5 has '0'",
        "bad.trf:4: round 2: colour 'b' against 2, whose line 5 has it too",
    ]


def test_opponent_not_in_the_file_and_missing_game() -> None:
    lines = u19_lines()
    lines[5] = lines[5].replace("     4 b 1", "     9 b 1")
    assert messages(lines) == [
        "bad.trf:6: round 2: opponent 9 is not a player of this file",
        "bad.trf:7: round 2: opponent 3 does not have this game",
    ]


def test_duplicate_start_rank() -> None:
    lines = u19_lines()
    lines.append(lines[4])
    assert "bad.trf:8: duplicate start rank 2 (first on line 5)" in messages(lines)


def test_misaligned_block_points_at_the_columns() -> None:
    lines = u19_lines()
    lines[4] = lines[4][:95] + "X" + lines[4][96:]
    assert (
        "bad.trf:5: round 1: misaligned round block '   3Xw 1' "
        "(expected 'nnnn c r' in columns 92-99)"
    ) in messages(lines)


def test_utf8_read_as_latin1_is_caught_as_misalignment() -> None:
    raw = corpus_file("irl_u19-championship-2010_").read_bytes()
    found = messages(raw.decode("latin-1").splitlines())
    assert found[0] == (
        "bad.trf:6: round 1: misaligned round block '    2 b ' (expected 'nnnn c r' in columns "
        "92-99) (the line has non-ASCII characters: is the file in another encoding?)"
    )


def test_bad_rating_and_unknown_code() -> None:
    lines = u19_lines()
    lines[4] = lines[4][:48] + "16x3" + lines[4][52:]
    lines[5] = lines[5][:98] + "Q" + lines[5][99:]
    found = messages(lines)
    assert "bad.trf:5: rating '16x3' is not a number (columns 49-52)" in found
    assert (
        "bad.trf:6: round 1: unknown result code 'Q' (TRF codes: 1 = 0 + - W D L H F U Z, or blank)"
    ) in found


def test_x_result_is_unplayed_with_a_warning() -> None:
    lines = u19_lines()
    lines[3] = lines[3][:98] + "X" + lines[3][99:]
    lines[6] = lines[6][:98] + "X" + lines[6][99:]
    event = parse_trf(lines, source="bad.trf")
    assert (
        "bad.trf:4: warning: round 1: result code 'X' is not a TRF16 code; "
        "taken as an unplayed game"
    ) in [str(i) for i in event.issues]
    first_round = event.games[(event.games["player"] == 1) & (event.games["round"] == 1)]
    assert first_round["rated"].tolist() == [False]


def test_file_without_players_is_an_error() -> None:
    assert messages(["012 Empty", "042 2026/01/01"]) == [
        "bad.trf: no player records (lines starting '001') found"
    ]


@pytest.mark.parametrize("cut", [10, 50, 90, 95, 100], ids=lambda n: f"cut-at-{n}")
def test_truncated_lines_never_raise(cut: int) -> None:
    lines = [line[:cut] if line.startswith("001") else line for line in u19_lines()]
    parse_trf(lines, source="bad.trf")  # a result, whatever it holds, and no exception


def test_load_event_raises_one_input_error_with_every_problem(tmp_path: Path) -> None:
    lines = u19_lines()
    lines[3] = lines[3].replace("     2 w 1", "     2 b =")
    lines.append(lines[4])
    path = tmp_path / "broken.trf"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(InputError) as raised:
        load_event(path)
    text = str(raised.value)
    assert f"{path}:8: duplicate start rank 2 (first on line 5)" in text
    assert f"{path}:4: round 2: result '=' against 2" in text


def test_binary_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "junk.trf"
    path.write_bytes(b"\x00\x01\x02PK\x03\x04")
    with pytest.raises(InputError, match=r"junk.trf: not a text file \(it contains NUL bytes\)"):
        read_event(path)


def test_unknown_suffix_names_the_supported_ones(tmp_path: Path) -> None:
    path = tmp_path / "event.pgn"
    path.write_text("[Event]")
    with pytest.raises(
        InputError, match=r"unsupported file type '.pgn': use .csv, .tab, .trf, .trfx, .txt, .xlsx"
    ):
        read_event(path)


# -- dates (decoding: test_encoding.py) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("2011/07/02", "2011-07-02"),
        ("24/09/2010", "2010-09-24"),
        ("25.02.2011", "2011-02-25"),
        ("28. 07. 2005", "2005-07-28"),
        ("10.09.13", "2010-09-13"),
        ("2008-02-01", "2008-02-01"),
        ("May 29, 2020", "2020-05-29"),
        ("29 May 2020", "2020-05-29"),
        ("", "None"),
        ("soon", "None"),
    ],
)
def test_parse_date(text: str, iso: str) -> None:
    assert str(parse_date(text)) == iso


def test_line_endings_cr_lf_crlf_all_split() -> None:
    from rating_batch.loaders.common import split_lines

    assert split_lines("a\r\nb\rc\nd") == ["a", "b", "c", "d"]


def test_parse_trf_reads_a_text_handle() -> None:
    text = corpus_file("irl_u19-championship-2010_").read_text(encoding="utf-8")
    event = parse_trf(io.StringIO(text), source="handle.trf")
    assert (len(event.players), event.issues) == (4, [])


def test_files_parsed_together_give_what_each_gives_alone(tmp_path: Path) -> None:
    # add parses hundreds of files as one array: every file's frames, metadata and issues
    # (each with its file and line) must be exactly those it gets when parsed on its own.
    # The corpus files are pinned above, the malformed cases by their .expected files;
    # together they have different widths, round counts, encodings and errors.
    malformed = sorted((Path(__file__).parents[1] / "malformed").glob("*.trf"))
    paths = [*TRF_CORPUS, *malformed, *TRF_CORPUS[:2]]  # a file twice, under two keys
    keys = [f"{path.stem}-{index}" for index, path in enumerate(paths)]
    together = read_events(paths, keys)
    assert len(together) == len(paths)
    refused = 0
    for path, key, event in zip(paths, keys, together, strict=True):
        if isinstance(event, InputError):  # refused before parsing (binary.trf), as alone
            with pytest.raises(InputError) as alone_error:
                read_event(path, key=key)
            assert str(alone_error.value) == str(event)
            refused += 1
            continue
        alone = read_trf(path, key=key)
        assert event.info == alone.info
        assert [str(i) for i in event.issues] == [str(i) for i in alone.issues], path.name
        pd.testing.assert_frame_equal(event.players, alone.players)
        pd.testing.assert_frame_equal(event.games, alone.games)
    assert refused == 1
    # The batch's own frames are the events' frames end to end, without slicing.
    read = [(p, k, e) for p, k, e in zip(paths, keys, together, strict=True)]
    batch = one_batch([e for _, _, e in read if not isinstance(e, InputError)])
    alone_games = [read_trf(p, key=k).games for p, k, e in read if not isinstance(e, InputError)]
    pd.testing.assert_frame_equal(
        combined(batch, "games"), pd.concat(alone_games, ignore_index=True)
    )


def test_a_batch_is_read_in_parts_when_large(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # More files than a batch holds: parsed in several batches, joined in file order.
    monkeypatch.setattr("rating_batch.loaders.TRF_BATCH", 4)
    paths = list(TRF_CORPUS)
    keys = [path.stem for path in paths]
    events = one_batch([e for e in read_events(paths, keys) if not isinstance(e, InputError)])
    assert [event.info.key for event in events] == keys
    for path, event in zip(paths, events, strict=True):
        pd.testing.assert_frame_equal(event.players, read_trf(path, key=path.stem).players)


def test_a_batch_read_on_two_cores_is_the_batch_read_on_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Half of a large batch is checked, decoded and parsed by a child: the same events, the
    same refusals (a binary file, one missing), each in its file's place."""
    malformed = sorted((Path(__file__).parents[1] / "malformed").glob("*.trf"))
    paths = [*malformed, *TRF_CORPUS, tmp_path / "gone.trf", *TRF_CORPUS[:2]]
    keys = [f"{path.stem}-{index}" for index, path in enumerate(paths)]
    one = read_events(paths, keys)
    monkeypatch.setattr("rating_batch.loaders.PARALLEL_TRFS", 2)
    two = read_events(paths, keys)
    assert len(one) == len(two) == len(paths)
    for path, first, second in zip(paths, one, two, strict=True):
        assert type(first) is type(second), path
        if isinstance(first, InputError):
            assert str(first) == str(second)
            continue
        assert first.info == second.info and first.issues == second.issues, path
        pd.testing.assert_frame_equal(first.players, second.players)
        pd.testing.assert_frame_equal(first.games, second.games)
    assert "gone.trf: cannot read the file" in str(one[len(malformed) + len(TRF_CORPUS)])


def test_trf_titles_other_than_fides_are_left_out_with_a_located_warning(tmp_path: Path) -> None:
    """docs/formats.md §4.1: columns 11-13 hold GM … WCM or the FIDE-list letters; anything
    else (formula text, a typo) is no title: reported where it is, and not carried on."""
    from db_helpers import run
    from trf_text import P, trf

    players = [
        P(1, "Alpha, Ann", 1800, 1001, 1990, "w", "=1+"),
        P(2, "Beta, Bob", 1700, 1002, 1990, "m", "@WG"),
        P(3, "Gamma, Gus", 1600, 1003, 1990, "m", "-GM"),
        P(4, "Delta, Dan", 1500, 1004, 1990, "m", "g"),
        P(5, "Eps, Eve", 1450, 1005, 1990, "w", "WGM"),
    ]
    games = [(1, 1, 2, "1-0"), (1, 3, 4, "=-="), (1, 5, None, "U")]
    path = tmp_path / "titles.trf"
    path.write_text(trf(players, games), encoding="utf-8")
    event = read_trf(path)
    assert event.players["title"].tolist() == [pd.NA, pd.NA, pd.NA, "GM", "WGM"]
    letters = "GM, IM, FM, CM, WGM, WIM, WFM, WCM, or the letters g, m, f, c, wg, wm, wf, wc"
    assert [str(issue) for issue in event.issues] == [
        f"{path}:{line}: warning: title {title!r} is not a FIDE title ({letters}): left out "
        "(columns 11-13)"
        for line, title in ((4, "=1+"), (5, "@WG"), (6, "-GM"))
    ]
    code, _, err = run("rate", path, "--rules", "fide-2025", "--out", tmp_path / "out")
    assert code == 0, err
    from conftest import read_csv

    titles = {row["id"]: row["title"] for row in read_csv(tmp_path / "out" / "players.csv")}
    assert titles == {"1001": "", "1002": "", "1003": "", "1004": "GM", "1005": "WGM"}
    assert "titles.trf:4: warning: title '=1+' is not a FIDE title" in err


def test_trf_birth_dates_of_zeros_are_unknown_without_a_word(tmp_path: Path) -> None:
    """docs/formats.md §4.1: 0, 0000 and 0000/00/00 are an unknown birth date."""
    from trf_text import P, trf

    players = [P(1, "Alpha, Ann", 1800, 1001, 1990), P(2, "Beta, Bob", 1700, 1002, 1991),
               P(3, "Gamma, Gus", 1600, 1003, 1992)]  # fmt: skip
    text = trf(players, [(1, 1, 2, "1-0"), (1, 3, None, "U")])
    lines = text.splitlines()
    for index, written in ((3, "0000/00/00"), (4, "0000"), (5, "0")):
        lines[index] = lines[index][:69] + f"{written:<10}" + lines[index][79:]
    event = parse_trf(lines, source="zeros.trf")
    assert (event.issues, event.players["birth_year"].tolist()) == ([], [pd.NA] * 3)


def test_a_national_line_for_a_start_rank_no_player_has_is_a_warning() -> None:
    lines = corpus_file("fide-tec-trf2026").read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("IND    1 "))
    lines[number] = "IND  999" + lines[number][8:]  # a rank typed wrong: no such player
    event = parse_trf(lines, source="t.trf")
    assert [str(i) for i in event.issues] == [
        f"t.trf:{number + 1}: warning: national id 70100010001 for start rank 999, which no "
        "001 record has: ignored (a wrong rank?)"
    ]
    assert pd.isna(event.players.set_index("player")["national_id"][1])


@pytest.mark.parametrize(
    ("dates", "read", "said"),
    [
        # TRF's YY/MM/DD.
        ("26/01/10  26/01/15  26/01/20", ("2026-01-10", "2026-01-15", "2026-01-20"), None),
        # YY.DD.MM, as some programs write it (a real file of 2011: 11.25.02), read whole.
        ("26.10.01  26.15.01  26.20.01", ("2026-01-10", "2026-01-15", "2026-01-20"), None),
        # 26/02/30 is no YY/MM/DD date; read day first it was 2030-02-26 (the red team's).
        # Day first reads all three (1930-02-26, 2015-01-26, 2020-01-26), none within the
        # event: none is used.
        ("26/02/30  26/01/15  26/01/20", (None, None, None), "which is right?"),
        # Out of round order: not used.
        ("26/01/20  26/01/10  26/01/15", (None, None, None), "not in round order"),
    ],
)
def test_the_rounds_dates_are_read_in_one_order_or_not_used(
    tmp_path: Path, dates: str, read: tuple[str | None, ...], said: str | None
) -> None:
    from trf_text import P, trf

    path = tmp_path / "rd.trf"
    text = trf([P(1, "A, A", 1500, 11, 1990), P(2, "B, B", 1500, 12, 1990)],
               [(1, 1, 2, "1-0"), (2, 2, 1, "1-0"), (3, 1, 2, "=-=")],
               start="2026/01/10", end="2026/01/20", extra=(f"132 {' ' * 87}{dates}",))  # fmt: skip
    path.write_text(text, encoding="utf-8")
    event = load_event(path)
    assert tuple(d and d.isoformat() for d in event.info.round_dates) == read
    warnings = [str(issue) for issue in event.issues if "132" in str(issue)]
    if said is None:
        assert warnings == []
    else:
        assert len(warnings) == 1 and said in warnings[0]
        assert warnings[0].endswith("(the rounds' dates are not used)")
