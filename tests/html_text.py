"""Reading our HTML pages back as a reader sees them: every table row as its cells' text
(marks included), and the text of each paragraph (and list item)."""

from __future__ import annotations

from html.parser import HTMLParser


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.paragraphs: list[str] = []
        self.headings: list[str] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._text: list[str] | None = None
        self.classes: list[tuple[str, str]] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []
            css = dict(attrs).get("class")
            if css:
                self.classes.append((css, ""))
        elif tag in ("p", "h1", "h2", "h3", "dd", "dt", "li"):
            self._text = []
        elif tag == "a":
            self.links.append(dict(attrs).get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None
        elif tag in ("p", "dd", "dt", "li") and self._text is not None:
            self.paragraphs.append(" ".join("".join(self._text).split()))
            self._text = None
        elif tag in ("h1", "h2", "h3") and self._text is not None:
            self.headings.append(" ".join("".join(self._text).split()))
            self._text = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._text is not None:
            self._text.append(data)


def read_page(text: str) -> _Reader:
    """The page's rows, paragraphs, headings and links."""
    reader = _Reader()
    reader.feed(text)
    return reader
