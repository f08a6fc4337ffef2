"""Reading a batch on a Dask cluster: one task per game, results gathered into the PGN and the
JSON report that ``scoresheet read`` writes for the same inputs.

    from dask.distributed import Client, LocalCluster
    from scoresheet.distributed import read_batch, list_games

    client = Client(LocalCluster(n_workers=2, threads_per_worker=1))   # or Client("tcp://host:8786")
    pgn, report = read_batch(client, list_games(["scans/"]))

Every worker needs the ``scoresheet`` package installed and the files at the same paths (a
shared file system), or pass bytes as pages.
"""

import json
import os
from typing import Iterable, List, Sequence, Tuple

from . import read_raw

#: File extensions looked at inside folders (as ``scoresheet read``).
EXTENSIONS = ("png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff", "pdf")


def list_games(inputs: Iterable[str]) -> List[Tuple[str, List[str]]]:
    """The games of ``inputs`` as ``scoresheet read`` lists them by default: one game per file,
    folders walked recursively in sorted order (only images and PDFs inside folders), each game
    named by its file's stem."""
    files: List[str] = []

    def walk(folder: str) -> None:
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isdir(path):
                walk(path)
            elif name.rsplit(".", 1)[-1].lower() in EXTENSIONS and "." in name:
                files.append(path)

    for item in inputs:
        item = os.fspath(item)
        if os.path.isdir(item):
            walk(item)
        else:
            files.append(item)
    return [(os.path.splitext(os.path.basename(f))[0], [f]) for f in files]


def _read_one(game: Tuple[str, Sequence[str]], options: dict) -> dict:
    """One task: a game read (a bad file is in the game's errors; it never stops the batch)."""
    game_id, pages = game
    return read_raw(pages, id=game_id, **options)


def read_batch(client, games: Sequence[Tuple[str, Sequence[str]]], **options) -> Tuple[str, str]:
    """Reads ``games`` (name and pages each, as :func:`list_games` gives them) on the cluster of
    ``client``, one task per game, and returns the PGN text and the JSON report text, games in
    the order given. ``options`` are :func:`scoresheet.read_game`'s."""
    futures = client.map(_read_one, list(games), options=options, pure=False)
    return assemble(client.gather(futures))


def assemble(results: Sequence[dict]) -> Tuple[str, str]:
    """The PGN and the JSON report of games read apart (:func:`scoresheet.read_raw`), in the
    order given, byte for byte as ``scoresheet read`` writes them for the same games."""
    pgn = "".join(r["pgn"] for r in results)
    entries = [r["report"] for r in results if r["report"] is not None]
    errors = [e for r in results for e in r["errors"]]
    games = "[]" if not entries else "[\n" + ",\n".join(_indent(e, "    ", True) for e in entries) + "\n  ]"
    error_text = _indent(json.dumps(errors, indent=2, ensure_ascii=False), "  ", False)
    return pgn, '{\n  "games": ' + games + ',\n  "errors": ' + error_text + "\n}"


def _indent(text: str, by: str, first: bool) -> str:
    """``text`` with ``by`` before each line (the first one too where ``first``)."""
    lines = text.split("\n")
    return "\n".join((by + line) if (i > 0 or first) else line for i, line in enumerate(lines))
