#!/bin/sh
# Checks that the model listed in doc/library.md, section 2, is bench/example_user_model.cpp
# verbatim (that file is compiled with the benchmarks, so the listing is known to build).
#   bench/check_library_example.sh    (from the repository root; exit 1 on a difference)
set -eu
root=$(dirname "$0")/..
awk '/^## 2\./ {in2 = 1} in2 && /^```cpp$/ {on = 1; next} on && /^```$/ {exit} on {print}' \
  "$root/doc/library.md" | diff -u "$root/bench/example_user_model.cpp" - &&
  echo "doc/library.md listing matches bench/example_user_model.cpp"
