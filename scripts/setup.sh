#!/usr/bin/env bash
# One step for a fresh Debian 12 machine: install what is missing, configure and build
# libcont into build/ (Release, both cores; with MPI when OpenMPI is there).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# With OpenMPI present (install-deps.sh installs it) vicont is built with MPI, so that the
# suite also checks `mpirun -np 2 vicont sweep` against the serial run; run without
# mpirun, that vicont is an ordinary single process.
mpi=OFF
command -v mpicxx >/dev/null && command -v mpirun >/dev/null && mpi=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLIBCONT_WITH_MPI=$mpi >/dev/null
cmake --build build -j2
