"""The web site of a hostile database (docs/site.md §5): names, federations and event file
names that a spreadsheet would take for formulas, and markup. The site shows each text as
the input held it (not as the CSV files kept it, with a neutralising apostrophe), escaped,
and has a page for every event, whatever its key starts with."""

from __future__ import annotations

import csv
import html
import re
from pathlib import Path

from conftest import read_csv
from db_helpers import ADULT, run, tree
from site_checks import broken_links, html5_errors
from trf_text import P, trf

from monthly.test_site import cells
from rating_batch.monthly.site_rows import _neutralised

#: The initial list: id, name, federation, title (each player M, born 1980, 1800 down).
PEOPLE = [
    (101, '=HYPERLINK("http://x","y")', "+CD", "+FO"),
    (102, "+41 22 123", "-EF", ""),
    (103, "-2+3", "@AB", "=WT"),
    (104, "@SUM(A1)", "=1+", ""),
    (105, "<script>alert(1)</script>", "<b>", ""),
    (106, "'t Hart, Jan", "NED", ""),  # a Dutch name: its apostrophe is the name's
    (107, "Quoted, Q", "ITA", ""),  # renamed below to a name starting "'=" of its own
]
#: A name that itself starts with an apostrophe before a formula sign (edit-player).
QUOTED = "'=Quoted, Q"
#: Event files: stem (the event's key), title, day, games between list positions (1-based).
EVENTS = [
    ("=1+2 <x>", "<i>Title</i> =cmd|x", "2026/01/05", [(1, 2), (3, 4), (5, 8)]),
    ("+Open 2026", "+Open 2026", "2026/01/12", [(1, 3), (2, 4), (6, 7)]),
    ("@club", "@club", "2026/01/19", [(6, 7), (5, 1)]),
]
#: What no page may show (its text unescaped): a neutralising apostrophe.
APOSTROPHE = re.compile(r"'[-+=@]")


def hostile_site(folder: Path) -> Path:
    """The hostile federation published for 2026-02; its web site's folder."""
    listing = folder / "hostile.csv"
    with listing.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "name", "federation", "sex", "birth_year", "rating", "title"])
        for n, (fide, name, federation, title) in enumerate(PEOPLE):
            writer.writerow([fide, name, federation, "M", ADULT, 1800 - 25 * n, title])
    db = folder / "h.sqlite"
    code, out, err = run("init", "--list", listing, "--period", "2026-01", "--db", db)
    assert code == 0, out + err
    code, out, err = run("edit-player", "107", "--name", QUOTED, "--db", db)
    assert code == 0, out + err
    names = {n + 1: name for n, (_, name, _, _) in enumerate(PEOPLE)} | {7: QUOTED}
    files = []
    for stem, title, day, pairs in EVENTS:
        people = sorted({rank for pair in pairs for rank in pair})
        players = [
            # 8: a newcomer without a FIDE ID, his id "<event>#<start rank>"
            P(rank, "-New, N", None, None, 2000) if rank == 8
            else P(rank, names[rank], 1800 - 25 * (rank - 1), 100 + rank, ADULT)
            for rank in people
        ]  # fmt: skip
        path = folder / f"{stem}.trf"
        games = [(1, white, black, "1-0") for white, black in pairs]
        path.write_text(trf(players, games, name=title, start=day, end=day), encoding="utf-8")
        files.append(path)
    code, out, err = run("add", *files, "--db", db)
    assert code == 0, out + err
    code, out, err = run("publish", "2026-02", "--db", db, "--out", folder / "out")
    assert code == 0, out + err
    return folder / "out" / "site"


def test_a_hostile_databases_site_has_every_event_page_and_no_broken_link(
    tmp_path: Path,
) -> None:
    site = hostile_site(tmp_path)
    assert broken_links(site) == []
    events = site / "2026-02" / "standard" / "event"
    assert sorted(page.name for page in events.iterdir()) == sorted(
        f"{stem}.html" for stem, *_ in EVENTS
    )
    # Each player page links the event pages of his events (by their keys, URL-quoted).
    page = (site / "players" / "101.html").read_text(encoding="utf-8")
    assert 'href="../2026-02/standard/event/%3D1%2B2%20%3Cx%3E.html"' in page
    assert 'href="../2026-02/standard/event/%2BOpen%202026.html"' in page
    assert 'href="../2026-02/standard/event/%40club.html"' in page
    # The newcomer is on his event's page, without a page of his own (not on the list).
    first = cells(events / "=1+2 <x>.html", "<tr>")
    assert ["-New, N", "", "1", "0", "", ""] in first
    own = [p for p in site.rglob("*.html") if "files" not in p.relative_to(site).parts]
    assert [error for page in own for error in html5_errors(page)] == []


def test_a_hostile_databases_site_shows_each_text_as_the_input_held_it(tmp_path: Path) -> None:
    site = hostile_site(tmp_path)
    listed = site / "2026-02" / "standard" / "list.html"
    # rank, name, federation, title, born, rating, change, games, K: names as given,
    # escaped ('<script>' as text); the list's own order (ratings after one game each).
    rows = cells(listed, '<tr data-sex="')
    shown = {html.unescape(row[1]): [html.unescape(cell) for cell in row[2:4]] for row in rows}
    assert shown == {
        name if fide != 107 else QUOTED: [federation, title]
        for fide, name, federation, title in PEOPLE
    }
    text = listed.read_text(encoding="utf-8")
    assert "<option>+CD</option>" in text and 'data-fed="-EF"' in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "&lt;b&gt;" in text
    page = (site / "players" / "102.html").read_text(encoding="utf-8")
    assert "<title>+41 22 123 · Rating lists</title>" in page
    assert "<h1>+41 22 123" in page
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "&lt;i&gt;Title&lt;/i&gt; =cmd|x</a>" in index and "+Open 2026</a>" in index
    # No page shows a neutralising apostrophe; the two names whose apostrophe is their own
    # keep it (the Dutch name, and the one written with an apostrophe before '=').
    pages = tree(site)
    for path, data in pages.items():
        if not path.endswith(".html"):
            continue
        page_text = data.decode("utf-8")
        assert "<script>alert" not in page_text, path
        assert "<b>" not in page_text.replace("<b>" + "</b>", ""), path
        rest = html.unescape(page_text).replace(QUOTED, "")
        assert APOSTROPHE.findall(rest) == [], path
    # The CSV files keep them neutralised for spreadsheets: one apostrophe more.
    kept = {row["id"]: row["name"] for row in read_csv(site / "2026-02/standard/files/list.csv")}
    assert (kept["101"], kept["106"], kept["107"]) == (
        "'" + PEOPLE[0][1],
        "'t Hart, Jan",
        "''=Quoted, Q",
    )
    assert "<h1>&#39;=Quoted, Q" in pages["players/107.html"].decode("utf-8")
    assert "<h1>&#39;t Hart, Jan" in pages["players/106.html"].decode("utf-8")


def test_a_neutralised_field_is_found_in_the_bytes_and_a_names_apostrophe_is_not() -> None:
    """An apostrophe our writers put before a field (after a comma, a line's end or an
    opening quote) is found; one inside a name (O'Brien, D'Souza at a field's end) is not."""
    assert not _neutralised(b"id,name\n1,O'Brien\n2,D'\n")
    assert _neutralised(b"id,name\n1,O'Brien\n2,'=1+2\n")
    assert _neutralised(b'id,name\n1,"\'+41 22, 123"\n')
    assert _neutralised(b"name,id\n'@SUM(A1),1\n")
    assert not _neutralised(b"")
