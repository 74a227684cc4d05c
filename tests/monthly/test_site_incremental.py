"""The site's cost follows who played (issue 42, monthly/site_pages.py, docs/site.md §2): a
publish writes only the pages its list changed, in place; the pages of players who did not
play are left alone (same bytes, same mtime) and still right; a fingerprint that changed, or
no manifest, is a full rewrite; an officer's file is still refused; the site a publish
leaves equals the one ``rating-batch site`` writes from the database afterwards."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from db_helpers import ADULT, NEWBIE_FIDE_ID, run, write_list
from trf_text import P, trf

from monthly.test_site import cells
from rating_batch.monthly.site_pages import LAYOUT_VERSION

HISTORY_ROW = '<tr><td class="text">standard'
NEWBIE = str(NEWBIE_FIDE_ID)


def two_months(folder: Path) -> tuple[Path, Path]:
    """A database that published 2026-02 and has February's games added, not published.

    Initial list (2026-01): 11 … 16 (Player, P01 … P06) 1800 … 1550 and 17 (Idle, Ian)
    1749, K 20. January Open: Newbie, Sam (FIDE ID 955555555, unrated) loses to 11 and 12,
    draws 13, beats 14 (4 games: no first rating yet); 15 (1600) beats 16 (1550): D 50 →
    PD 0.57 (FIDE's table), 15 +0.43 × 20 = +8.6 → 1609, 16 → 1541. February's list: as
    the initial one but 15 1609, 16 1541; Newbie not on it. February Cup (Newbie, 15, 16
    only): Newbie beats 15 and 16, who lose nothing (an unrated opponent); Newbie's six
    games, 3.5 points against 1675 on average, give him 1749 (db_helpers.newcomer_database's
    sum) on March's list. Who plays in February: Newbie, 15, 16; who does not: 11 to 14, 17.
    """
    people = [(11 + n, f"Player, P0{n + 1}", 1800 - 50 * n) for n in range(6)]
    rows = [
        (fide, f'"{name}"', rating) for fide, name, rating in [*people, (17, "Idle, Ian", 1749)]
    ]
    lines = [f"{fide},{name},ITA,M,1980,{rating},20" for fide, name, rating in rows]
    listing = write_list(folder, ["id,name,federation,sex,birth_year,rating,k", *lines])
    db, out = folder / "r.sqlite", folder / "out"
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db)[0] == 0
    players = [P(n + 1, name, rating, fide, ADULT, sex="m", federation="ITA")
               for n, (fide, name, rating) in enumerate(people)]  # fmt: skip
    newbie = P(7, "Newbie, Sam", None, NEWBIE_FIDE_ID, 2010, sex="m", federation="ITA")
    games = [(1, 1, 7, "1-0"), (2, 2, 7, "1-0"), (3, 3, 7, "=-="), (4, 7, 4, "1-0"),
             (1, 5, 6, "1-0")]  # fmt: skip
    jan = folder / "jan.trf"
    jan.write_text(trf([*players, newbie], games, name="January Open", start="2026/01/20",
                       end="2026/01/22"))  # fmt: skip
    assert run("add", jan, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    few = [newbie, P(5, "Player, P05", 1609, 15, ADULT, sex="m", federation="ITA"),
           P(6, "Player, P06", 1541, 16, ADULT, sex="m", federation="ITA")]  # fmt: skip
    feb = folder / "feb.trf"
    feb.write_text(trf(few, [(1, 7, 5, "1-0"), (2, 7, 6, "1-0")], name="February Cup",
                       start="2026/02/07", end="2026/02/07"))  # fmt: skip
    assert run("add", feb, "--db", db)[0] == 0
    return db, out


def add_draw(folder: Path, db: Path, name: str, day: str) -> None:
    """An event of one day added: 12 (1750) and 13 (1700) draw."""
    few = [P(1, "Player, P02", 1750, 12, ADULT, sex="m", federation="ITA"),
           P(2, "Player, P03", 1700, 13, ADULT, sex="m", federation="ITA")]  # fmt: skip
    path = folder / f"{name.split()[0].lower()}-{name.split()[-1].lower()}.trf"
    path.write_text(trf(few, [(1, 1, 2, "=-=")], name=name, start=day, end=day))
    assert run("add", path, "--db", db)[0] == 0


def snapshot(site: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of the site: its bytes and mtime (ns)."""
    return {
        p.relative_to(site).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def contents(site: Path) -> dict[str, bytes]:
    return {name: data for name, (data, _) in snapshot(site).items()}


def published_site_equals_fresh(tmp_path: Path, db: Path, out: Path) -> None:
    """The site under ``out`` is the one ``rating-batch site`` writes afresh from ``db``."""
    fresh = tmp_path / "fresh"
    shutil.rmtree(fresh, ignore_errors=True)
    assert run("site", "--db", db, "--out", fresh)[0] == 0
    assert contents(out / "site") == contents(fresh / "site")


QUIET = ["11", "12", "13", "14", "17"]


def test_a_quiet_month_leaves_the_pages_of_those_who_did_not_play_alone(tmp_path: Path) -> None:
    db, out = two_months(tmp_path)
    site = out / "site"
    before = snapshot(site)
    jan_event = "2026-02/standard/event/jan.html"
    assert f"players/{NEWBIE}.html" not in before  # not on February's list: no page
    assert f"players/{NEWBIE}.html" not in before[jan_event][0].decode()
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    after = snapshot(site)
    for player in QUIET:  # the same bytes, never written again
        assert after[f"players/{player}.html"] == before[f"players/{player}.html"], player
    # Written: Newbie's page (new), 15's and 16's (they played), 3 of 8.
    pages = [name for name in after if name.startswith("players/")]
    assert sorted(p for p in pages if after[p] != before.get(p)) == [
        "players/15.html", "players/16.html", f"players/{NEWBIE}.html"
    ]  # fmt: skip
    # Those pages are still right: one row, February's list (the initial list's rating,
    # nothing played in February's period), though March's list holds them too, unchanged.
    # period, rating, change (blank: the first list on the site), games, title
    assert cells(site / "players" / "17.html", HISTORY_ROW) == [
        ["standard", "2026-02", "1749", "", "0", ""]
    ]
    assert cells(site / "players" / "11.html", HISTORY_ROW) == [
        ["standard", "2026-02", "1800", "", "0", ""]
    ]
    # February's list and top pages did not change either.
    for name in ("2026-02/standard/list.html", "2026-02/standard/top.html", "site.css"):
        assert after[name] == before[name], name
    # 15 played (the February Cup, lost to an unrated player: 1609 still): his page is new,
    # with the Cup among his events, and still one row of changes (his rating held).
    assert after["players/15.html"][1] != before["players/15.html"][1]
    page = (site / "players" / "15.html").read_text(encoding="utf-8")
    assert '<a href="../2026-03/standard/event/feb.html">February Cup</a>' in page
    assert cells(site / "players" / "15.html", HISTORY_ROW) == [
        ["standard", "2026-02", "1609", "", "1", ""]
    ]
    # Newbie is new on March's list (1749, new: no change; 2 games in the period): his page,
    # and January's event page, which he played in, now links it.
    assert cells(site / "players" / f"{NEWBIE}.html", HISTORY_ROW) == [
        ["standard", "2026-03", "1749", "", "2", ""]
    ]
    assert after[jan_event][1] != before[jan_event][1]
    assert f'href="../../../players/{NEWBIE}.html"' in after[jan_event][0].decode()
    # The site the publish left is the one `site` writes from the database.
    fresh = tmp_path / "fresh"
    assert run("site", "--db", db, "--out", fresh)[0] == 0
    assert contents(site) == contents(fresh / "site")
    # Published again (its files as stored): no player page changes, none is written.
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    again = snapshot(site)
    assert {n: again[n] for n in again if n.startswith("players/")} == {
        n: after[n] for n in after if n.startswith("players/")
    }
    assert contents(site) == contents(fresh / "site")


def test_a_changed_layout_writes_the_whole_site_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, out = two_months(tmp_path)
    before = snapshot(out / "site")
    # As if a template changed (the fingerprint covers the templates, [site] and versions).
    monkeypatch.setattr("rating_batch.monthly.site_pages.LAYOUT_VERSION", LAYOUT_VERSION + 1)
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    after = snapshot(out / "site")
    for player in QUIET:  # the same bytes, written again with the whole site
        data, written = after[f"players/{player}.html"]
        assert data == before[f"players/{player}.html"][0]
        assert written != before[f"players/{player}.html"][1]


def test_a_change_of_the_code_laying_out_pages_writes_the_whole_site_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fingerprint reads the page-making code itself (writers/site*.py, html.py): a
    # page drawn differently by a new rating_batch of the same version number (the chart's
    # labels moved) must not leave the pages of those who did not play drawn the old way.
    import shutil
    from importlib import resources

    db, out = two_months(tmp_path)
    before = snapshot(out / "site")
    package = tmp_path / "package"
    shutil.copytree(Path(str(resources.files("rating_batch"))), package)
    with (package / "writers" / "site_history.py").open("a", encoding="utf-8") as code:
        code.write("\n# drawn differently\n")
    monkeypatch.setattr("rating_batch.monthly.site_pages.resources.files", lambda _: package)
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    after = snapshot(out / "site")
    for player in QUIET:  # written again with the whole site
        assert after[f"players/{player}.html"][1] != before[f"players/{player}.html"][1]


def test_a_missing_manifest_writes_the_whole_site_again(tmp_path: Path) -> None:
    db, out = two_months(tmp_path)
    (out / "site" / ".pages.json").unlink()
    before = snapshot(out / "site")
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    after = snapshot(out / "site")
    assert after["players/17.html"][1] != before["players/17.html"][1]
    assert ".pages.json" in after


def test_an_officers_file_in_the_site_is_still_refused(tmp_path: Path) -> None:
    db, out = two_months(tmp_path)
    notes = out / "site" / "players" / "notes.txt"
    notes.write_text("mine", encoding="utf-8")
    before = snapshot(out / "site")
    code, stdout, stderr = run("publish", "2026-03", "--db", db, "--out", out)
    assert code == 1
    assert "players/notes.txt" in stdout + stderr and "Traceback" not in stdout + stderr
    assert snapshot(out / "site") == before  # nothing of the site written


def test_unpublish_then_site_or_publish_again_is_the_fresh_site(tmp_path: Path) -> None:
    db, out = two_months(tmp_path)
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    assert run("unpublish", "2026-03", "--db", db)[0] == 0
    # The lists published are fewer: `site` writes the whole site, as a fresh one.
    assert run("site", "--db", db, "--out", out)[0] == 0
    fresh = tmp_path / "fresh"
    assert run("site", "--db", db, "--out", fresh)[0] == 0
    assert contents(out / "site") == contents(fresh / "site")
    assert not (out / "site" / "2026-03").exists()
    assert not (out / "site" / "players" / f"{NEWBIE}.html").exists()
    # Published again: the pages it changes, in place, give the site a fresh one is.
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    shutil.rmtree(fresh)
    assert run("site", "--db", db, "--out", fresh)[0] == 0
    assert contents(out / "site") == contents(fresh / "site")


def test_two_quiet_months_give_the_fresh_site_and_a_corrected_player_his_page(
    tmp_path: Path,
) -> None:
    """Each publish takes the older lists' part of every digest from the manifest (issue 42:
    only the newest period's rows are hashed). Two months on, the site still equals the one
    `site` writes from the database, its manifest too (the sums carried equal the sums
    hashed afresh). 11 played in January only; his name corrected by ``edit-player`` before
    April's list changes his list row, not his games: his page is written again, the new
    name on it. 12 and 13 draw in March (1750 and 1700: D 50, PD 0.57, 12 −0.07 × 20 =
    −1.4 → 1749 (1748.6; the list's change 1749 − 1750, −1), 13 +1.4 → 1701): their pages
    too. 14 and 17 did not play and
    nothing of theirs changed: their pages are left alone for two months."""
    db, out = two_months(tmp_path)
    site = out / "site"
    before = snapshot(site)
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    renamed = "Player, Renamed"
    assert run("edit-player", "11", "--name", renamed, "--db", db)[0] == 0
    add_draw(tmp_path, db, "March Rapid", "2026/03/07")
    march = snapshot(site)
    assert run("publish", "2026-04", "--db", db, "--out", out)[0] == 0
    after = snapshot(site)
    for player in ("14", "17"):  # never written: the same bytes and time
        assert after[f"players/{player}.html"] == before[f"players/{player}.html"], player
    written = sorted(p for p in after if p.startswith("players/") and after[p] != march.get(p))
    assert written == ["players/11.html", "players/12.html", "players/13.html"]
    page = (site / "players" / "11.html").read_text(encoding="utf-8")
    assert renamed in page
    assert cells(site / "players" / "12.html", HISTORY_ROW)[-1] == [
        "standard", "2026-04", "1749", "\u22121", "1", ""
    ]  # fmt: skip
    fresh = tmp_path / "fresh"
    assert run("site", "--db", db, "--out", fresh)[0] == 0
    assert contents(site) == contents(fresh / "site")


def test_a_publish_takes_the_older_lists_sums_from_the_manifest(tmp_path: Path) -> None:
    """The older lists' rows are not hashed again: their sums are the manifest's. Made
    wrong by hand for 11 (who played in January only), they give him another digest, so his page is
    written again (the same bytes), and the manifest carries them on."""
    db, out = two_months(tmp_path)
    path = out / "site" / ".pages.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    assert manifest["older"] == {}  # one list: its sums are the newest's
    assert manifest["newest"]["11"] != "0.0"  # his January games and calculation
    manifest["newest"]["11"] = "0.0"
    path.write_text(json.dumps(manifest), encoding="utf-8")
    before = snapshot(out / "site")
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    after = snapshot(out / "site")
    assert after["players/11.html"][0] == before["players/11.html"][0]
    assert after["players/11.html"][1] != before["players/11.html"][1]
    assert after["players/17.html"] == before["players/17.html"]
    assert json.loads(path.read_text(encoding="utf-8"))["older"]["11"] == "0.0"


def test_a_site_left_half_written_is_written_whole_by_the_next_publish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A publish that stops while it replaces the changed pages (a kill, a full disk) leaves
    some pages of a list the officer may then take back. The next publish must not take the
    manifest of before for what is on the disk: here March's first publish, with the February
    Cup (Newbie beats 15 and 16), stops after the player pages, before the index; the officer
    unpublishes March, removes the Cup, adds a draw of 12 and 13 and publishes March again.
    15 and 16 did not play after all: their pages must not keep the Cup (a link to an event
    no list holds)."""
    from rating_batch.monthly import site_pages

    db, out = two_months(tmp_path)

    def full_disk(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(site_pages, "write_index", full_disk)
        code, _, err = run("publish", "2026-03", "--db", db, "--out", out)
    assert code == 1 and "site" in err, err
    assert "February Cup" in (out / "site" / "players" / "15.html").read_text(encoding="utf-8")
    assert run("unpublish", "2026-03", "--db", db)[0] == 0
    assert run("remove", "feb", "--db", db)[0] == 0
    add_draw(tmp_path, db, "February Rapid", "2026/02/14")
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    assert "February Cup" not in (out / "site" / "players" / "15.html").read_text(encoding="utf-8")
    published_site_equals_fresh(tmp_path, db, out)


def test_the_copies_beside_the_site_are_a_help_never_a_need(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The older lists' copies and indexes beside the site (``.site-rows``, docs/site.md §6)
    only spare reading a list whole. None written (a full disk), or one spoilt afterwards (a
    byte changed, a file cut short): the publish still gives the site ``site`` writes."""
    from rating_batch.monthly import site_rows

    db, out = two_months(tmp_path)
    rows = out / site_rows.ROWS_FOLDER
    kept = sorted(rows.iterdir())
    assert kept  # February's games and calculations, indexed by the first publish

    def full_disk(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    for each in kept:  # each copy spoilt: one byte changed, or cut short
        data = each.read_bytes()
        each.write_bytes(data[:-1] + bytes([data[-1] ^ 1]) if each.suffix == ".csv" else data[:50])
    with monkeypatch.context() as patch:
        patch.setattr(site_rows, "write_replacing", full_disk)
        assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    published_site_equals_fresh(tmp_path, db, out)
    # The disk has room again: the next publish keeps its copies, and its site is right.
    add_draw(tmp_path, db, "March Rapid", "2026/03/07")
    assert run("publish", "2026-04", "--db", db, "--out", out)[0] == 0
    assert any(p.name.endswith(".npz") for p in rows.iterdir())
    published_site_equals_fresh(tmp_path, db, out)


def test_a_site_reached_through_a_link_is_written_in_place_where_it_is(tmp_path: Path) -> None:
    """``--out`` a link to the folder (a share mounted elsewhere): the pages replaced in place
    and the copies beside the site land in the folder linked, the link stays a link."""
    db, out = two_months(tmp_path)
    linked = tmp_path / "linked"
    try:
        linked.symlink_to(out, target_is_directory=True)
    except OSError:  # Windows without the right to make links
        pytest.skip("this machine does not let a test make a symbolic link")
    before = snapshot(out / "site")
    assert run("publish", "2026-03", "--db", db, "--out", linked)[0] == 0
    assert linked.is_symlink() and not (out / "site").is_symlink()
    after = snapshot(out / "site")
    assert after["players/17.html"] == before["players/17.html"]  # left alone
    assert after["players/15.html"] != before["players/15.html"]  # replaced, where it is
    published_site_equals_fresh(tmp_path, db, out)
