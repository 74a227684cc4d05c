"""``GET /players?name=TEXT`` and ``GET /players/<ID>`` (rating_batch/web/players.py)."""

from __future__ import annotations

from pathlib import Path

from db_helpers import dump, query, run, write_list
from desk_helpers import desk, january, said, send
from html_text import read_page


def _db(tmp_path: Path) -> Path:
    listing = write_list(
        tmp_path,
        ["id,name,federation,sex,birth_year,rating",
         '11,"Rakovic, Ana",SRB,F,1990,1600', '12,"Rako, Ivo",CRO,M,1985,1500',
         '13,"Other, Tom",ITA,M,1980,1700'],
    )  # fmt: skip
    db = tmp_path / "r.sqlite"
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db)[0] == 0
    return db


def test_a_name_finds_players_each_linked_to_his_page(tmp_path: Path) -> None:
    db = _db(tmp_path)
    client = desk(db, tmp_path / "out")
    page = client.get("/players", params={"name": "rako"})
    assert page.status_code == 200
    text = said(page.text)
    assert "2 players named like “rako”:" in text
    # A table of what the database knows, not the terminal's text read back.
    rows = read_page(page.text).rows
    assert rows[1:] == [
        ["Rakovic, Ana", "SRB", "1990", "FIDE ID 11", "correct"],
        ["Rako, Ivo", "CRO", "1985", "FIDE ID 12", "correct"],
    ]
    assert 'FIDE ID <a href="/players/11">11</a>' in page.text
    assert '<a href="/players/12/edit">correct</a>' in page.text
    assert "Other" not in text


def test_the_search_form_alone_and_a_name_found_nowhere(tmp_path: Path) -> None:
    db = _db(tmp_path)
    client = desk(db, tmp_path / "out")
    empty = client.get("/players")
    assert empty.status_code == 200 and 'name="name"' in empty.text
    missing = client.get("/players", params={"name": "zzz"})
    assert missing.status_code == 404
    assert "no player named like 'zzz' in" in said(missing.text)


def test_a_players_page_is_the_one_player_out_writes(tmp_path: Path) -> None:
    db = _db(tmp_path)
    client = desk(db, tmp_path / "out")
    before = dump(db)
    page = client.get("/players/11")
    assert page.status_code == 200
    code, _, _ = run("player", "11", "--db", db, "--out", tmp_path / "cli")
    assert code == 0
    written = (tmp_path / "cli" / "player-11.html").read_text(encoding="utf-8")
    # The same page, with the base of its links and the desk's way back after <body>.
    back = (
        '\n<nav class="screen" aria-label="desk"><a href="/players">← the players</a> · '
        '<a href="/players/11/edit">correct</a> · <a href="/">the database</a></nav>'
    )
    body = written.index(">", written.index("<body")) + 1
    expected = written[:body] + back + written[body:]
    assert page.text == expected.replace("<head>", '<head>\n<base href="/lists/">', 1)
    assert dump(db) == before
    assert not (tmp_path / "out").exists()


def test_an_unknown_or_malformed_id_is_an_error_page(tmp_path: Path) -> None:
    db = _db(tmp_path)
    client = desk(db, tmp_path / "out")
    missing = client.get("/players/99")
    assert missing.status_code == 404
    assert "no player with FIDE ID 99 in" in said(missing.text)
    wrong = client.get("/players/abc")
    assert wrong.status_code == 400
    assert "'abc' is not a FIDE ID (digits only)" in said(wrong.text)


def test_a_player_without_a_fide_id_is_linked_by_his_id_escaped(tmp_path: Path) -> None:
    from db_helpers import ADULT, event_file
    from trf_text import P

    db = _db(tmp_path)
    # A newcomer without a FIDE ID in a file whose name holds a quote: his id is the event's
    # key and his start rank, 'q"x#2'.
    players = [P(1, "Rakovic, Ana", 1600, 11, 1990), P(2, "Rakon, Ned", None, None, ADULT)]
    event = event_file(tmp_path, 'q"x', [(1, 1, 2, "1-0")], players=players)
    assert run("add", event, "--db", db)[0] == 0
    client = desk(db, tmp_path / "out")
    page = client.get("/players", params={"name": "rako"})
    assert page.status_code == 200
    assert "3 players named like “rako”:" in said(page.text)
    assert '<td class="text"><a href="/players/q%22x%232">q&#34;x#2</a></td>' in page.text
    his = client.get("/players/q%22x%232")
    assert his.status_code == 200 and "Rakon, Ned" in said(his.text)


def test_a_player_is_corrected_from_the_desk_and_undo_takes_it_back(tmp_path: Path) -> None:
    """As ``edit-player``: the search links each player's correction form; a field left
    empty stays as it is; Undo this puts the database back."""
    from db_helpers import data_dump
    from desk_helpers import csrf

    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    send(client, event)
    found = client.get("/players?name=A")
    assert 'href="/players/11/edit">correct</a>' in found.text
    form = client.get("/players/11/edit")
    assert form.status_code == 200 and '<form method="post" action="/players/11/edit">' in form.text
    before = data_dump(db)
    fields = {"csrf": csrf(client), "name": "Alpha, Ann", "federation": "esp", "birth_year": ""}
    answer = client.post("/players/11/edit", data=fields)
    assert answer.status_code == 200, said(answer.text)
    assert query(db, "SELECT name, federation FROM players WHERE fide_id = 11") == [
        ("Alpha, Ann", "ESP")
    ]
    assert 'action="/restore" class="undo"' in answer.text
    client.post("/restore", data={"csrf": csrf(client), "backup": "latest"})
    assert data_dump(db) == before
    # The federation's own id too (docs/formats.md §11.1), as --national-id.
    given = client.post("/players/11/edit", data={"csrf": csrf(client), "national_id": "c0327-123"})
    assert given.status_code == 200, said(given.text)
    assert query(db, "SELECT national_id FROM players WHERE fide_id = 11") == [("C0327-123",)]
    client.post("/restore", data={"csrf": csrf(client), "backup": "latest"})
    assert data_dump(db) == before
    # Wrong values are told by their field, not by a command's option; nothing changes.
    for fields, told in [({"birth_year": "19x0"}, "Birth year: '19x0' is not a number"),
                         ({"federation": "Spain"}, "the field federation 'Spain': a federation "
                          "is three letters"),
                         ({"national_id": "C0327 123"}, "the field national id 'C0327 123': "),
                         ({}, "give what to correct: at least one field")]:  # fmt: skip
        refused = client.post("/players/11/edit", data={"csrf": csrf(client), **fields})
        assert refused.status_code == 400
        assert told in said(refused.text) and "--" not in said(refused.text)
    assert data_dump(db) == before


def test_a_name_only_one_player_has_opens_his_page(tmp_path: Path) -> None:
    """As `player --name` shows the one found at once: the desk goes to his page."""
    db = _db(tmp_path)
    client = desk(db, tmp_path / "out")
    page = client.get("/players", params={"name": "rakovic"}, follow_redirects=False)
    assert (page.status_code, page.headers["location"]) == (303, "/players/11")
