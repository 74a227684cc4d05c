"""A desk form read as it arrives (spec/desk.md §3): the ``csrf`` field is checked before a
byte of any file is taken (the desk's forms put it first), every file is streamed to disk in
the database's folder (``<db>.inbox/.incoming-*``) with its SHA-256 reckoned on the way, and
reading stops at the first limit passed. Nothing of a refused request stays on disk, and no
file is ever held whole in memory.

Starlette's own ``request.form()`` would spool every part to the system's temporary folder,
without a size limit, before the route could look at ``csrf`` (attack review R4-04, R4-05)."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO
from urllib.parse import parse_qsl

from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import Request

from rating_batch.errors import InputError, Issue, RatingBatchError
from rating_batch.loaders.common import MAX_EVENT_BYTES
from rating_batch.loaders.ratinglist import MAX_LIST_BYTES

#: Form fields a desk form has at most (its files are counted apart).
MAX_FIELDS = 20
#: The bytes of one field's value, and of a form without files.
MAX_FIELD_BYTES = 64 * 1024
#: Tournament files one upload may hold.
MAX_FILES = 100
#: What a part's headers and boundary may add to its bytes.
_PART_BYTES = 64 * 1024
#: The bytes a POST may declare, by route (the others: ``MAX_FIELD_BYTES``).
BODY_LIMITS = {
    "/events": MAX_FILES * (MAX_EVENT_BYTES + _PART_BYTES) + MAX_FIELD_BYTES,
    "/init": MAX_LIST_BYTES + 2 * MAX_FIELD_BYTES + MAX_FIELDS * _PART_BYTES,
}


def body_limit(path: str) -> int:
    """The bytes a POST to ``path`` may declare; more is refused before it is read."""
    return BODY_LIMITS.get(path, MAX_FIELD_BYTES + MAX_FIELDS * _PART_BYTES)


class FormRefused(RatingBatchError):
    """A form the desk will not read on, with its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


#: The 403 of a form without this run's csrf field (the same words wherever it is found).
FOREIGN_FORM = (
    "the form is not one this desk gave (its csrf field is missing or from an earlier run): "
    "nothing was changed; open the page again and repeat"
)


@dataclass
class Received:
    """A file as it came: its name as sent, where its bytes are, their SHA-256 and size."""

    field: str
    name: str
    path: Path
    digest: str
    size: int


