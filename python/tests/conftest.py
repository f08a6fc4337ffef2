"""Shared fixtures: the repository's samples and the `scoresheet` command line built by cargo."""

import json
import os
import pathlib
import subprocess

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


def read_with_cli(inputs, out_dir: pathlib.Path):
    """`scoresheet read` over `inputs`: its PGN text and parsed JSON report, and the report's text."""
    pgn, report = out_dir / "cli.pgn", out_dir / "cli.json"
    run = subprocess.run(
        [str(scoresheet_bin()), "read", *map(str, inputs), "-o", str(pgn), "--json", str(report), "--force"],
        capture_output=True,
        text=True,
    )
    assert run.returncode in (0, 2), run.stderr
    text = report.read_text()
    return pgn.read_text(), json.loads(text), text


@pytest.fixture(scope="session")
def samples():
    """The sample sheets, in the order `scoresheet read samples/hcs` lists them."""
    return sorted(str(p) for p in SAMPLES.iterdir() if p.suffix.lower() in (".jpg", ".png"))


@pytest.fixture(scope="session")
def cli_samples(samples, tmp_path_factory):
    """The command line's PGN, report and report text for the samples."""
    return read_with_cli([SAMPLES], tmp_path_factory.mktemp("cli"))
