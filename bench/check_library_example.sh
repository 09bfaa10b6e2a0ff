#!/bin/sh
# Checks that the models listed in doc/library.md are the compiled files verbatim: section 0
# lists examples/user_model/bouncing_ball.hpp and pendulum.hpp (built against the installed
# package in CI), section 2 lists bench/example_user_model.cpp (built with the benchmarks);
# section 9 lists the example of tests/test_orbit_branch.cpp (between its two marker
# comments, there indented by two spaces).
#   bench/check_library_example.sh    (from the repository root; exit 1 on a difference)
set -eu
root=$(dirname "$0")/..
# listing SECTION N: the N-th ```cpp block of the section "## SECTION."
listing() {
  awk -v section="$1" -v wanted="$2" '
    /^## / { inside = ($2 == section ".") }
    inside && /^```cpp$/ { count++; on = (count == wanted); next }
    on && /^```$/ { exit }
    on { print }' "$root/doc/library.md"
}
listing 0 1 | diff -u "$root/examples/user_model/bouncing_ball.hpp" -
listing 0 2 | diff -u "$root/examples/user_model/pendulum.hpp" -
listing 2 1 | diff -u "$root/bench/example_user_model.cpp" -
example=$(mktemp)
trap 'rm -f "$example"' EXIT
awk '/The example of doc\/library.md, section 9\./ { on = 1; next }
     on && /End of the example\./ { exit }
     on { sub(/^  /, ""); print }' "$root/tests/test_orbit_branch.cpp" >"$example"
[ -s "$example" ] || { echo "tests/test_orbit_branch.cpp: no example between its markers"; exit 1; }
listing 9 1 | diff -u "$example" -
echo "doc/library.md listings match examples/user_model, bench/example_user_model.cpp and" \
  "tests/test_orbit_branch.cpp"
