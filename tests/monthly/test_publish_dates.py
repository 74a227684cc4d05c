"""A period whose events are not all dated (monthly/publish.py, pipelines/elo/publish.py): an
event file without a start date (no 042 record) is ordered after the dated ones of its period,
beside them as alone, and the month publishes."""

from __future__ import annotations

from pathlib import Path

from db_helpers import database, event_file, process, rows


def undated(folder: Path, name: str, end: str) -> Path:
    """An event of one game, 11 against 12, whose file gives an end date but no start."""
    path = event_file(folder, name, [(1, 1, 2, "=-=")], day=end)
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(x for x in lines if not x.startswith("042")) + "\n", "utf-8")
    return path


def test_an_event_without_a_start_date_beside_a_dated_one_publishes(tmp_path: Path) -> None:
    db = database(tmp_path)
    dated = event_file(tmp_path, "dated", [(1, 1, 2, "1-0")], day="2026/01/10")
    code, out, err = process("add", dated, undated(tmp_path, "nostart", "2026/01/20"), "--db", db)
    assert (code, err) == (0, "")
    assert "added nostart (nostart, no start date…2026-01-20)" in out
    assert "None" not in out
    code, _, err = process("publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    assert (code, err) == (0, "")
    # 11 (1600) beat 12 (1500), then drew: K 20 (established adults under 2400), D = 100,
    # PD(100) = 0.64: 20 × (1 − 0.64) + 20 × (0.5 − 0.64) = 7.2 − 2.8 = +4.4 → 1604.
    listed = rows(tmp_path / "out" / "2026-02" / "standard" / "list.csv")
    assert (listed["11"]["rating"], listed["12"]["rating"]) == ("1604", "1496")
