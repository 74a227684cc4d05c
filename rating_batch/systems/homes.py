"""Where each rating system other than FIDE Elo is (a table without imports: the command
line's help reads it)."""

from __future__ import annotations

#: The value of a rules file's ``system`` key for FIDE Elo (the default): its editions and a
#: federation's rules files (``elo/system.EloSystem``).
ELO = "fide-elo"

#: Each rating system other than FIDE Elo: its name, and where its constants and its class
#: are (``module:Constants:System`` in this package). ``registry.SYSTEMS`` loads them; the
#: command line's help and the rules files' messages name them from here, without loading
#: any (nor numpy and pandas). A new system is its module and one line here.
SYSTEM_HOMES: dict[str, str] = {
    "glicko2": "glicko2:Glicko2:Glicko2System",
    "glicko": "glicko:Glicko:GlickoSystem",
    "trueskill": "trueskill:TrueSkill:TrueSkillSystem",
    "harkness": "historical:Harkness:HarknessSystem",
    "ingo": "historical:Ingo:IngoSystem",
    "uscf": "uscf:Uscf:UscfSystem",
    "dwz": "dwz:Dwz:DwzSystem",
    "ecf-grade": "ecf_grade:EcfGrade:EcfGradeSystem",
    "ecf": "ecf:Ecf:EcfSystem",
    "ccla": "ccla:Ccla:CclaSystem",
    "lichess": "lichess:Lichess:LichessSystem",
    "chesscom": "chesscom:Chesscom:ChesscomSystem",
}

__all__ = ["ELO", "SYSTEM_HOMES"]
