"""A batch read on a Dask cluster of two worker processes gives the command line's outputs."""

import pytest

distributed = pytest.importorskip("distributed")

from scoresheet.distributed import list_games, read_batch  # noqa: E402

from conftest import SAMPLES  # noqa: E402


def test_two_workers_give_the_command_lines_pgn_and_report(cli_samples):
    pgn, _, report_text = cli_samples
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            got_pgn, got_report = read_batch(client, list_games([str(SAMPLES)]))
    assert got_pgn == pgn
    assert got_report == report_text
