"""Shared fixtures: the repository's samples and the `scoresheet` command line built by cargo."""

import functools
import json
import os
import pathlib
import subprocess
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "hcs"


def scoresheet_bin() -> pathlib.Path:
    """The command line to compare with: $SCORESHEET_BIN, else cargo's build of it."""
    if os.environ.get("SCORESHEET_BIN"):
        return pathlib.Path(os.environ["SCORESHEET_BIN"])
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("debug", "release"):
        if (target / profile / "scoresheet").is_file():
            return target / profile / "scoresheet"
    pytest.skip("no scoresheet binary: build it (cargo build) or set SCORESHEET_BIN")


def read_with_cli(inputs, out_dir: pathlib.Path, *options: str):
    """`scoresheet read` over `inputs` (with `options`): its PGN text and parsed JSON report, and
    the report's text."""
    pgn, report = out_dir / "cli.pgn", out_dir / "cli.json"
    run = subprocess.run(
        [str(scoresheet_bin()), "read", *map(str, inputs), *options, "-o", str(pgn), "--json", str(report), "--force"],
        capture_output=True,
        text=True,
    )
    assert run.returncode in (0, 2), run.stderr
    text = report.read_text()
    return pgn.read_text(), json.loads(text), text


@pytest.fixture
def samples():
    """The sample sheets, in the order `scoresheet read samples/hcs` lists them."""
    return sorted(str(p) for p in SAMPLES.iterdir() if p.suffix.lower() in (".jpg", ".png"))


@functools.lru_cache(maxsize=None)
def cli_output_for_samples():
    """The command line's reading of the samples, made once for all tests."""
    return read_with_cli([SAMPLES], pathlib.Path(tempfile.mkdtemp(prefix="scoresheet-cli-")))


@pytest.fixture
def cli_samples():
    """The command line's PGN, report and report text for the samples."""
    return cli_output_for_samples()
