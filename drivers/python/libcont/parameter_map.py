"""libcont.parameter_map: the bifurcation curves of the orbits z = p/n in a box of two
parameters."""
from . import _core
from ._tables import number, progress_argument
from .branch import Branch
from .curve import OrbitCurve
from .system import core_of


class ParameterMap:
    """curves: every curve piece traced (OrbitCurve, each with .branch_index,
    .special_point_index and .direction: where it started and which way in p2); branches:
    the seed branches (Branch, each with .second, its line's p2, and .seed, the p1 it was
    found at); notes; searches and orbits_found; stopped (by the progress callback)."""

    def __init__(self, data):
        self.first = data["first"]
        self.second = data["second"]
        self.box = tuple(data["box"])
        self.notes = list(data["notes"])
        self.searches = data["searches"]
        self.orbits_found = data["orbits_found"]
        self.stopped = data["stopped"]
        self.branches = []
        for piece in data["branches"]:
            branch = Branch(piece["run"])
            branch.second, branch.seed = piece["second"], piece["seed"]
            self.branches.append(branch)
        self.curves = []
        for piece in data["curves"]:
            c = OrbitCurve(piece["run"])
            c.branch_index = piece["branch"]
            c.special_point_index = piece["special_point"]
            c.direction = piece["direction"]
            self.curves.append(c)

    def __repr__(self):
        kinds = {}
        for c in self.curves:
            kinds[c.kind] = kinds.get(c.kind, 0) + 1
        counted = ", ".join(f"{n} {k}" for k, n in kinds.items()) or "none"
        points = sum(len(c.points) for c in self.curves)
        a, b, c2, d = self.box
        return (f"ParameterMap in {self.first} [{number(a)}, {number(b)}] x {self.second} "
                f"[{number(c2)}, {number(d)}]: {len(self.branches)} branches, {len(self.curves)} "
                f"curve pieces ({counted}), {points} codimension-two points, "
                f"{len(self.notes)} notes{' (stopped)' if self.stopped else ''}")


def parameter_map(system, first, first_min, first_max, second, second_min, second_max, *,
                  max_period=5, max_impacts=20, lines=3, seeds=12, transient=300, max_points=500,
                  initial_states=None, integrator="auto", progress=None):
    """The map of the box [first_min, first_max] x [second_min, second_max], as vicont map
    (without its brute-force grid: libcont.sweep with second=... draws that): orbits with
    n <= max_period found by `seeds` searches on each of `lines` lines p2 = const, their
    branches in `first`, and every curve of their special points traced across the box."""
    arguments = _core.MapArguments(max_period, max_impacts, lines, seeds, transient, max_points,
                                   initial_states, integrator)
    return ParameterMap(_core.parameter_map(core_of(system), first, first_min, first_max, second,
                                            second_min, second_max, arguments,
                                            progress_argument(progress)))
