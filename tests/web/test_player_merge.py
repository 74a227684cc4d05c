"""The desk's correction form (``POST /players/<ID>/edit``) giving a FIDE ID another player
holds: refused, worded for the desk, when name, federation or birth year differ; merged
when the officer ticks the box that says they are one person anyway."""

from __future__ import annotations

from pathlib import Path

from db_helpers import ADULT, data_dump, event_file, newcomer_database, query, run
from desk_helpers import csrf, desk, said
from trf_text import P

TYPED = 912345678


def test_a_fide_id_of_another_person_is_refused_until_the_box_is_ticked(tmp_path: Path) -> None:
    # n1#7 (Newbie, Sam, ITA, born 2010) is on the 2026-02 list; 912345678 is Alpha, New,
    # ESP, born 2000, in a February file.
    db, _ = newcomer_database(tmp_path)
    players = [P(1, "Alpha, New", None, TYPED, 2000, sex="m", federation="ESP"),
               P(2, "Idle, Ian", 1749, 17, ADULT, sex="m", federation="ITA")]  # fmt: skip
    event = event_file(tmp_path, "feb", [(1, 1, 2, "1-0")], players=players, day="2026/02/10")
    assert run("add", event, "--db", db)[0] == 0
    client = desk(db, tmp_path / "out")
    form = client.get("/players/n1%237/edit")
    assert form.status_code == 200 and 'name="force"' in form.text
    before = data_dump(db)
    fields = {"csrf": csrf(client), "fide_id": str(TYPED)}
    refused = client.post("/players/n1%237/edit", data=fields)
    assert refused.status_code == 400
    text = " ".join(said(refused.text).split())
    assert (
        f"{TYPED} is 'Alpha, New', ESP, born 2000 — not the same name, federation or birth "
        "year as 'Newbie, Sam' (n1#7), ITA, born 2010; tick “they are one person” to merge them"
    ) in text
    assert "--" not in text
    assert data_dump(db) == before
    merged = client.post("/players/n1%237/edit", data={**fields, "force": "on"})
    assert merged.status_code == 200, said(merged.text)
    assert query(db, f"SELECT created_by, name FROM players WHERE fide_id = {TYPED}") == [
        ("n1#7", "Newbie, Sam")
    ]
    # The id he had still finds him: his page, under the FIDE ID, explains the 2026-02 list
    # that names him n1#7 (his first rating, 1749: db_helpers.newcomer_database).
    page = client.get("/players/n1%237")
    assert page.status_code == 200
    text = " ".join(said(page.text).split())
    assert f"Newbie, Sam (FIDE ID {TYPED}, ITA, born 2010)" in text
    assert "played as n1#7" in text and "first rating 1749: on the list from 2026-02" in text
