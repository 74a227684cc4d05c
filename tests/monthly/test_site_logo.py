"""The ``[site] logo`` (docs/site.md §3): only an image of a sane size reaches the public
site, never a link, a text file or an SVG; checked by ``init`` and again each time the site
is written, and carried under the extension of the type its bytes are."""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import pytest
from db_helpers import dump, event_file, process, run, tree, write_list
from site_checks import broken_links

from rating_batch.errors import RulesError
from rating_batch.monthly.site_settings import MAX_LOGO_BYTES, site_settings


def png(padding: int = 0, side: int = 1) -> bytes:
    """A PNG of ``side``×``side`` pixels (its header says so; one white pixel's data), with
    ``padding`` bytes of a private chunk before its end."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data)
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    extra = chunk(b"prVt", b"\0" * padding) if padding else b""
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0\xff\xff\xff"))
        + extra
        + chunk(b"IEND", b"")
    )


#: The start of a JFIF file, a baseline frame of 1×1 pixels (SOF0: 8 bits, height 1, width 1,
#: one component), its end marker after some bytes.
JPEG = (
    b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    + b"\xff\xc0\x00\x0b\x08\x00\x01\x00\x01\x01\x01\x11\x00"
    + b"\0" * 64
    + b"\xff\xd9"
)
GIF = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;"
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
SECRET = "root:x:0:0:root:/root:/bin/bash\n"


def rules_text(logo: Path | str) -> str:
    return f'base = "fide-2025"\n\n[site]\ntitle = "T"\nlogo = "{logo}"\n'


def refusal(logo: Path | str, why: str, source: str = "rules.toml") -> str:
    return f"{source}:5: key 'site.logo': {str(logo)!r} {why}"


NOT_IMAGE = "is not an image: give a PNG, JPEG or GIF file"
#: What a logo found wrong when the site is written says to do.
FIX = "the logo is read from its path each time the web site is written: put the image there"


@pytest.mark.parametrize(
    ("name", "make", "why"),
    [
        ("passwd", lambda p: p.write_text(SECRET), NOT_IMAGE),
        ("list.csv", lambda p: p.write_text("id,rating\n11,1600\n"), NOT_IMAGE),
        ("crest.png", lambda p: p.write_bytes(b"\x89PNG"), NOT_IMAGE),  # a PNG's start only
        ("empty.png", lambda p: p.write_bytes(b""), NOT_IMAGE),
        (
            "crest.svg",
            lambda p: p.write_bytes(SVG),
            "is an SVG image, which may hold scripts and load other files: give the logo as "
            "a PNG, JPEG or GIF file",
        ),
        (
            "bom.svg",
            lambda p: p.write_bytes(b'\xef\xbb\xbf<?xml version="1.0"?>\n' + SVG),
            "is an SVG image, which may hold scripts and load other files: give the logo as "
            "a PNG, JPEG or GIF file",
        ),
        (
            "huge.png",
            lambda p: p.write_bytes(png(MAX_LOGO_BYTES)),
            f"is {len(png(MAX_LOGO_BYTES)):,} bytes: a logo is at most 1,048,576 (1 MiB)",
        ),
        (
            "link.png",
            lambda p: ((p.parent / "real.png").write_bytes(png()), p.symlink_to("real.png")),
            "is a symbolic link: give the image file itself",
        ),
        ("folder.png", lambda p: p.mkdir(), "is not a file"),
        # A document dressed as an image: a browser guessing its type could run it.
        (
            "poly.gif",
            lambda p: p.write_bytes(b"GIF89a<svg onload=alert(1)>"),
            "is not a whole GIF image (its size is not one of 1 to 10,000 pixels a side)",
        ),
        (
            "page.gif",
            lambda p: p.write_bytes(GIF[:-1] + b"<script>alert(1)</script>;"),
            "is not a whole GIF image (it holds the markup of a web page)",
        ),
        (
            "header.png",
            lambda p: p.write_bytes(png()[:33]),
            "is not a whole PNG image (it does not end as one: cut, or something after it)",
        ),
        (
            "wide.png",
            lambda p: p.write_bytes(png(side=100_000)),
            "is not a whole PNG image (its size is not one of 1 to 10,000 pixels a side)",
        ),
        ("missing.png", lambda p: None, "does not exist (a path from where you run)"),
    ],
    ids=[
        "text",
        "csv",
        "png-start",
        "empty",
        "svg",
        "svg-with-bom",
        "over-1-MiB",
        "link",
        "folder",
        "polyglot",
        "markup",
        "header-only",
        "too-wide",
        "missing",
    ],
)
def test_a_logo_that_is_not_an_image_is_refused_at_its_line(
    name: str, make: object, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    make(tmp_path / name)  # type: ignore[operator]
    with pytest.raises(RulesError) as error:
        site_settings(rules_text(name), "rules.toml")
    assert str(error.value) == refusal(name, why)


@pytest.mark.parametrize(
    ("data", "extension"),
    [(png(), "png"), (JPEG, "jpg"), (GIF, "gif"), (png(MAX_LOGO_BYTES - 100), "png")],
    ids=["png", "jpeg", "gif", "1-MiB-png"],
)
def test_an_image_is_a_logo_of_its_own_type(
    data: bytes, extension: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "crest.png").write_bytes(data)  # named .png whatever it is
    logo = site_settings(rules_text("crest.png"), "rules.toml").logo
    assert logo is not None and (logo.path, logo.data, logo.extension) == (
        Path("crest.png"),
        data,
        extension,
    )


def test_init_refuses_a_logo_that_is_not_an_image(tmp_path: Path) -> None:
    # The real command, as an officer runs it with a rules file copied from elsewhere.
    rules = tmp_path / "r.toml"
    rules.write_text(rules_text("/etc/passwd"), encoding="utf-8")
    listed = write_list(tmp_path, ["id,rating", "11,1600", "12,1500"])
    db = tmp_path / "r.sqlite"
    code, out, err = process(
        "init", "--list", listed, "--period", "2026-01", "--rules", rules, "--db", db
    )
    assert (code, out) == (1, "")
    assert err == f"Error: {refusal('/etc/passwd', NOT_IMAGE, str(rules))}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["list.csv", "r.toml"]


def logo_database(folder: Path, data: bytes) -> tuple[Path, Path]:
    """A database whose rules name the logo ``crest.png`` (``data``), published for 2026-02
    with its site; the database and the logo's path."""
    logo = folder / "crest.png"
    logo.write_bytes(data)
    rules = folder / "fed.toml"
    rules.write_text(rules_text(logo), encoding="utf-8")
    listed = write_list(folder, ["id,rating", "11,1600", "12,1500"])
    db = folder / "r.sqlite"
    code, out, err = run(
        "init", "--list", listed, "--period", "2026-01", "--rules", rules, "--db", db
    )
    assert code == 0, out + err
    assert run("add", event_file(folder, "jan", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    code, out, err = run("publish", "2026-02", "--db", db, "--out", folder / "out")
    assert code == 0, out + err
    return db, logo


def test_the_site_carries_the_logo_under_the_extension_of_its_type(tmp_path: Path) -> None:
    logo_database(tmp_path, JPEG)  # a JPEG named crest.png
    site = tmp_path / "out" / "site"
    assert sorted(p.name for p in site.glob("logo*")) == ["logo.jpg"]
    assert (site / "logo.jpg").read_bytes() == JPEG
    assert '<img src="logo.jpg" alt=""' in (site / "index.html").read_text(encoding="utf-8")
    assert broken_links(site) == []


@pytest.mark.parametrize("replaced", ["link", "text"])
def test_a_logo_replaced_since_init_is_refused_by_publish_and_by_site(
    replaced: str, tmp_path: Path
) -> None:
    db, logo = logo_database(tmp_path, png())
    out = tmp_path / "out"
    site = tree(out)
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    logo.unlink()
    if replaced == "link":
        logo.symlink_to(secret)
        why = "is a symbolic link: give the image file itself"
    else:
        logo.write_text(SECRET)
        why = NOT_IMAGE
    assert run("add", event_file(tmp_path, "feb", [(1, 2, 1, "1-0")], day="2026/02/07"),
               "--db", db)[0] == 0  # fmt: skip
    before = dump(db)
    rules = tmp_path / "fed.toml"
    # publish: refused before anything is changed (the rules file named as init stored it).
    code, printed, err = process("publish", "2026-03", "--db", db, "--out", out)
    assert (code, printed) == (1, "")
    assert err == f"Error: {refusal(logo, why, str(rules))}; nothing was published: {FIX}\n"
    assert dump(db) == before
    assert tree(out) == site
    # site: the web site is not written, the one in place stays.
    code, printed, err = process("site", "--db", db, "--out", out)
    assert (code, printed) == (1, "")
    assert err == (
        f"Error: the web site was not written: {refusal(logo, why, str(rules))}; the published "
        f"lists and their files are in place: {FIX}, and 'rating-batch site --out {out}' "
        "writes the site\n"
    )
    assert tree(out) == site
    assert [path for path, data in tree(out).items() if SECRET.encode() in data] == []
    assert os.path.islink(logo) == (replaced == "link")
