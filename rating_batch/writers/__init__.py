"""Writers: select, order and format; never decide a number.

Writers write to the path they are given (``staging.staged_outputs`` gives paths in a staging
folder and switches the whole set into place once every one is written). One module per
format: ``csvfile``, ``workbook`` (XLSX), ``txtlist`` (FIDE's fixed-width list), ``html``
(pages from the package's templates); ``common`` holds what they share.

Text that a spreadsheet could take for a formula (starting with ``=``, ``+``, ``-``, ``@``, tab
or CR) is neutralised: quoted with ``'`` in CSV, and a quote-prefixed text cell in XLSX.
"""

from rating_batch.writers.common import (
    CODE_COLUMNS,
    FORMULA_STARTS,
    MAX_DETAIL_ROWS,
    MAX_SHEET_ROWS,
    NUMBER_FORMATS,
    detail_notes,
    neutralise,
)
from rating_batch.writers.csvfile import CSV_BLOCK, write_csv
from rating_batch.writers.html import EventRows, event_rows, write_event_html, write_index_html
from rating_batch.writers.player import player_text, write_player_html, write_player_workbook
from rating_batch.writers.txtlist import TXT_LIST_LAYOUT, ascii_text, write_list_txt
from rating_batch.writers.workbook import (
    CALCULATION_LABELS,
    GAME_LABELS,
    PLAYER_LABELS,
    Sheet,
    write_calculations_sheet,
    write_chart_sheet,
    write_workbook,
)

__all__ = [
    "CALCULATION_LABELS",
    "CODE_COLUMNS",
    "CSV_BLOCK",
    "FORMULA_STARTS",
    "GAME_LABELS",
    "MAX_DETAIL_ROWS",
    "MAX_SHEET_ROWS",
    "NUMBER_FORMATS",
    "PLAYER_LABELS",
    "TXT_LIST_LAYOUT",
    "EventRows",
    "Sheet",
    "ascii_text",
    "detail_notes",
    "event_rows",
    "neutralise",
    "player_text",
    "write_calculations_sheet",
    "write_chart_sheet",
    "write_csv",
    "write_event_html",
    "write_index_html",
    "write_list_txt",
    "write_player_html",
    "write_player_workbook",
    "write_workbook",
]
