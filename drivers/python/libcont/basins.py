"""libcont.basins: basins of attraction over a grid of two initial coordinates."""
from . import _core
from ._tables import number, progress_argument
from .system import core_of


class BasinsResult:
    """x, y: the grid's values (x_name, y_name the coordinates); attractor (len(y), len(x)):
    each cell's attractor index into `attractors` (-1 not periodic, -2 failed); p, n of each
    cell; settled_after: the periods each cell took past the transient to settle;
    attractors: dicts with p, n, points (its n section points) and cells; settling: the
    non-periodic cells still settling when settle_periods ran out."""

    NON_PERIODIC = -1
    FAILED = -2

    def __init__(self, data):
        self.x_name = data["x_name"]
        self.y_name = data["y_name"]
        self.x = data["x"]
        self.y = data["y"]
        self.attractor = data["attractor"]
        self.p = data["p"]
        self.n = data["n"]
        self.settled_after = data["settled_after"]
        self.status = list(data["status"])
        self.final_states = data["final_states"]
        self.attractors = [dict(a) for a in data["attractors"]]
        self.non_periodic = data["non_periodic"]
        self.settling = data["settling"]
        self.failed = data["failed"]
        self.state_names = list(data["state_names"])

    def __repr__(self):
        found = ", ".join(f"z = {a['p']}/{a['n']} ({a['cells']} cells)" for a in self.attractors)
        return (f"BasinsResult over {self.x_name} [{number(self.x[0])}, {number(self.x[-1])}] x "
                f"{self.y_name} [{number(self.y[0])}, {number(self.y[-1])}], "
                f"{self.attractor.size} cells: {found or 'no periodic attractor'}; "
                f"{self.non_periodic} not periodic, {self.failed} failed")


def basins(system, x, y, *, transient=500, max_period=16, settle_periods=10000, threads=1,
           base_state=None, integrator="auto", progress=None):
    """The basins of vicont basins: x=(name, from, to, steps) and y=(...) the grid of two
    state coordinates (the others from base_state, default the model's initial state),
    each cell's motion classified after `transient` periods by its z = p/n and attractor;
    a cell still settling onto a weakly stable orbit is integrated up to `settle_periods`
    periods more (vicont basins --settle-periods)."""
    return BasinsResult(_core.basins(core_of(system), tuple(x), tuple(y), transient, max_period,
                                     settle_periods, threads, base_state, integrator,
                                     progress_argument(progress)))
