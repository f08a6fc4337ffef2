#!/usr/bin/env bash
# Joins the shares' journals of deploy/slurm-array.sh into one PGN and one JSON report.
#SBATCH --job-name=scoresheet-merge
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
set -uo pipefail
run=$1
scoresheet merge "$run"/journals/share-*.jsonl --force -o "$run/out/games.pgn" --json "$run/out/report.json"
code=$?
(( code <= 2 )) || exit $code
