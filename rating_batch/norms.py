"""``rating-batch norms`` and ``title-check`` (docs/norms.md §1, §7): event files read as
``rate`` reads them, or an APPLICATION.toml, computed by ``rating_batch.titles`` and written
through staging: nothing half-written. One event writes OUT/norms.csv, OUT/norms.html and
OUT/norms/ID-TITLE.html; several write each event's into OUT/KEY/."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from rating_batch.errors import InputError, Issue, raise_if_errors
from rating_batch.inputs import expand_inputs, keep_out_apart, load_events
from rating_batch.loaders import Progress, no_progress, read_rating_list
from rating_batch.schema import Event
from rating_batch.staging import staged_outputs
from rating_batch.titles.application import Verdict, check_application, parse_application
from rating_batch.titles.certificate import certificate
from rating_batch.titles.event import event_facts
from rating_batch.titles.search import EventNorms, events_norms
from rating_batch.validation import overlap_issues
from rating_batch.writers.norms import (
    write_application_csv,
    write_application_html,
    write_certificate,
    write_norms_csv,
    write_norms_html,
)

#: What a certificate folder holds (``OutputSet.own``).
CERTIFICATES = r"[^/]+\.html"


@dataclass
class NormsRun:
    """What ``norms`` found: each event's results, and the warnings of reading."""

    events: list[EventNorms]
    warnings: list[Issue] = field(default_factory=list)

    def rows(self) -> pd.DataFrame:
        """Every event's rows, one frame."""
        frames = [found.rows for found in self.events if not found.rows.empty]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    def summary(self) -> str:
        """One line per norm, then the count."""
        rows = self.rows()
        lines = []
        if not rows.empty:
            for row in rows[rows["norm"].to_numpy(bool)].itertuples(index=False):
                lines.append(
                    f"{row.event}: {row.name} ({row.id}) {row.norm_title} norm, "
                    f"{row.points:g}/{row.games}, Rp {row.Rp}, rounds {row.rounds_counted}"
                )
        norms = len(lines)
        players = 0 if rows.empty else rows[["event", "player"]].drop_duplicates().shape[0]
        lines.append(f"{len(self.events)} event(s), {players} player(s) checked: {norms} norm(s)")
        return "\n".join(lines)


def norms_events(
    inputs: Sequence[Path],
    *,
    list_path: Path | None = None,
    players: Sequence[str] = (),
    edition: str | None = None,
    exemption: str | None = None,
    out: Path | None = None,
    progress: Progress = no_progress,
    encoding: str | None = None,
) -> NormsRun:
    """The norms of every player (or those ``players`` names: a FIDE ID or a start rank) of
    the events, written to ``out`` when given.

    Example::

        run = norms_events([Path("sample_data/norms/roundrobin.trf")], out=Path("out"))
        print(run.summary())
    """
    if out is not None:
        keep_out_apart(out, inputs, list_path)
    events, issues = load_events(
        expand_inputs(inputs, beside=list_path), progress, encoding=encoding
    )
    # The same results twice (one file sent twice, or renamed) would make one norm two.
    raise_if_errors(overlap_issues(events, allow_overlap=False))
    if list_path is not None:
        listed = _list_people(list_path, encoding)
        events = [_with_list(event, listed) for event in events]
    unmatched = set(players)
    wanted = []
    for event in events:
        ranks, matched = _wanted(event, players)
        wanted.append(ranks)
        unmatched -= matched
    if unmatched:
        raise InputError(
            [
                Issue("--player", None, f"{name!r} is no FIDE ID or start rank of the events")
                for name in sorted(unmatched)
            ]
        )
    facts = [event_facts(event, edition) for event in events]
    found = events_norms(events, facts, exemption=exemption, wanted=wanted)
    run = NormsRun(found, issues)
    if out is not None:
        write_norms(run, out)
    return run


def _wanted(event: Event, players: Sequence[str]) -> tuple[list[int] | None, set[str]]:
    """The start ranks ``players`` names in an event (None: all), and the names matched."""
    if not players:
        return None, set()
    people = event.players
    ranks: list[int] = []
    matched: set[str] = set()
    for name in players:
        if not name.strip().isdigit():
            raise InputError([Issue("--player", None, f"{name!r} is no FIDE ID or start rank")])
        number = int(name)
        hit = people[(people["fide_id"] == number).fillna(False).to_numpy(bool)]
        if hit.empty:
            hit = people[people["player"] == number]
        if not hit.empty:
            ranks.extend(int(rank) for rank in hit["player"])
            matched.add(name)
    return ranks, matched


def _list_people(path: Path, encoding: str | None) -> pd.DataFrame:
    """A ``--list``'s players by FIDE ID: ``rating`` (standard), ``title`` (the open title,
    else the women's), ``federation``, ``sex``."""
    listed = read_rating_list(path, encoding=encoding)
    ratings = listed.for_kind("standard")
    frame = listed.frame
    people = pd.DataFrame(
        {
            "rating": ratings["rating"].to_numpy(),
            "title": frame["title"].fillna(frame["w_title"]).to_numpy(),
            "federation": frame["federation"].to_numpy(),
            "sex": frame["sex"].to_numpy(),
        },
        index=pd.Index(frame["id"].to_numpy(), dtype="Int64"),
    )
    return people[people.index.notna()].pipe(lambda f: f[~f.index.duplicated()])


