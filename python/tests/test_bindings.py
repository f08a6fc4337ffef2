"""The bindings read as the command line does."""

import pathlib
import subprocess

import pytest

import scoresheet
from conftest import read_with_cli, scoresheet_bin


def without_extras(game: dict) -> dict:
    return {k: v for k, v in game.items() if k not in ("pgn", "errors")}


def test_each_sample_reads_as_the_command_line_reads_it(samples, cli_samples):
    pgn, report, _ = cli_samples
    games = [scoresheet.read_sheet(path) for path in samples]
    assert [without_extras(g) for g in games] == report["games"]
    assert "".join(g["pgn"] for g in games) == pgn
    first = games[0]["moves"][0]
    assert {"san", "confidence", "flagged", "alternatives", "cells"} <= first.keys()


def test_bytes_read_as_the_file_does(samples):
    path = samples[0]
    from_bytes = scoresheet.read_sheet(pathlib.Path(path).read_bytes(), id="game")
    from_path = scoresheet.read_sheet(pathlib.Path(path), id="game")
    assert [m["san"] for m in from_bytes["moves"]] == [m["san"] for m in from_path["moves"]]
    assert from_bytes["files"] == ["<bytes 1>"]


def test_a_bad_file_is_a_value_error_naming_it_and_the_cause(tmp_path):
    bad = tmp_path / "notes.jpg"
    bad.write_bytes(b"pairings, not a picture")
    with pytest.raises(ValueError, match="notes.jpg: not an image"):
        scoresheet.read_sheet(bad)
    with pytest.raises(ValueError, match="<bytes 1>: the file is empty"):
        scoresheet.read_sheet(b"")


def test_a_game_over_two_pages_keeps_the_readable_one_and_reports_the_other(samples, tmp_path):
    bad = tmp_path / "torn.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n")
    game = scoresheet.read_game([samples[0], bad], id="board 1")
    assert game["id"] == "board 1" and game["moves"]
    assert [e["file"] for e in game["errors"]] == [str(bad)]


def test_a_descriptive_sheet_reads_as_the_command_line_reads_it(tmp_path):
    # one synthetic sheet in English descriptive notation, read with the language given: the
    # bindings read it with the first model at every view, as `read` does
    dev = scoresheet_bin().with_name("scoresheet-dev")
    if not dev.is_file():
        pytest.skip("no scoresheet-dev binary: build it (cargo build)")
    sheets = tmp_path / "sheets"
    synth = [str(dev), "synth", "--out", str(sheets), "--count", "1", "--seed", "3"]
    subprocess.run([*synth, "--lang", "en-descriptive", "--damage", "none"], check=True, capture_output=True)
    (sheet,) = [p for p in sheets.iterdir() if p.suffix in (".png", ".jpg")]
    pgn, report, _ = read_with_cli([sheet], tmp_path, "--lang", "en-descriptive")
    game = scoresheet.read_sheet(sheet, lang="en-descriptive")
    assert without_extras(game) == report["games"][0]
    assert game["pgn"] == pgn
