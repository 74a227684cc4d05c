"""FIDE's title regulations (Handbook B.01) as data, one frozen instance per edition: the
figures a norm, a title by rating and a title application are judged by (docs/norms.md §3),
and the decisions taken where the sources are unclear, each a field with its default
(docs/norms.md §5). An event is judged by the edition in force when it started."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from rating_batch.errors import RulesError

#: The exemptions of 1.4.3a-c an officer names (``--exemption``); d is computed.
EXEMPTIONS = ("national-championship", "national-team", "zonal")

#: The titles a norm can be sought for, in the order they are checked and shown.
NORM_TITLES = ("GM", "IM", "WGM", "WIM")


@dataclass(frozen=True, slots=True, kw_only=True)
class NormTitle:
    """The figures of one norm title (docs/norms.md §3)."""

    title: str
    """``GM``, ``IM``, ``WGM`` or ``WIM``."""
    floor: int
    """The adjusted rating floor: the lowest opponent below it counts as this (1.4.6b)."""
    min_ra: int
    """The lowest Ra (the adjusted average) of a norm (1.4.8)."""
    min_rp: int
    """The lowest performance Rp = Ra + dp of a norm (1.4.8a)."""
    targets: frozenset[str]
    """The opponents' titles that count toward the target-title third (1.4.5b-e): the title
    itself or a higher one; a WGM is no target of an IM norm."""
    women_only: bool
    """Only a woman (sex ``F``) seeks it (B.01 §0.3.1)."""
    application_rating: int
    """The rating an applicant must have reached at some time (1.5.3)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NormRules:
    """One edition of B.01, as far as it bears on computing norms and an application. Every
    article a figure comes from is in ``articles``, under the key the checks use."""

    edition: str
    """``"2014"``, ``"2017"``, ``"2022"``, ``"2023"`` or ``"2024"``."""
    since: dt.date
    """The first start date of the events it judges (docs/norms.md §3)."""
    articles: Mapping[str, str]
    """Check → the article it is, as this edition numbers it (``rp`` → ``1.4.8a``)."""
    titles: tuple[NormTitle, ...]
    min_games: int = 9
    """Games a norm needs (1.4.1a)."""
    credit_141c_rounds: int = 9
    """The event length in which 8 games and a forfeit win or a pairing-allocated bye make a
    9-game norm (1.4.1c)."""
    credit_141c_games: int = 8
    max_credit_games: int = 13
    """A norm over more rounds counts this many games in an application (1.7)."""
    min_score_percent: int = 35
    """The lowest score of a norm, in percent of the games (1.4.8b)."""
    titled: frozenset[str] = frozenset({"GM", "IM", "WGM", "WIM", "FM", "WFM"})
    """The titles that count toward the titled half (1.4.5a): CM and WCM do not."""
    titled_share: tuple[int, int] = (1, 2)
    """At least this share of the opponents hold a title of ``titled`` (1.4.5a), rounded up."""
    target_share: tuple[int, int] = (1, 3)
    """At least this share hold the target title or a higher one (1.4.5b-e), rounded up …"""
    target_minimum: int = 3
    """… and never fewer than this many."""
    foreign_federations: int = 2
    """Federations other than the applicant's among the opponents (1.4.3)."""
    own_share: tuple[int, int] = (3, 5)
    """At most this share of the opponents from the applicant's federation (1.4.4a), rounded
    down."""
    one_federation_share: tuple[int, int] = (2, 3)
    """At most this share from any one federation (1.4.4b), rounded down."""
    drr_players: int = 6
    """A double round-robin has at least this many players (1.4.5)."""
    unrated_ratings: tuple[tuple[dt.date, int], ...] = ((dt.date(1900, 1, 1), 1000),)
    """What an unrated opponent counts as (1.4.6d), by the event's start date: each entry
    from its date on (docs/norms.md §5, decision 1)."""
    swiss_exemption_players: int = 20
    """1.4.3d: every round has this many FIDE-rated players from outside the host federation …"""
    swiss_exemption_federations: int = 3
    """… of at least this many federations …"""
    swiss_exemption_titled: int = 10
    """… of whom this many hold GM, IM, WGM or WIM."""
    swiss_exemption_titles: frozenset[str] = frozenset({"GM", "IM", "WGM", "WIM"})
    swiss_exemption_missed: int | None = None
    """A player counts in 1.4.3d only if he missed at most this many rounds (pairing-allocated
    byes are not missed); None: every player of the round counts (before 2022)."""
    application_games: int = 27
    """The games an application's norms cover (1.5.1)."""
    strong_event_since: dt.date | None = None
    """An application holding a norm gained from this day on needs a norm from a strong event
    (1.5.6); None: no such requirement."""
    strong_event_players: int = 40
    strong_event_average: int = 2000
    title_rating_games: int = 30
    """Rated games at the time a title rating was reached (1.3, 0.6.2)."""
    # The decisions where the sources are unclear (docs/norms.md §5), with their defaults.
    exemptions_waive_caps: bool = True
    """Decision 2: an exemption of 1.4.3 waives the 1.4.4 caps too (the QC's reading)."""
    fid_is_federation: bool = False
    """Decision 3: FID opponents count as games and titled opponents, never as a federation."""
    exact_score_minimum: bool = True
    """Decision 4: the 35 % minimum compares the exact score (points ≥ 0.35 × games), not the
    rounded percentage."""
    drr_target_different: int = 3
    """Decision 5: a double round-robin needs the target-title count in different players,
    halved and rounded up, never below this."""
    unrated_share_fails: bool = False
    """Decision 6: the share of unrated opponents is reported, never a failure; when True, a
    share over ``unrated_share_max`` fails (the informal 20 %, docs/norms.md §5)."""
    unrated_share_max: tuple[int, int] = (1, 5)
    strong_average_of_all: bool = True
    """Decision 7: 1.5.6's average is of every rated participant of the round; when False,
    of the round's ``strong_event_players`` highest rated (Sharly's top-40 reading)."""
    rating_titles: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType({"FM": 2300, "CM": 2200, "WFM": 2100, "WCM": 2000})
    )
    """Titles by rating (1.3): reached at some time, published or interim."""
    rating_titles_games_since: dt.date | None = None
    """A title rating reached from this day on needs ``title_rating_games`` games (1.3)."""
    direct_title_minimum: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType(
            {
                "GM": 2300,
                "IM": 2200,
                "FM": 2100,
                "CM": 2000,
                "WGM": 2100,
                "WIM": 2000,
                "WFM": 1900,
                "WCM": 1800,
            }
        )
    )
    """The rating a direct title needs to be confirmed (0.6.2)."""
    direct_title_games_since: dt.date | None = None
    """A direct title's rating reached from this day on needs ``title_rating_games`` games
    (0.6.2, 2024)."""

    def __post_init__(self) -> None:
        missing = sorted(set(ARTICLE_KEYS) - set(self.articles))
        if missing:
            raise RulesError(f"title rules {self.edition}: no article for {', '.join(missing)}")
        if [t.title for t in self.titles] != list(NORM_TITLES):
            raise RulesError(f"title rules {self.edition}: the titles must be {NORM_TITLES}")
        dates = [since for since, _ in self.unrated_ratings]
        if dates != sorted(dates) or not dates:
            raise RulesError(f"title rules {self.edition}: unrated_ratings out of date order")

    def title(self, name: str) -> NormTitle:
        """The figures of one norm title."""
        for title in self.titles:
            if title.title == name:
                return title
        raise RulesError(f"no norm title {name!r}: use one of {', '.join(NORM_TITLES)}")

    def unrated_rating(self, start: dt.date | None) -> int:
        """What an unrated opponent counts as in an event starting ``start`` (the latest
        figure when the start is unknown)."""
        value = self.unrated_ratings[0][1]
        for since, rating in self.unrated_ratings:
            if start is None or start >= since:
                value = rating
        return value


