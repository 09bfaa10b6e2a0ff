"""libcont: continuation, bifurcation and Lyapunov analysis of vibro-impact systems.

The catalogue's models by name, and the analyses of vicont as functions returning result
objects with numpy arrays (doc/python.md):

    import libcont
    s = libcont.system("moving-base", omega=4)
    br = libcont.continue_branch(s, "omega", 4.0, 4.7)
    print(br.special_points)

Every function takes the same options, with the same defaults, as the vicont command of
the same name, and gives the same numbers. Bad input raises libcont.InputError (a
ValueError) naming the bad item; a long call can be interrupted with Ctrl-C, and reports
its progress to an optional callable `progress(dict)`, called on the calling thread:

    simulate         t, fraction (of the time span)
    continue_branch  points, special_points, parameter (at the last row), section_moves
    (and restarts, switches)
    sweep            points (done), total, parameter (of the last point done)
    diagram          points (integration grid values passed), total
    basins           cells (started), total
    parameter_map    lines_done, lines, branches, curves

An exception raised by the callback ends the call and propagates. lyapunov, orbit and curve
report nothing; Ctrl-C ends them within an integration step (the flow checks it).
Models without C++: model_from_file(path), model(dict) and LinearImpactSystem(M, C, K, ...)
give systems that every analysis takes (doc/models/model-files.md).
"""
from . import _core
from ._core import InputError
from .system import System, system, systems
from .model import LinearImpactSystem, model, model_from_file
from .trajectory import Events, Trajectory, simulate
from .lyapunov import LyapunovResult, lyapunov
from .orbit import OrbitResult, orbit
from .branch import Branch, SpecialPoint, continue_branch
from .curve import CurvePoint, OrbitCurve, curve
from .parameter_map import ParameterMap, parameter_map
from .sweep import SweepResult, sweep
from .diagram import DiagramBranch, DiagramResult, diagram
from .basins import BasinsResult, basins
from .impact import ImpactResult, impact

__version__ = _core.__version__

__all__ = [
    "InputError", "System", "system", "systems", "LinearImpactSystem", "model", "model_from_file",
    "Events", "Trajectory", "simulate",
    "LyapunovResult", "lyapunov", "OrbitResult", "orbit", "Branch", "SpecialPoint",
    "continue_branch", "CurvePoint", "OrbitCurve", "curve", "ParameterMap", "parameter_map",
    "SweepResult", "sweep", "DiagramBranch", "DiagramResult", "diagram", "BasinsResult", "basins", "ImpactResult", "impact",
]

# Plotting helpers on matplotlib, where that module and matplotlib are there.
try:
    from . import plotting  # noqa: F401
except ImportError:
    pass
