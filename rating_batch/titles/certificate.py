"""What an IT1 norm certificate shows (docs/norms.md §1), as data for a page: the
player and the event, every round (rating as used, the floor, counted or why not), the mix,
the rating summary, the thresholds, the verdict, and what no file can show (the arbiter, the
registration, the rate of play), as blanks to fill in. Pure: no page is written here."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.titles.check import ceil_share, floor_share
from rating_batch.titles.search import EventNorms
from rating_batch.values import as_int, missing

#: The opponents' titles a certificate counts, in its order.
SHOWN_TITLES = ("GM", "IM", "WGM", "WIM", "FM", "WFM")

#: What a file cannot tell, and so no certificate checks (docs/norms.md §1): each a
#: line the chief arbiter fills in or confirms.
NOT_CHECKED = (
    ("Chief arbiter (IA or FA), name and FIDE ID", "1.1.5"),
    ("Registered with FIDE at least 30 days before the start", "1.1.1"),
    ("Rate of play: at least 120 minutes for 60 moves; identical for all players", "1.1.2"),
    ("At most 2 rounds a day and 12 hours of play a day", "1.1.3"),
    ("GM, WGM: one round a day on at least 3 days", "1.1.3a"),
    ("No change of the event after its start to favour a player", "1.4.2d"),
    ("The event has been rated by FIDE", "1.5"),
)


@dataclass(frozen=True)
class Certificate:
    """One player's certificate for one norm title."""

    title: str
    """The page's title: ``IM norm: Seeker, Ann``."""
    file_name: str
    """``<id>-<TITLE>.html``."""
    player: list[tuple[str, str]]
    event: list[tuple[str, str]]
    rounds: list[dict[str, str]]
    mix: list[tuple[str, str, str, str]]
    """(what, found, required, met: ``yes``/``no``/``waived``)."""
    ratings: list[tuple[str, str]]
    thresholds: list[tuple[str, str, str, str]]
    verdict: str
    norm: bool
    failing: list[str]
    extras: list[tuple[str, str]]
    not_checked: list[tuple[str, str]]
    notes: list[str]


def file_name(row: pd.Series) -> str:
    """A certificate's file name: the player's id and the norm title."""
    return f"{row['id']}-{row['norm_title']}.html"