#: What every edition's ``articles`` names (the checks, and the rules they apply).
ARTICLE_KEYS = (
    "games",
    "credit_141c",
    "overscore",
    "after_norm",
    "drop_wins",
    "not_counted",
    "federations",
    "caps",
    "titled",
    "target",
    "floor",
    "unrated",
    "ra",
    "ra_min",
    "rp",
    "score",
    "dp",
    "standard",
    "long_event",
    "drr",
    "application_games",
    "application_rating",
    "one_141c",
    "no_exemption",
    "strong_event",
    "one_round_a_day",
    "rated_event",
    "credit_cap",
)

#: The three-level numbering of 2022 onwards (docs/norms.md §3).
_ARTICLES_2022 = MappingProxyType(
    {
        "games": "1.4.1a",
        "credit_141c": "1.4.1c",
        "overscore": "1.4.1d",
        "after_norm": "1.4.1e",
        "drop_wins": "1.4.1f",
        "not_counted": "1.4.2",
        "federations": "1.4.3",
        "caps": "1.4.4",
        "titled": "1.4.5a",
        "target": "1.4.5b",
        "drr": "1.4.5",
        "floor": "1.4.6b",
        "unrated": "1.4.6d",
        "ra": "1.4.7",
        "ra_min": "1.4.8",
        "rp": "1.4.8a",
        "score": "1.4.8b",
        "dp": "1.4.9",
        "standard": "0.5",
        "long_event": "1.1.4",
        "application_games": "1.5.1",
        "application_rating": "1.5.3",
        "one_141c": "1.4.1c",
        "no_exemption": "1.4.3e",
        "strong_event": "1.5.6",
        "one_round_a_day": "1.1.3a",
        "rated_event": "1.5",
        "credit_cap": "1.7",
    }
)

