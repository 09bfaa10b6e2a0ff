"""The Python module's overhead on the benchmark jobs (doc/performance.md): the same two jobs
through `libcont` and through the library from C++ (bench_library_jobs), paired in one run,
the best process CPU time of each side over `repeats` runs, and the ratio. The checksums (sum
of the special points' lambda; sum of all exponents) must agree: both sides did the same work.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py build/bench_library_jobs [repeats]

Not a test: it prints numbers and asserts nothing but the checksums.
"""
import subprocess
import sys
import time

import libcont


def loading_curve():
    branch = libcont.continue_branch(libcont.system("two-body", contact="hertz"), "lambda", 1.0, 0.1)
    return sum(p.parameter for p in branch.special_points)


def lyapunov_diagram():
    result = libcont.sweep(libcont.system("moving-base"), "omega", 2.0, 10.0, steps=9)
    return float(result.exponents.sum())


JOBS = {"loading-curve": loading_curve, "lyapunov-diagram": lyapunov_diagram}


def best_cpu(job, repeats):
    best, checksum = float("inf"), None
    for _ in range(repeats):
        start = time.process_time()
        checksum = job()
        best = min(best, time.process_time() - start)
    return best, checksum


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: python_overhead.py BENCH_LIBRARY_JOBS [repeats]")
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    done = subprocess.run([sys.argv[1], str(repeats)], capture_output=True, text=True, check=True)
    library = {}
    for line in done.stdout.splitlines():
        name, seconds, checksum = line.split()
        library[name] = (float(seconds), float(checksum))
    print(f"{'job':18s} {'C++ CPU s':>10s} {'Python CPU s':>13s} {'Python/C++':>11s}  checksums")
    for name, job in JOBS.items():
        seconds, checksum = best_cpu(job, repeats)
        cpp_seconds, cpp_checksum = library[name]
        same = abs(checksum - cpp_checksum) <= 1e-12 * max(1.0, abs(cpp_checksum))
        print(f"{name:18s} {cpp_seconds:10.4f} {seconds:13.4f} {seconds / cpp_seconds:11.3f}  "
              f"{'equal' if same else f'DIFFER: {checksum!r} vs {cpp_checksum!r}'}")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
