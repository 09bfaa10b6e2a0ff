"""libcont from Python, step by step (doc/python.md): a loading curve, a frequency-response
curve with its grazing, period-doubling and fold points, a Lyapunov diagram, basins of
attraction, and a model of one's own from a file. Each step writes its figure.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/tutorial.py [OUT_DIR]

Written as notebook cells (# %%): each cell runs on its own in Jupyter or VS Code after
the first. OUT_DIR defaults to out/python_tutorial.
"""
# %% Set-up: the module, matplotlib without a display, the output directory
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import libcont  # noqa: E402
from libcont import plotting  # noqa: E402

out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "out/python_tutorial")
out.mkdir(parents=True, exist_ok=True)
repository = pathlib.Path(__file__).resolve().parents[2]


def save(ax, name):
    """Writes the axes' figure as PNG and closes it; returns the file."""
    file = out / f"{name}.png"
    ax.figure.savefig(file, dpi=120)
    plt.close(ax.figure)
    print(f"  figure: {file}")
    return file


# %% 1. A loading curve: amplitude against the forcing intensity lambda
# The two-body system with Hertz contact, its periodic orbit at lambda = 1 followed down to
# lambda = 0.1. The special points are located on the way: folds (LP), Neimark-Sacker
# points (NS), grazings (GR).
two_body = libcont.system("two-body", contact="hertz")
loading = libcont.continue_branch(two_body, "lambda", 1.0, 0.1)
print(loading)
save(plotting.branch(loading), "loading_curve")

# %% 2. A frequency-response curve through grazing, with its doubled branch
# The moving-base oscillator with the base 0.005 below the mass at rest: for small omega the
# mass does not reach it; the branch grazes (GR1), impacts, loses stability at a period
# doubling (PD1) and turns at a fold (LP1). At PD1 the doubled (n = 2) branch is switched
# onto; both are drawn in one diagram.
base = libcont.system("moving-base", d=-0.005)
response = libcont.continue_branch(base, "omega", 0.5, 2.5)
print(response)
for p in response.special_points:
    print(f"  {p.label:4s} {p.type:16s} omega = {p.parameter:.10f}")
doubled = response.switch("PD1", to=2.5)
print(doubled)
save(plotting.branches([response, doubled]), "frequency_response")

# %% 3. A Lyapunov diagram: the sources' sweep of omega from 2 to 10
# At each omega a transient, then the Lyapunov spectrum by Mueller's method (saltation at
# every impact) and the motion's z = p/n; the upper panel shows the kept Poincare samples.
diagram = libcont.sweep(libcont.system("moving-base"), "omega", 2.0, 10.0, steps=161, threads=2)
print(diagram)
save(plotting.lyapunov_diagram(diagram, samples="x"), "lyapunov_diagram")

# %% 4. Basins of attraction where two orbits coexist
# At omega = 2.6 the z = 1/1 orbit is still stable and another attractor coexists with it
# (doc/maps.md): which one a start (x, v) reaches.
coexisting = libcont.system("moving-base", omega=2.6)
basin = libcont.basins(coexisting, x=("x", 0.0, 0.02, 40), y=("v", -0.03, 0.03, 40), threads=2)
print(basin)
save(plotting.basins(basin), "basins")

# %% 5. A model of one's own, from a file
# The moving-base oscillator written as a model file (examples/models/moving_base.json:
# mass, stiffness, damping, forcing and the contact with the moving base). It runs on the
# same exact flow as the built-in model and gives the same orbit.
model_file = repository / "examples" / "models" / "moving_base.json"
own = libcont.model_from_file(model_file)
own.set(omega=4.0)
orbit = libcont.orbit(own)
print(orbit)
trajectory = libcont.simulate(own, t_end=10 * own.forcing_period)
save(plotting.phase_portrait(trajectory), "own_model_phase_portrait")