#: The two-level numbering of 2014 and 2017 (1.41 … 1.49, 1.5x).
_ARTICLES_2017 = MappingProxyType(
    {
        **_ARTICLES_2022,
        "games": "1.41a",
        "credit_141c": "1.41c",
        "overscore": "1.41d",
        "after_norm": "1.41e",
        "drop_wins": "1.41f",
        "not_counted": "1.42",
        "federations": "1.43",
        "caps": "1.44",
        "titled": "1.45a",
        "target": "1.45b",
        "drr": "1.45",
        "floor": "1.46b",
        "unrated": "1.46d",
        "ra": "1.47",
        "ra_min": "1.48a",
        "rp": "1.48",
        "score": "1.48b",
        "dp": "1.49",
        "application_games": "1.49",
        "application_rating": "1.53",
        "one_141c": "1.41c",
        "no_exemption": "1.43e",
        "one_round_a_day": "1.13a",
        "rated_event": "1.5",
        "credit_cap": "1.7",
    }
)

_TITLES = (
    NormTitle(
        title="GM",
        floor=2200,
        min_ra=2380,
        min_rp=2600,
        targets=frozenset({"GM"}),
        women_only=False,
        application_rating=2500,
    ),
    NormTitle(
        title="IM",
        floor=2050,
        min_ra=2230,
        min_rp=2450,
        targets=frozenset({"GM", "IM"}),
        women_only=False,
        application_rating=2400,
    ),
    NormTitle(
        title="WGM",
        floor=2000,
        min_ra=2180,
        min_rp=2400,
        targets=frozenset({"GM", "IM", "WGM"}),
        women_only=True,
        application_rating=2300,
    ),
    NormTitle(
        title="WIM",
        floor=1850,
        min_ra=2030,
        min_rp=2250,
        targets=frozenset({"GM", "IM", "WGM", "WIM"}),
        women_only=True,
        application_rating=2200,
    ),
)

B01_2014 = NormRules(
    edition="2014", since=dt.date(2014, 7, 1), articles=_ARTICLES_2017, titles=_TITLES
)
# 2017: titles by rating need 30 games (1.3); the norm figures are 2014's.
B01_2017 = dataclasses.replace(
    B01_2014,
    edition="2017",
    since=dt.date(2017, 7, 1),
    rating_titles_games_since=dt.date(2017, 7, 1),
)
# 2022: three-level numbering; 1.4.3d counts only players who missed at most one round; an
# application with a norm from 1 Jul 2022 on needs a strong-event norm (1.5.6).
B01_2022 = dataclasses.replace(
    B01_2017,
    edition="2022",
    since=dt.date(2022, 1, 1),
    articles=_ARTICLES_2022,
    swiss_exemption_missed=1,
    strong_event_since=dt.date(2022, 7, 1),
)
# 2023: not read; treated as 2022's until the archived text is compared (docs/norms.md §3).
B01_2023 = dataclasses.replace(B01_2022, edition="2023", since=dt.date(2023, 1, 1))
# 2024: unrated opponents count 1400 (1.4.6d) from the new rating floor of 1 Mar 2024 on
# (decision 1: 1000 before it).
B01_2024 = dataclasses.replace(
    B01_2023,
    edition="2024",
    since=dt.date(2024, 1, 1),
    unrated_ratings=((dt.date(1900, 1, 1), 1000), (dt.date(2024, 3, 1), 1400)),
    direct_title_games_since=dt.date(2024, 1, 1),
)

EDITIONS: Mapping[str, NormRules] = MappingProxyType(
    {rules.edition: rules for rules in (B01_2014, B01_2017, B01_2022, B01_2023, B01_2024)}
)
LATEST = "2024"


def edition_for(start: dt.date | None, named: str | None = None) -> NormRules:
    """The edition named (``--edition``), else the one in force when the event started
    (the latest when the start is unknown; the earliest for an event before 2014)."""
    if named is not None:
        if named not in EDITIONS:
            raise RulesError(
                f"unknown title rules edition {named!r}: use one of {', '.join(EDITIONS)}"
            )
        return EDITIONS[named]
    if start is None:
        return EDITIONS[LATEST]
    chosen = B01_2014
    for rules in EDITIONS.values():
        if start >= rules.since:
            chosen = rules
    return chosen
