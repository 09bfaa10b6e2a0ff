#!/bin/sh
# The package as installed: `cmake --install BUILD --prefix PREFIX`, then libcont imports
# from PREFIX/lib/python3/dist-packages (the PYTHONPATH doc/python.md gives) and runs.
#   installed_package.sh CMAKE BUILD_DIR PYTHON
set -eu
cmake=$1 build=$2 python=$3
prefix=$build/python-install-check
rm -rf "$prefix"
"$cmake" --install "$build" --prefix "$prefix" >/dev/null
cd /
PYTHONPATH=$prefix/lib/python3/dist-packages "$python" - "$prefix" <<'PY'
import sys
import libcont
assert libcont.__file__.startswith(sys.argv[1]), libcont.__file__
orbit = libcont.orbit(libcont.system("moving-base", omega=4))
assert orbit.converged and orbit.z_text == "1/2", orbit
print("installed libcont", libcont.__version__, "at", libcont.__file__)
PY
rm -rf "$prefix"
