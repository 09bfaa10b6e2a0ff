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
# A unity build (the sources of a target compiled eight to a translation unit) compiles
# the header-heavy code once per batch instead of once per file: about a third less
# compile time on a fresh build (doc/testing.md, "Build time").
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLIBCONT_WITH_MPI=$mpi -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build build -j2