def certificate(found: EventNorms, index: int) -> Certificate:
    """The certificate of ``found.rows`` row ``index``."""
    row = found.rows.iloc[index]
    facts = found.facts
    rules = facts.rules
    info = facts.info
    title = rules.title(str(row["norm_title"]))
    games = int(row["games"])
    kept = set(row["kept"])
    rounds = found.rounds[found.rounds["player"] == int(row["player"])]
    unrated_as = rules.unrated_rating(info.start)
    raised_name = row["raised_opponent"]
    dropped = {
        text.split(" ", 1)[0]: text.split(" ", 1)[1]
        for text in str(row["games_dropped"]).split("; ")
        if " " in text
    }
    lines = [
        _round_line(item, kept, raised_name, row, unrated_as, dropped)
        for item in rounds.to_dict("records")
    ]
    counted_rounds = rounds[rounds["round"].isin(kept)]
    by_title = counted_rounds["title"].value_counts()
    need_titled = int(ceil_share(np.array(games), rules.titled_share))
    need_target = max(rules.target_minimum, int(ceil_share(np.array(games), rules.target_share)))
    drr = facts.format == "double round-robin"
    if drr:
        need_target = max(rules.drr_target_different, -(-need_target // 2))
    exemption = str(row["exemption"])
    waived = "waived" if exemption else None
    caps_waived = "waived" if exemption and rules.exemptions_waive_caps else None
    own_max = int(floor_share(np.array(games), rules.own_share))
    one_max = int(floor_share(np.array(games), rules.one_federation_share))
    foreign = int(row["federations"]) - (1 if int(row["own_federation"]) else 0)
    mix = [
        (
            "Games counted",
            f"{games}" + (" (+1 credited, 1.4.1c)" if row["credit_141c"] else ""),
            f"≥ {rules.credit_141c_games if row['credit_141c'] else rules.min_games}",
            _met(games >= (rules.credit_141c_games if row["credit_141c"] else rules.min_games)),
        ),
        (
            "Opponents by title",
            ", ".join(f"{t} {int(by_title.get(t, 0))}" for t in SHOWN_TITLES),
            "",
            "",
        ),
        (
            "Title-holders (1.4.5a)",
            str(row["titled"]),
            f"≥ {need_titled}",
            _met(row["titled"] >= need_titled),
        ),
        (
            f"{' or '.join(sorted(title.targets))} (1.4.5b-e)"
            + (", different players" if drr else ""),
            str(row["target_titled"]),
            f"≥ {need_target}",
            _met(row["target_titled"] >= need_target),
        ),
        ("Federations (FID not counted)", str(row["federations"]), "", ""),
        (
            "Foreign federations (1.4.3)",
            str(foreign),
            f"≥ {rules.foreign_federations}",
            waived or _met(foreign >= rules.foreign_federations),
        ),
        (
            f"Own federation {row['federation']} (1.4.4)",
            str(row["own_federation"]),
            f"≤ {own_max}",
            caps_waived or _met(row["own_federation"] <= own_max),
        ),
        (
            f"Largest federation {_blank(row['largest_federation_code'])} (1.4.4)",
            str(row["largest_federation"]),
            f"≤ {one_max}",
            caps_waived or _met(row["largest_federation"] <= one_max),
        ),
        ("Exemption (1.4.3a-d)", exemption or "none", "", ""),
        ("Unrated opponents (reported only)", str(row["unrated"]), "", ""),
    ]
    total = int(counted_rounds["rating"].where(counted_rounds["rating"] >= 0, unrated_as).sum())
    raised = (
        f"{raised_name}: {row['raised_from']} → {row['raised_to']}"
        if isinstance(raised_name, str)
        else "none"
    )
    ratings = [
        ("Sum of the opponents' ratings (unrated as " + str(unrated_as) + ")", str(total)),
        (f"Raised to the floor {title.floor} (1.4.6b-c)", raised),
        ("Ra, rounded .5 up (1.4.7)", str(row["Ra"])),
        ("Score", f"{_points(row['points'])} / {games}"),
        ("p, whole percent, .5 up", f"{row['p']} %"),
        ("dp (1.4.9)", f"{int(row['dp']):+d}"),
        ("Rp = Ra + dp", str(row["Rp"])),
    ]
    thresholds = [
        ("Ra", str(row["Ra"]), f"≥ {title.min_ra}", _met(row["Ra"] >= title.min_ra)),
        ("Rp", str(row["Rp"]), f"≥ {title.min_rp}", _met(row["Rp"] >= title.min_rp)),
        (
            "Score",
            _points(row["points"]),
            f"≥ {rules.min_score_percent} %",
            _met(2 * 100 * row["points"] >= 2 * rules.min_score_percent * games),
        ),
    ]
    norm = bool(row["norm"])
    failing = [text for text in str(row["failing"]).split("; ") if text]
    needed = row["points_needed"]
    extras = [
        ("Score needed at this Ra", "not reachable" if pd.isna(needed) else _points(needed)),
        ("Rounds counted", str(row["rounds_counted"])),
        ("Left out", str(row["games_dropped"]) or "nothing"),
    ]
    if norm:
        extras.append(("Title result after round", str(max(kept))))
        extras.append(("Games the norm counts in an application", str(row["credit_games"])))
    return Certificate(
        title=f"{title.title} norm: {row['name']}",
        file_name=file_name(row),
        player=[
            ("Name", str(row["name"])),
            ("FIDE ID", _blank(row["fide_id"])),
            ("Federation", _blank(row["federation"])),
            ("Title", _blank(row["title"])),
            ("Sex", _blank(row["sex"])),
        ],
        event=[
            ("Event", info.name or info.key),
            ("Place", info.city or "—"),
            ("Dates", f"{info.start or '?'} – {info.end or '?'}"),
            ("System", facts.format),
            ("Rounds", str(facts.rounds)),
            ("Host federation", info.federation or "—"),
            ("Rate of play (as written)", info.time_control or "— (not in the file)"),
            ("Chief arbiter", "— (not in the file: to fill in)"),
            ("Rules", f"FIDE B.01, edition {rules.edition}"),
        ],
        rounds=lines,
        mix=mix,
        ratings=ratings,
        thresholds=thresholds,
        verdict=f"{title.title} NORM" if norm else "NOT ACHIEVED",
        norm=norm,
        failing=failing,
        extras=extras,
        not_checked=[(what, article) for what, article in NOT_CHECKED],
        notes=list(facts.notes),
    )


def _round_line(
    item: Mapping[Hashable, object],
    kept: set[int],
    raised_name: object,
    row: pd.Series,
    unrated_as: int,
    dropped: dict[str, str],
) -> dict[str, str]:
    """One round of the certificate's table: rating as used, the floor, counted or why not."""
    number = as_int(item["round"])
    paired = as_int(item["opponent"]) > 0
    rating = as_int(item["rating"])
    floor = ""
    if number in kept and isinstance(raised_name, str) and item["name"] == raised_name:
        floor = f"{row['raised_from']} → {row['raised_to']}"
    if number in kept:
        counted = "yes"
    elif item["counted"]:
        counted = dropped.get(f"r{number}", "left out")
    else:
        counted = f"no: {item['why']}"
    return {
        "round": str(number),
        "opponent": str(item["name"]) if paired else "—",
        "title": str(item["title"]),
        "federation": str(item["federation"]),
        "rating": "" if not paired else str(rating) if rating >= 0 else f"{unrated_as} (unrated)",
        "floor": floor,
        "result": _result(str(item["result"]), as_int(item["halves"]), paired),
        "counted": counted,
    }


def _met(flag: object) -> str:
    return "yes" if bool(flag) else "no"


def _blank(value: object) -> str:
    return "—" if missing(value) or value == "" else str(value)


def _points(value: object) -> str:
    number = float(str(value))
    return str(int(number)) if number == int(number) else f"{number:.1f}"


def _result(code: str, halves: int, paired: bool) -> str:
    """A round's result as a crosstable shows it (1, ½, 0; + and − for forfeits; byes)."""
    if code in ("+", "-"):
        return code.replace("-", "−")
    if not paired:
        return {"H": "½ bye", "F": "1 bye", "U": "1 PAB", "Z": "0 bye"}.get(code.upper(), "—")
    return {2: "1", 1: "½", 0: "0"}[halves]
