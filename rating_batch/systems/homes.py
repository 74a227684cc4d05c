"""Where each rating system other than FIDE Elo is (a table without imports: the command
line's help reads it)."""

from __future__ import annotations

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
    "ecf-grade": "ecf_grade:EcfGrade:EcfGradeSystem",
    "ecf": "ecf:Ecf:EcfSystem",
}

__all__ = ["SYSTEM_HOMES"]
