"""Times a batch read on a Dask LocalCluster of 1 worker process against 2 (one thread each) and
checks the PGN against the command line's.

    python python/bench_dask.py SHEETS_DIR CLI_PGN

SHEETS_DIR: synthetic sheets (`scoresheet synth --count 40 --out DIR`, JSON files removed);
CLI_PGN: `scoresheet read SHEETS_DIR -o CLI_PGN`. Each worker loads the model on a first game
before the clock starts.
"""

import os
import sys
import time

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # one core per worker process

from dask.distributed import Client, LocalCluster  # noqa: E402

from scoresheet.distributed import list_games, read_batch  # noqa: E402


def warm_up(game):
    """Reads one game, so that the worker has loaded the model before the clock starts."""
    import scoresheet

    scoresheet.read_raw(game[1], id=game[0])


def timed(workers: int, games):
    """Seconds to read `games` on `workers` worker processes, and the PGN."""
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            client.wait_for_workers(workers)
            addresses = list(client.scheduler_info()["workers"])
            client.gather([client.submit(warm_up, games[0], workers=[a], pure=False) for a in addresses])
            start = time.perf_counter()
            pgn, _ = read_batch(client, games)
            return time.perf_counter() - start, pgn


def main():
    sheets, cli_pgn = sys.argv[1], sys.argv[2]
    games = list_games([sheets])
    expected = open(cli_pgn).read()
    one, pgn_one = timed(1, games)
    two, pgn_two = timed(2, games)
    print(f"{len(games)} sheets: 1 worker {one:.1f} s, 2 workers {two:.1f} s, speed-up {one / two:.2f}x")
    print(f"PGN equal to the command line's: 1 worker {pgn_one == expected}, 2 workers {pgn_two == expected}")


if __name__ == "__main__":
    main()
