"""Times a batch read on a Dask LocalCluster of 1 worker process against 2 (one thread each) and
checks the PGN against the command line's.

    python python/bench_dask.py SHEETS_DIR CLI_PGN

SHEETS_DIR: synthetic sheets (`scoresheet-dev synth --count 40 --out DIR`, JSON files removed);
CLI_PGN: `scoresheet read SHEETS_DIR -o CLI_PGN`. Each worker loads the model on a first game
before the clock starts.
"""

import os
import resource
import sys
import time

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # one core per worker process

from dask.distributed import Client, LocalCluster  # noqa: E402

from scoresheet.distributed import list_games, read_batch  # noqa: E402


def warm_up(game):
    """Reads one game, so that the worker has loaded the model before the clock starts."""
    import scoresheet

    scoresheet.read_raw(game[1], id=game[0])


def cpu_seconds() -> float:
    """CPU time this process has used (user and system)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(workers: int, games):
    """Seconds to read `games` on `workers` worker processes, the workers' CPU seconds over
    that time, and the PGN."""
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            client.wait_for_workers(workers)
            addresses = list(client.scheduler_info()["workers"])
            client.gather([client.submit(warm_up, games[0], workers=[a], pure=False) for a in addresses])
            cpu_before = sum(client.run(cpu_seconds).values())
            start = time.perf_counter()
            pgn, _ = read_batch(client, games)
            wall = time.perf_counter() - start
            cpu = sum(client.run(cpu_seconds).values()) - cpu_before
            return wall, cpu, pgn


def main():
    sheets, cli_pgn = sys.argv[1], sys.argv[2]
    games = list_games([sheets])
    expected = open(cli_pgn).read()
    load_before = os.getloadavg()[0]
    one, one_cpu, pgn_one = timed(1, games)
    two, two_cpu, pgn_two = timed(2, games)
    print(f"{len(games)} sheets: 1 worker {one:.1f} s ({one_cpu:.1f} CPU s), "
          f"2 workers {two:.1f} s ({two_cpu:.1f} CPU s), speed-up {one / two:.2f}x")
    print(f"PGN equal to the command line's: 1 worker {pgn_one == expected}, 2 workers {pgn_two == expected}")
    print(f"load average (1 min) before {load_before:.2f}, after {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
