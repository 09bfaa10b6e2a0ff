#!/bin/sh
# vicont sweep over MPI ranks (LIBCONT_WITH_MPI): `mpirun -np 2 --oversubscribe` writes
# the same files as one process, for fixed starts (points spread over the ranks) and for
# following the attractor (chains spread over the ranks, threads within each rank), of
# one parameter and over a grid of two (--param2: cells, or rows as chains, over the ranks);
# the checkpoint the ranks wrote resumes in one process.
# Usage: cli_sweep_mpi.sh /path/to/vicont /path/to/mpirun
set -u
vicont=${1:?usage: cli_sweep_mpi.sh /path/to/vicont /path/to/mpirun}
mpirun=${2:?usage: cli_sweep_mpi.sh /path/to/vicont /path/to/mpirun}
cli_name=cli-sweep-mpi
. "$(dirname "$0")/cli_helpers.sh"

# CI runs as root, which OpenMPI refuses unless told; no effect for other users.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
. "$(dirname "$0")/sweep_files.sh"

# compare NAME ARGS...: the sweep alone and on two ranks write the same files.
compare() {
  name=$1
  shift
  "$vicont" sweep "$@" --out "$work/$name-serial" >"$work/serial.txt" 2>&1 ||
    fail "$name: serial run, exit status $? ($(cat "$work/serial.txt"))"
  "$mpirun" -np 2 --oversubscribe "$vicont" sweep "$@" --out "$work/$name-mpi" --json \
    >"$work/mpi.json" 2>"$work/mpi.err" ||
    fail "$name: mpirun -np 2, exit status $? ($(cat "$work/mpi.err"))"
  grep -q '"processes": 2' "$work/mpi.json" || fail "$name: the run did not use 2 MPI ranks"
  same_sweep_files "$work/$name-serial" "$work/$name-mpi" "$name"
}

compare fixed --param omega --from 2.4 --to 3.4 --steps 13 --transient 100 --periods 100 --samples 20
# The two ranks' checkpoint files (rank-0000.points, rank-0001.points) resume in one
# process: every point is read back, none computed, the files the same.
"$vicont" sweep --param omega --from 2.4 --to 3.4 --steps 13 --transient 100 --periods 100 \
  --samples 20 --resume --out "$work/fixed-mpi" --json >"$work/resumed.json" 2>"$work/resumed.err" ||
  fail "resume of the 2-rank checkpoint: exit status $? ($(cat "$work/resumed.err"))"
[ -f "$work/fixed-mpi/points/rank-0001.points" ] || fail "rank 1 wrote no checkpoint file"
grep -q '"computed": 0,' "$work/resumed.json" || fail "resume of the 2-rank checkpoint computed points"
same_sweep_files "$work/fixed-serial" "$work/fixed-mpi" "2-rank checkpoint resumed in one process"
compare follow --param omega --from 2.4 --to 3.4 --steps 8 --follow --direction both \
  --initial-states '0,0;0.004,0' --threads 2 --transient 100 --periods 100 --samples 20
compare grid-fixed --param omega --from 2.4 --to 3.4 --steps 5 --param2 r --from2 0.8 --to2 1 \
  --steps2 3 --transient 100 --periods 100 --samples 5
compare grid-follow --param omega --from 2.4 --to 3.4 --steps 5 --param2 r --from2 0.8 --to2 1 \
  --steps2 3 --follow --direction both --threads 2 --transient 100 --periods 100 --samples 5

finish "sweep over MPI (mpirun -np 2 equals the serial run)"
