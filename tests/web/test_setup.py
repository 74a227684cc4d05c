"""The first page with no database (``GET /``) and ``POST /init`` (rating_batch/web/setup.py,
spec/desk.md §3): the database made from a rating list sent, as ``init`` makes it, and
nothing made when anything is wrong."""

from __future__ import annotations

from pathlib import Path

from db_helpers import query, run, write_list
from desk_helpers import csrf, desk, said


def _list(folder: Path) -> Path:
    return write_list(folder, ["id,name,rating", "11,A,1600", "12,B,1500"])


def _init(client, path: Path, **fields: str):
    data = {"csrf": csrf(client, "/"), "period": "2026-01", **fields}
    files = [("list", (path.name, path.read_bytes(), "text/csv"))]
    return client.post("/init", data=data, files=files)


def test_the_first_page_makes_the_database_as_init_does(tmp_path: Path) -> None:
    db = tmp_path / "fed.sqlite"
    client = desk(db, tmp_path / "out")
    first = client.get("/")
    assert first.status_code == 200
    assert '<form method="post" action="/init" enctype="multipart/form-data">' in first.text
    assert '<option value="fide" selected>' in first.text
    assert '<option value="glicko2">' in first.text
    # Every other page leads there while there is no database.
    assert client.get("/events", follow_redirects=False).headers["location"] == "/"
    answer = _init(client, _list(tmp_path))
    assert answer.status_code == 200, said(answer.text)
    text = said(answer.text)
    assert "2 players" in text and "Next: add the month's tournament files" in text
    assert str(tmp_path) not in answer.text
    # The same database the command makes from the same list.
    cli = tmp_path / "cli"
    cli.mkdir()
    code, _, err = run("init", "--list", _list(cli), "--period", "2026-01", "--db",
                       cli / "fed.sqlite")  # fmt: skip
    assert code == 0, err
    wanted = "SELECT period, kind, origin FROM lists"
    assert (
        query(db, wanted) == query(cli / "fed.sqlite", wanted) == [("2026-01", "standard", "init")]
    )
    players = "SELECT fide_id, name FROM players ORDER BY fide_id"
    assert query(db, players) == query(cli / "fed.sqlite", players)
    # The list sent is not kept anywhere but in the database.
    assert list((tmp_path / "fed.sqlite.inbox").rglob("*")) == []
    assert "Rating database" in said(client.get("/").text)
    # A second init is refused: the desk never makes a database over another.
    again = _init(client, _list(tmp_path))
    assert again.status_code == 409
    assert "exists already" in said(again.text)


def test_a_list_with_an_error_makes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "fed.sqlite"
    client = desk(db, tmp_path / "out")
    bad = write_list(tmp_path, ["id,name,rating", "11,A,16000"], "bad.csv")
    answer = _init(client, bad)
    assert answer.status_code == 400
    text = said(answer.text)
    assert "bad.csv:2:" in text
    assert not db.exists()
    assert list((tmp_path / "fed.sqlite.inbox").rglob("*")) == []
    # No list at all.
    missing = client.post("/init", data={"csrf": csrf(client, "/"), "period": "2026-01"})
    assert missing.status_code == 400
    assert "choose the rating list" in said(missing.text)
    assert not db.exists()


def test_a_rules_file_sent_is_the_databases_rules(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    client = desk(db, tmp_path / "out")
    rules = Path(__file__).parents[2] / "sample_data" / "rules" / "club-example.toml"
    data = {"csrf": csrf(client, "/"), "period": "2026-01"}
    files = [
        ("list", ("list.csv", _list(tmp_path).read_bytes(), "text/csv")),
        ("rules_file", ("club-example.toml", rules.read_bytes(), "application/toml")),
    ]
    answer = client.post("/init", data=data, files=files)
    assert answer.status_code == 200, said(answer.text)
    assert query(db, "SELECT value FROM meta WHERE key = 'rules'") == [("club-example.toml",)]
    assert query(db, "SELECT value FROM meta WHERE key = 'rules_text'") == [
        (rules.read_text(encoding="utf-8"),)
    ]
    assert "club-example.toml" in said(client.get("/").text)


def test_two_makes_at_once_make_one_whole_database(tmp_path: Path) -> None:
    """Attack on the desk: two "Make the database" at once (two tabs) left an empty database
    the desk could not get past. Now one is made whole, the other told it exists (409)."""
    from concurrent.futures import ThreadPoolExecutor

    from desk_helpers import serving

    db = tmp_path / "fed.sqlite"
    listing = _list(tmp_path)
    with serving(db, tmp_path / "out") as address:
        import re
        import urllib.request

        import httpx2 as httpx

        page = urllib.request.urlopen(address).read().decode()
        token = re.search(r'name="csrf" value="([^"]+)"', page)[1]

        def make(period: str) -> int:
            files = {"list": ("list.csv", listing.read_bytes(), "text/csv")}
            answer = httpx.post(f"{address}/init", data={"csrf": token, "period": period},
                                files=files, timeout=60)  # fmt: skip
            return answer.status_code

        with ThreadPoolExecutor(2) as pool:
            codes = sorted(pool.map(make, ["2026-01", "2025-12"]))
    assert codes == [200, 409]
    assert query(db, "SELECT COUNT(*) FROM players") == [(2,)]
    assert not list(tmp_path.glob(".fed.sqlite.init-*"))


def test_the_rules_field_takes_only_the_names_offered(tmp_path: Path) -> None:
    """Attack on the desk: rules=/path/secret.toml read a file of the server as rules."""
    secret = tmp_path / "secret.toml"
    secret.write_text("[db]\nhunter2_key = 'x'\n", encoding="utf-8")
    db = tmp_path / "fed.sqlite"
    client = desk(db, tmp_path / "out")
    for rules in (str(secret), "../secret.toml", "fide-1999"):
        answer = _init(client, _list(tmp_path), rules=rules)
        assert answer.status_code == 400
        assert "no rules named" in said(answer.text) and "hunter2" not in answer.text
    assert not db.exists()