def _with_list(event: Event, listed: pd.DataFrame) -> Event:
    """The event with the list's ratings for its players on the list (the list in force at
    the start, 1.4.6), and its titles, federations and sex where the file has none."""
    players = event.players
    found = listed.reindex(pd.Index(players["fide_id"].to_numpy(), dtype="Int64"))
    on_list = found.index.isin(listed.index) & players["fide_id"].notna().to_numpy(bool)
    changes = {
        "rating": players["rating"].mask(
            on_list, pd.array(found["rating"].to_numpy(), dtype="Int64")
        ),
        **{
            name: players[name].fillna(
                pd.Series(found[name].to_numpy(), index=players.index).where(on_list)
            )
            for name in ("title", "federation", "sex")
        },
    }
    return Event(event.info, players.assign(**changes), event.games, event.issues)


def write_norms(run: NormsRun, out: Path) -> None:
    """The files of every event: into ``out`` for one event, ``out/KEY`` for several; the
    certificate folders are the command's own, switched whole."""
    with staged_outputs(out) as outputs:
        for found in run.events:
            base = out if len(run.events) == 1 else out / found.facts.info.key
            write_norms_csv(found.rows, outputs.path(base / "norms.csv"))
            write_norms_html(found, outputs.path(base / "norms.html"))
            norms = found.rows.index[found.rows["norm"].to_numpy(bool)]
            if len(run.events) == 1 or len(norms):
                outputs.own(base / "norms", CERTIFICATES)
                folder = outputs.folder(base / "norms")
                for index in [int(i) for i in norms]:
                    cert = certificate(found, index)
                    write_certificate(cert, folder / cert.file_name)


def application_tables(run: NormsRun) -> str:
    """Each norm found as an APPLICATION.toml ``[[norms]]`` table (docs/norms.md §1):
    what the file shows; ``one_round_a_day`` no file shows, so it is written false, to
    correct by hand."""
    tables = []
    for found in run.events:
        info = found.facts.info
        end = info.end.isoformat() if info.end else _toml_text("")
        for row in found.rows[found.rows["norm"].to_numpy(bool)].to_dict("records"):
            tables.append(
                "\n".join(
                    [
                        f"# {row['name']} ({row['id']}), {row['norm_title']} norm",
                        "[[norms]]",
                        f"event = {_toml_text(info.name or info.key)}",
                        f"end = {end}",
                        f"games = {row['games']}",
                        f"title = {_toml_text(str(row['norm_title']))}",
                        *(
                            [f"exemption = {_toml_text(str(row['exemption']))}"]
                            if row["exemption"]
                            else []
                        ),
                        f"points = {row['points']:g}",
                        f"points_needed = {row['points_needed']:g}",
                        f"strong_event = {'true' if found.facts.strong else 'false'}",
                        "one_round_a_day = false  # not in the file: set it if so",
                        f"credit_141c = {'true' if row['credit_141c'] else 'false'}",
                    ]
                )
            )
    return "\n\n".join(tables) if tables else "# no norm found"


def _toml_text(text: str) -> str:
    """A TOML basic string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def title_check(path: Path, *, out: Path | None = None) -> Verdict:
    """``rating-batch title-check``: an APPLICATION.toml's arithmetic (docs/norms.md §7), and
    with ``out`` its application.csv and application.html.

    Example::

        verdict = title_check(Path("application.toml"))
        print(application_summary(verdict))
    """
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError([Issue(str(path), None, f"not UTF-8 text: {error.reason}")]) from None
    verdict = check_application(parse_application(text, str(path)))
    if out is not None:
        keep_out_apart(out, [path])
        with staged_outputs(out) as outputs:
            write_application_csv(verdict, outputs.path(out / "application.csv"))
            write_application_html(verdict, outputs.path(out / "application.html"))
    return verdict


def application_summary(verdict: Verdict) -> str:
    """What ``title-check`` prints: the verdict, each norm's games, each requirement."""
    application = verdict.application
    lines = [
        f"{application.name}: {application.title} "
        + ("eligible" if verdict.eligible else "not eligible")
        + f" (B.01 {verdict.rules.edition})"
    ]
    for norm, credit in zip(application.norms, verdict.credits, strict=True):
        lines.append(
            f"  {norm.title} norm, {norm.event} ({norm.end}): {norm.games} games, counts {credit}"
        )
    for item in verdict.requirements:
        mark = "met" if item.met else "NOT MET"
        lines.append(f"  {item.article} {item.what}: {item.found} ({item.needed}) {mark}")
    lines.extend(f"  not checked: {text}" for text in verdict.not_checked)
    return "\n".join(lines)
