#!/bin/sh
# The installed package (README.md, "Installing and using the package"): cmake --install
# of the build into a scratch prefix, then the out-of-tree program examples/user_model
#  (a) configured with find_package(libcont) against that prefix, built and run;
#  (b) compiled and linked with a plain `c++ -std=c++20` and `pkg-config --cflags --libs
#      libcont` against the same prefix, and run; every installed header is compiled
#      there too, so none may need a file that is not installed (libcont/src);
# and the installed vicont --version. Each run must exit 0 and print the orbit line.
# About 5 s (two compilations of the example, one of all the installed headers).
# Usage: install_package.sh BUILD_DIR SOURCE_DIR [CMAKE] [CXX]
set -u
build=${1:?usage: install_package.sh BUILD_DIR SOURCE_DIR [CMAKE] [CXX]}
source=${2:?usage: install_package.sh BUILD_DIR SOURCE_DIR [CMAKE] [CXX]}
cmake=${3:-cmake}
cxx=${4:-c++}
cli_name=install
. "$(dirname "$0")/cli_helpers.sh"

# run_user_model PROGRAM WHAT: it must exit 0 and print the orbit line of both models.
run_user_model() {
  out="$work/$(basename "$1").out"
  "$1" >"$out" 2>&1
  status=$?
  if [ "$status" -ne 0 ]; then
    fail "$2 exited with status $status: $(cat "$out")"
    return
  fi
  for model in bouncing-ball impact-pendulum; do
    if ! grep -q "^libcont [0-9][0-9.]*, $model: z = 1/1 orbit at " "$out"; then
      fail "$2: no orbit line of $model in its output:"
      sed 's/^/    /' "$out"
    fi
  done
}

prefix="$work/prefix"
if ! "$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1; then
  cat "$work/install.log"
  echo "FAIL: cmake --install $build"
  exit 1
fi
for file in bin/vicont include/libcont/flow.hpp include/libcont/version.hpp \
            include/systems/catalogue.hpp; do
  [ -f "$prefix/$file" ] || fail "$file not installed"
done
for name in libcont.a libcont_systems.a libcontConfig.cmake libcontConfigVersion.cmake \
            libcontTargets.cmake libcont.pc; do
  [ -n "$(find "$prefix" -name "$name")" ] || fail "$name not installed"
done
if ls "$prefix"/include/libcont/*.in "$prefix"/include/libcont/*.cpp >/dev/null 2>&1; then
  fail "sources or templates installed among the headers"
fi

# vicont from the prefix prints the version the package declares.
version=$(sed -n 's/^#define LIBCONT_VERSION "\(.*\)"$/\1/p' "$prefix/include/libcont/version.hpp")
[ -n "$version" ] || fail "no LIBCONT_VERSION in the installed version.hpp"
if [ "$("$prefix/bin/vicont" --version 2>&1)" != "vicont $version" ]; then
  fail "installed vicont --version: '$("$prefix/bin/vicont" --version 2>&1)', expected 'vicont $version'"
fi

# (a) find_package(libcont) from a separate project.
if "$cmake" -S "$source/examples/user_model" -B "$work/cmake-build" \
     -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake.log" 2>&1 &&
   "$cmake" --build "$work/cmake-build" >>"$work/cmake.log" 2>&1; then
  run_user_model "$work/cmake-build/user_model" "user_model built with find_package"
else
  tail -30 "$work/cmake.log"
  fail "examples/user_model did not configure or build with find_package(libcont)"
fi

# (b) pkg-config and a plain compiler command.
pc=$(find "$prefix" -name libcont.pc | head -n 1)
if ! command -v pkg-config >/dev/null 2>&1; then
  fail "pkg-config is missing (scripts/install-deps.sh installs it)"
elif [ -n "$pc" ]; then
  flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs libcont)
  if [ "$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --modversion libcont)" != "$version" ]; then
    fail "pkg-config --modversion libcont is not $version"
  fi
  for header in "$prefix"/include/libcont/*.hpp "$prefix"/include/systems/*.hpp; do
    echo "#include \"${header#"$prefix/include/"}\""
  done >"$work/all_headers.cpp"
  # shellcheck disable=SC2086 # the flags are words
  if ! "$cxx" -std=c++20 -fsyntax-only "$work/all_headers.cpp" $flags >"$work/headers.log" 2>&1; then
    tail -30 "$work/headers.log"
    fail "the installed headers do not compile on their own (with pkg-config's flags)"
  fi
  # shellcheck disable=SC2086 # the flags are words
  if "$cxx" -std=c++20 -O2 "$source/examples/user_model/user_model.cpp" $flags \
       -o "$work/user_model_pc" >"$work/pc.log" 2>&1; then
    run_user_model "$work/user_model_pc" "user_model built with pkg-config"
  else
    tail -30 "$work/pc.log"
    fail "user_model.cpp did not compile and link with: $cxx -std=c++20 ... $flags"
  fi
fi

finish install_package
