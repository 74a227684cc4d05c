"""How the TRF twin of a chess-results crosstable in this folder was made (independently of
rating_batch's loaders): every player row of the sheet becomes a 001 line whose start rank
is the row's position in the table (the numbering the final-ranking cells use), and every
round cell becomes a TRF round block.

    python tests/data/crosstables-as-trf/convert.py SHEET.xlsx > TWIN.trf
"""

import re
import sys

from openpyxl import load_workbook

sheet = load_workbook(sys.argv[1], read_only=True).worksheets[0]
rows = [list(r) for r in sheet.iter_rows(values_only=True)]
top = next(i for i, r in enumerate(rows) if r[2] == "Name")
players = []
for r in rows[top + 1 :]:
    if not r[2]:
        break
    players.append(r)
title = rows[1][0].strip()
date = re.search(
    r"(\d{4})/(\d\d)/(\d\d)", next(r[0] for r in rows if str(r[0]).startswith("Date"))
).groups()
out = [
    f"012 {title}",
    f"042 {'/'.join(date)}",
    f"052 {'/'.join(date)}",
    "122 " + next(r[0] for r in rows if str(r[0]).startswith("Time control")).split(" : ")[1],
]
for number, r in enumerate(players, start=1):
    blocks = []
    for cell in r[5:12]:
        text = str(cell).strip() if cell is not None else ""
        m = re.fullmatch(r"(\d+)([wb])(1|0|½|\+|-)", text)
        if m:
            result = {"½": "="}.get(m.group(3), m.group(3))
            blocks.append(f"{int(m.group(1)):4d} {m.group(2)} {result}  ")
        elif text == "-1":
            blocks.append("0000 - U  ")
        else:  # 0, None: not paired
            blocks.append("0000 - Z  ")
    rating = f"{int(r[3]):4d}" if r[3] else "    "
    title_code = (r[1] or "").strip()
    name, fed, points = r[2].strip(), r[4], float(r[12])
    head = f"001 {number:4d}  {title_code:>3} {name:<33} {rating} {fed:<3} {'':11} {'':10} "
    head += f"{points:4.1f} {number:4d}  "
    out.append((head + "".join(blocks)).rstrip())
print("\n".join(out))
