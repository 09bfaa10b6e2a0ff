#!/bin/sh
# scripts/doc_numbers.py catches what it is there to catch: a page with a stale number, a
# stale printed line, a missing figure, a listing not in its file or a failing command fails; --update repairs the
# number and the line; a true page passes.
# Usage: doc_numbers_check.sh VICONT PYTHON
set -eu
vicont=$1
python=$2
script=$(dirname "$0")/../scripts/doc_numbers.py
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

# the lines vicont prints at omega = 4 over 50 + 50 periods, one number in them stale
write_page() {
  cat > "$dir/page.md" <<EOF
<!-- run a: vicont lyapunov --set omega=4 --transient 50 --periods 50 --json --out a -->
<!-- run b: vicont lyapunov --set omega=4 --transient 50 --periods 50 --out a -->

The sum is $1<!-- number: a.stdout:exponent_sum --> and z has n = 2<!-- number: a/lyapunov.json:n -->.

<!-- output: b -->

    ...
    z = p/n     1/2
    a_i         $2 impacts per period
    ...
EOF
}

write_page -0.23 0.5
"$python" "$script" --vicont "$vicont" "$dir/page.md" > "$dir/log" || { cat "$dir/log"; fail "a true page failed"; }

write_page -0.24 0.5
if "$python" "$script" --vicont "$vicont" "$dir/page.md" > "$dir/log"; then fail "a stale number passed"; fi
grep -q "number a.stdout:exponent_sum is printed as -0.24, now -0.23" "$dir/log" || { cat "$dir/log"; fail "no message naming the stale number"; }

write_page -0.23 0.6
if "$python" "$script" --vicont "$vicont" "$dir/page.md" > "$dir/log"; then fail "a stale output line passed"; fi
grep -q "0.6 is now 0.5" "$dir/log" || { cat "$dir/log"; fail "no message naming the stale output"; }

write_page -0.24 0.6
"$python" "$script" --vicont "$vicont" --update "$dir/page.md" > "$dir/log" || true
grep -q "The sum is -0.23<!--" "$dir/page.md" || fail "--update did not rewrite the number"
grep -q "a_i         0.5 impacts per period" "$dir/page.md" || fail "--update did not rewrite the output line"
"$python" "$script" --vicont "$vicont" "$dir/page.md" > "$dir/log" || { cat "$dir/log"; fail "the updated page failed"; }

# a word of a printed line changed (as by a renamed parameter): fails; --update takes the
# most similar line of the output
write_page -0.23 0.5
sed -i 's/z = p\/n     1\/2/z = p\/q     1\/2/' "$dir/page.md"
if "$python" "$script" --vicont "$vicont" "$dir/page.md" > "$dir/log"; then fail "a changed word passed"; fi
"$python" "$script" --vicont "$vicont" --update "$dir/page.md" > "$dir/log" || true
grep -q "z = p/n     1/2" "$dir/page.md" || fail "--update did not take the similar line"
"$python" "$script" --vicont "$vicont" "$dir/page.md" > "$dir/log" || { cat "$dir/log"; fail "the updated page failed"; }

# a CSV file's cells chosen by a filter, a range "A-B" of two numbers
cat > "$dir/page.md" <<'EOF'
<!-- run s: vicont sweep --param omega --from 3 --to 4 --steps 3 --transient 20 --periods 20 --out s -->
From 3.00<!-- number: s/sweep.csv:{index=0}[0].omega -->-3.50<!-- number: "s/sweep.csv:{index=1,direction=fixed}[0].omega" -->.
EOF
"$python" "$script" --vicont "$vicont" "$dir/page.md" > "$dir/log" || { cat "$dir/log"; fail "a true CSV page failed"; }
sed -i 's/-3.50</-3.60</' "$dir/page.md"
if "$python" "$script" --vicont "$vicont" "$dir/page.md" > "$dir/log"; then fail "a stale CSV number passed"; fi
grep -q "is printed as 3.60, now 3.50" "$dir/log" || { cat "$dir/log"; fail "no message naming the stale CSV number"; }

# a failing command, a figure that is not there, a listing that is not in its file
cat > "$dir/page.md" <<'EOF'
<!-- run c: vicont lyapunov --set r=1.5 -->
![x](figures/none.png) <!-- figure: nowhere.png -->
<!-- listing: examples/user_model/pendulum.hpp -->
```cpp
class NoSuchPendulum {};
```
EOF
if "$python" "$script" --vicont "$vicont" "$dir/page.md" > "$dir/log"; then fail "a failing command passed"; fi
grep -q "run c exited with 2" "$dir/log" || { cat "$dir/log"; fail "no message naming the failing run"; }
grep -q "figure nowhere.png was not written" "$dir/log" || { cat "$dir/log"; fail "no message naming the missing figure"; }
grep -q "no longer a verbatim part of examples/user_model/pendulum.hpp" "$dir/log" || { cat "$dir/log"; fail "no message naming the listing"; }
echo "doc_numbers_check: ok"