@dataclass
class Form:
    """The fields of a form (text, each name with its values in order) and its files."""

    fields: dict[str, list[str]] = field(default_factory=dict)
    files: list[Received] = field(default_factory=list)
    folder: Path | None = None
    """Where its files were streamed (removed by ``close``)."""

    def get(self, name: str) -> str | None:
        values = self.fields.get(name)
        return values[0] if values else None

    def getlist(self, name: str) -> list[str]:
        return list(self.fields.get(name, []))

    def files_of(self, name: str) -> list[Received]:
        """The files chosen in the field ``name`` (a file input left empty sends a part
        without a name or a byte: not a file)."""
        return [f for f in self.files if f.field == name and (f.name or f.size)]

    def close(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


@dataclass(frozen=True)
class Limits:
    """What one form may hold: files (how many, how large each), where they go."""

    files: int = 0
    file_bytes: int = 0
    folder: Path | None = None
    """The folder under which a file is streamed (a hidden ``.incoming-*`` made in it)."""


async def read_form(
    request: Request, limits: Limits, csrf_ok: Callable[[str | None], bool]
) -> Form:
    """The form of a POST, ``csrf`` checked as soon as it is read and before any file."""
    kind, options = parse_options_header(request.headers.get("content-type", ""))
    if kind == b"multipart/form-data":
        boundary = options.get(b"boundary")
        if not boundary:
            raise FormRefused("the form could not be read: its parts have no boundary")
        return await _multipart(request, boundary, limits, csrf_ok)
    if kind in (b"application/x-www-form-urlencoded", b""):
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_FIELD_BYTES:
                raise FormRefused(
                    f"the form is over {MAX_FIELD_BYTES:,} bytes: nothing was done", 413
                )
        form = Form()
        pairs = parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
        if len(pairs) > MAX_FIELDS:
            raise FormRefused(f"the form has over {MAX_FIELDS} fields: nothing was done")
        for name, value in pairs:
            form.fields.setdefault(name, []).append(value)
        if not csrf_ok(form.get("csrf")):
            raise FormRefused(FOREIGN_FORM, 403)
        return form
    raise FormRefused("the form could not be read: it is not a form a browser sends", 415)


async def _multipart(
    request: Request, boundary: bytes, limits: Limits, csrf_ok: Callable[[str | None], bool]
) -> Form:
    form = Form()
    reader = _Parts(form, limits, csrf_ok)
    parser = MultipartParser(boundary, reader.callbacks())  # type: ignore[arg-type]
    try:
        async for chunk in request.stream():
            parser.write(chunk)
            if reader.refused is not None:
                raise reader.refused
        parser.finalize()
        reader.finish()
        if not reader.csrf_seen:
            raise FormRefused(FOREIGN_FORM, 403)
    except RatingBatchError:
        reader.close_file()
        form.close()
        raise
    except Exception as error:  # the multipart parser's own refusals (a malformed body)
        reader.close_file()
        form.close()
        raise FormRefused(f"the form could not be read: {error}") from None
    except BaseException:  # the request cancelled (the desk stopped, the browser gone)
        reader.close_file()
        form.close()
        raise
    return form


class _Parts:
    """The parser's callbacks: each part's headers, then its bytes to a field or a file."""

    def __init__(self, form: Form, limits: Limits, csrf_ok: Callable[[str | None], bool]) -> None:
        self.form, self.limits, self.csrf_ok = form, limits, csrf_ok
        self.refused: RatingBatchError | None = None
        self.csrf_seen = False
        self._header_name = b""
        self._header_value = b""
        self._headers: dict[bytes, bytes] = {}
        self._name = ""
        self._filename: str | None = None
        self._value = bytearray()
        self._file: BinaryIO | None = None
        self._hash = hashlib.sha256()
        self._size = 0
        self._over = False
        self._fields = 0

    def callbacks(self) -> dict[str, Callable[..., None]]:
        return {
            "on_part_begin": self._begin,
            "on_header_field": lambda data, start, end: self._add("_header_name", data[start:end]),
            "on_header_value": lambda data, start, end: self._add("_header_value", data[start:end]),
            "on_header_end": self._header_end,
            "on_headers_finished": self._headers_done,
            "on_part_data": self._data,
            "on_part_end": self._end,
        }

    def _add(self, attribute: str, data: bytes) -> None:
        setattr(self, attribute, getattr(self, attribute) + data)

    def _begin(self) -> None:
        self._headers, self._name, self._filename = {}, "", None
        self._value = bytearray()

    def _header_end(self) -> None:
        self._headers[self._header_name.lower()] = self._header_value
        self._header_name, self._header_value = b"", b""

    def _headers_done(self) -> None:
        _, options = parse_options_header(self._headers.get(b"content-disposition", b""))
        self._name = options.get(b"name", b"").decode("utf-8", "replace")
        filename = options.get(b"filename")
        self._filename = None if filename is None else filename.decode("utf-8", "replace")
        if not self.csrf_seen and self._name != "csrf":
            # The desk's forms put csrf first: a form that does not is read no further.
            self._refuse(FormRefused(FOREIGN_FORM, 403))
            return
        if self._filename is None:
            self._fields += 1
            if self._fields > MAX_FIELDS:
                self._refuse(
                    FormRefused(f"the form has over {MAX_FIELDS} fields: nothing was done")
                )
            return
        # A file: only after this run's csrf field, and only as many as the form may hold.
        if not self.csrf_seen:
            self._refuse(FormRefused(FOREIGN_FORM, 403))
            return
        if len(self.form.files) >= self.limits.files or self.limits.folder is None:
            many = self.limits.files
            self._refuse(FormRefused(f"more than {many} file(s) sent; at most {many} at once"))
            return
        if self.form.folder is None:
            self.limits.folder.mkdir(parents=True, exist_ok=True)
            self.form.folder = Path(tempfile.mkdtemp(prefix=".incoming-", dir=self.limits.folder))
        path = self.form.folder / str(len(self.form.files))
        self._file = path.open("wb")
        self._hash, self._size, self._over = hashlib.sha256(), 0, False
        self.form.files.append(Received(self._name, self._filename, path, "", 0))

    def _refuse(self, error: RatingBatchError) -> None:
        if self.refused is None:
            self.refused = error

    def _data(self, data: bytes, start: int, end: int) -> None:
        if self.refused is not None:
            return
        piece = data[start:end]
        if self._file is not None:
            self._size += len(piece)
            if self._size > self.limits.file_bytes:
                received = self.form.files[-1]
                self._refuse(
                    InputError(
                        [Issue(received.name or "(a file without a name)", None,
                               f"the file is over {self.limits.file_bytes:,} bytes; nothing "
                               "was stored")]
                    )
                )  # fmt: skip
                return
            self._hash.update(piece)
            self._file.write(piece)
            return
        self._value += piece
        if len(self._value) > MAX_FIELD_BYTES:
            self._refuse(FormRefused(f"the field {self._name!r} is over {MAX_FIELD_BYTES:,} bytes"))

    def _end(self) -> None:
        if self._file is not None:
            self.close_file()
            received = self.form.files[-1]
            received.digest, received.size = self._hash.hexdigest(), self._size
            return
        if self.refused is not None:
            return
        value = self._value.decode("utf-8", "replace")
        if self._name == "csrf" and not self.csrf_seen:
            self.csrf_seen = True
            if not self.csrf_ok(value):
                self._refuse(FormRefused(FOREIGN_FORM, 403))
        self.form.fields.setdefault(self._name, []).append(value)

    def close_file(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def finish(self) -> None:
        self.close_file()
        if self.refused is not None:
            raise self.refused
