"""Reads photos and scans of handwritten chess scoresheets into PGN.

The reading is the ``scoresheet read`` command's, run in this process (the built-in model, or
``model=``; the ONNX Runtime library is found or fetched as the command does, see
``SCORESHEET_CACHE``). Each call releases the GIL while it reads, so threads read in parallel.

A game comes back as a plain dict: the JSON report's entry for the game (``id``, ``files``,
``language``, ``result``, ``flagged``, ``score``, ``moves``: per half-move ``san``,
``confidence``, ``flagged``, ``alternatives`` and ``cells``), with ``pgn`` (the game's PGN text,
as the command writes it) and ``errors`` (pages that could not be read) added.
"""

import json
import os
from typing import Iterable, Optional, Sequence, Tuple, Union

from . import _native

Page = Union[str, "os.PathLike[str]", bytes]

__all__ = ["read_sheet", "read_game", "read_raw", "Page"]


def read_game(
    pages: Iterable[Page],
    *,
    id: Optional[str] = None,
    lang: Optional[str] = None,
    lower: str = "auto",
    model: Optional[Union[str, "os.PathLike[str]"]] = None,
    tags: Optional[Sequence[Tuple[str, str]]] = None,
) -> dict:
    """Reads one game from its pages (the players' copies, continuation pages): each a path or
    the bytes of an image or PDF file. ``id`` names the game (default: the first file's stem);
    ``lang`` is a piece-letter language code or ``auto``; ``lower`` is ``auto``, ``off``, ``0.25``
    or ``0.5`` (as ``read --lower``); ``tags`` are PGN tags. Raises ``ValueError`` naming the
    file and cause when no page can be read."""
    read = read_raw(pages, id=id, lang=lang, lower=lower, model=model, tags=tags)
    if read["game"] is None:
        raise ValueError("; ".join(f"{e['file']}: {e['error']}" for e in read["errors"]))
    return {**read["game"], "pgn": read["pgn"], "errors": read["errors"]}


def read_raw(pages: Iterable[Page], **options) -> dict:
    """A game as the native module returns it: ``game`` (the report's entry, ``None`` when no
    page could be read), ``pgn``, ``errors`` and ``report`` (the entry as the JSON report prints
    it). Options as :func:`read_game`."""
    pages = [os.fspath(p) if isinstance(p, os.PathLike) else p for p in pages]
    if options.get("model") is not None:
        options["model"] = os.fspath(options["model"])
    if options.get("tags"):
        options["tags"] = list(options["tags"])
    return json.loads(_native.read_game_json(pages, **options))


def read_sheet(page: Page, **options) -> dict:
    """Reads the game on one sheet (a path or an image's or PDF's bytes); options as
    :func:`read_game`."""
    return read_game([page], **options)
