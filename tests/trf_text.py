"""Write TRF text for tests: players and games in, correctly columned 001 lines out.

Games are ``(round, white, black, result)`` with result ``"1-0"``, ``"0-1"``, ``"=-="``,
``"+--"`` (white wins by forfeit) or ``"--+"``; byes are ``(round, player, None, code)``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class P:
    """A player line: start rank, name, rating (None = unrated), FIDE ID, birth year."""

    rank: int
    name: str
    rating: int | None = None
    fide_id: int | None = None
    birth: int | None = None
    sex: str = " "
    title: str = ""
    federation: str = ""
    final: int | None = -1
    """The final rank (columns 86-89): -1 writes the start rank, None leaves it blank."""


RESULTS = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "=-=": ("=", "="),
    "+--": ("+", "-"),
    "--+": ("-", "+"),
}


def trf(
    players: list[P],
    games: list[tuple[int, int, int | None, str]],
    *,
    name: str = "Test Open",
    start: str = "2026/01/10",
    end: str = "2026/01/12",
    extra: tuple[str, ...] = (),
) -> str:
    """The text of a TRF16 file."""
    rounds = max((g[0] for g in games), default=0)
    blocks: dict[int, list[str]] = {p.rank: [" " * 10] * rounds for p in players}
    points: dict[int, float] = {p.rank: 0.0 for p in players}
    value = {
        "1": 1.0,
        "=": 0.5,
        "0": 0.0,
        "+": 1.0,
        "-": 0.0,
        "H": 0.5,
        "F": 1.0,
        "U": 1.0,
        "Z": 0.0,
    }
    for rnd, white, black, result in games:
        if black is None:
            blocks[white][rnd - 1] = f"0000 - {result}  "
            points[white] += value[result]
            continue
        left, right = RESULTS[result]
        blocks[white][rnd - 1] = f"{black:4d} w {left}  "
        blocks[black][rnd - 1] = f"{white:4d} b {right}  "
        points[white] += value[left]
        points[black] += value[right]
    lines = [
        f"012 {name}",
        f"042 {start}",
        f"052 {end}",
        *extra,
    ]
    for p in players:
        rating = f"{p.rating:4d}" if p.rating else "    "
        fide = f"{p.fide_id:11d}" if p.fide_id else " " * 11
        birth = f"{p.birth:<10d}" if p.birth else " " * 10
        head = (
            f"001 {p.rank:4d} {p.sex}{p.title:>3} {p.name:<33} {rating} {p.federation:<3} "
            f"{fide} {birth} {points[p.rank]:4.1f} "
            f"{'' if p.final is None else p.rank if p.final == -1 else p.final:>4}"
        )
        # Columns 90-91 are blank; round r's block starts at column 92 + 10(r - 1).
        lines.append((head + "  " + "".join(blocks[p.rank])).rstrip())
    return "\n".join(lines) + "\n"
