"""Writes the files of this folder: small events and lists whose names are written in the
code pages that Polish, Czech, Russian, Ukrainian and Japanese pairing programs use
(SOURCES.md).

Run from the repository's root: ``python tests/data/encodings/make.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1]))

from trf_text import P, trf  # noqa: E402

#: Three rounds of six players: every player plays every round.
GAMES = [
    (1, 1, 4, "1-0"), (1, 5, 2, "=-="), (1, 3, 6, "0-1"),
    (2, 2, 1, "0-1"), (2, 4, 3, "=-="), (2, 6, 5, "1-0"),
    (3, 1, 6, "=-="), (3, 5, 3, "1-0"), (3, 2, 4, "1-0"),
]  # fmt: skip
RATINGS = [2105, 1987, 1876, 1765, 1654, 1543]

EVENTS = {
    "lodz-cp1250.trf": ("cp1250", "POL", "Puchar Łodzi w szachach szybkich", "Łódź", [
        ("Żółkiewski, Łukasz", "m"), ("Wiśniewska, Małgorzata", "w"),
        ("Szczęsny, Paweł", "m"), ("Dąbrowski, Jędrzej", "m"),
        ("Wróblewska, Zofia", "w"), ("Kowalczyk, Ewa", "w")]),
    "brno-cp1250.trf": ("cp1250", "CZE", "Brněnský rapid 2026", "Brno", [
        ("Dvořák, Jiří", "m"), ("Růžičková, Kateřina", "w"), ("Šťastný, Tomáš", "m"),
        ("Černý, Ondřej", "m"), ("Procházková, Eliška", "w"), ("Novák, Petr", "m")]),
    "moskva-cp1251.trf": ("cp1251", "RUS", "Блиц-турнир Москва", "Москва", [
        ("Иванов, Пётр", "m"), ("Смирнова, Елена", "w"), ("Кузнецов, Дмитрий", "m"),
        ("Попова, Анастасия", "w"), ("Соколов, Михаил", "m"), ("Лебедева, Ольга", "w")]),
    "tokyo-sjis.trf": ("cp932", "JPN", "東京オープン 2026", "東京", [
        ("山田, 太郎", "m"), ("佐藤, 花子", "w"), ("鈴木, 一郎", "m"),
        ("高橋, 美咲", "w"), ("田中, 健太", "m"), ("渡辺, さくら", "w")]),
    "moskva-koi8r.trf": ("koi8_r", "RUS", "Блиц-турнир Москва", "Москва", [
        ("Иванов, Пётр", "m"), ("Смирнова, Елена", "w"), ("Кузнецов, Дмитрий", "m"),
        ("Попова, Анастасия", "w"), ("Соколов, Михаил", "m"), ("Лебедева, Ольга", "w")]),
    "kyiv-koi8u.trf": ("koi8_u", "UKR", "Кубок Києва з рапіду", "Київ", [
        ("Шевченко, Тарас", "m"), ("Коваленко, Олена", "w"), ("Бондаренко, Ігор", "m"),
        ("Ткаченко, Наталія", "w"), ("Олійник, Євген", "m"), ("Кравченко, Юлія", "w")]),
}  # fmt: skip


def event_text(federation: str, title: str, city: str, people: list[tuple[str, str]],
               first_id: int) -> str:  # fmt: skip
    players = [
        P(n + 1, name, RATINGS[n], first_id + n, 1990 + n, sex, "", federation)
        for n, (name, sex) in enumerate(people)
    ]
    text = trf(players, GAMES, name=title, start="2026/01/16", end="2026/01/18")
    return text.replace("042 ", f"022 {city}\n032 {federation}\n042 ", 1)


def byte_aligned(text: str, encoding: str) -> bytes:
    """The file as a program counting columns in bytes writes it: each 001 name field is 33
    bytes, a double-byte character taking two columns."""
    out = []
    for line in text.splitlines():
        if line.startswith("001 "):
            name = line[14:47].rstrip().encode(encoding)
            out.append(line[:14].encode("ascii") + name.ljust(33) + line[47:].encode("ascii"))
        else:
            out.append(line.encode(encoding))
    return b"\r\n".join(out) + b"\r\n"


def main() -> None:
    for number, (file, (encoding, federation, title, city, people)) in enumerate(EVENTS.items()):
        text = event_text(federation, title, city, people, 900000101 + 10 * number)
        if encoding == "cp932":
            data = byte_aligned(text, encoding)
        else:
            data = text.replace("\n", "\r\n").encode(encoding)
        (HERE / file).write_bytes(data)
    # A rating list in Windows-1251, as a spreadsheet saves a CSV on a Russian Windows.
    rows = ["id,name,federation,birth_year,rating"] + [
        f'{900000121 + n},"{name}",RUS,{1990 + n},{RATINGS[n]}'
        for n, (name, _) in enumerate(EVENTS["moskva-cp1251.trf"][4])
    ]
    (HERE / "list-cp1251.csv").write_bytes(("\r\n".join(rows) + "\r\n").encode("cp1251"))
    # A hand-made crosstable (our template) in Windows-1250.
    czech = EVENTS["brno-cp1250.trf"][4]
    lines = ["event,Brněnský rapid 2026", "start,2026-01-16", "end,2026-01-18", "",
             "no,name,fide_id,rating,federation,birth_year,sex,title,1"]  # fmt: skip
    cells = ["2w1", "1b0", "4w=", "3b=", "6w1", "5b0"]
    lines += [
        f'{n + 1},"{name}",{900000111 + n},{RATINGS[n]},CZE,{1990 + n},{sex.upper()},,{cells[n]}'
        for n, (name, sex) in enumerate(czech)
    ]
    (HERE / "brno-cp1250.csv").write_bytes(("\r\n".join(lines) + "\r\n").encode("cp1250"))


if __name__ == "__main__":
    main()
