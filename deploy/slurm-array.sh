#!/usr/bin/env bash
# A batch read as a Slurm job array: task K of 1..N reads share K of N into its own journal;
# a task that is requeued or rerun resumes from its journal. The merge runs after every task
# has finished:
#
#   jobid=$(sbatch --parsable deploy/slurm-array.sh /archive/scans /archive/run)
#   sbatch --dependency=afterany:$jobid deploy/slurm-merge.sh /archive/run
#
#SBATCH --job-name=scoresheet-read
#SBATCH --array=1-8
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --requeue
set -uo pipefail
scans=$1
run=$2
shares=${SLURM_ARRAY_TASK_COUNT:-8}
share=$SLURM_ARRAY_TASK_ID
mkdir -p "$run/journals" "$run/out"
scoresheet read "$scans" --shard "$share/$shares" --journal "$run/journals/share-$share.jsonl" \
    -o "$run/out/share-$share.pgn" --jobs "${SLURM_CPUS_PER_TASK:-2}"
code=$?
# Exit 2: some files could not be read (they are in the journal's errors); the share is done.
(( code <= 2 )) || exit $code
