"""Models without C++: a linear structure with unilateral contacts from a model file, from
the same description as a dict, or from its matrices (doc/models/model-files.md gives the
keys). The model runs on the same generated code as the catalogue's (affine modes on the
exact flow), exactly as vicont --model FILE runs it."""
import json
import os

from . import _core
from .system import System


def model_from_file(path, **parameters):
    """The model of the JSON model file at `path`, with `parameters` set."""
    return System(_core.System.from_model_file(os.fspath(path), parameters))


def model(description, name="model", **parameters):
    """The model of a description: a dict with the keys of a model file, or its JSON text;
    `name` names it in error messages."""
    text = description if isinstance(description, str) else json.dumps(description)
    return System(_core.System.from_model_text(text, name, parameters))


def _matrix(value):
    """A number, a nested sequence or an array (of numbers or expression strings) as JSON."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    return value


def LinearImpactSystem(M, C=None, K=None, forcing=None, contacts=(), *, parameters=None,
                       name="linear-impact-system", description="", **keys):
    """M q'' + C q' + K q = forcing + contact forces: the matrices (numbers or expressions
    over `parameters`, arrays or nested lists), forcing {"frequency", "constant", "cos",
    "sin"} and contacts as in a model file; `keys` adds any other model-file key
    (coordinates, initial_state, impact_model, derived, amplitudes)."""
    spec = {"name": name, "mass": _matrix(M)}
    if description:
        spec["description"] = description
    if parameters:
        spec["parameters"] = parameters
    if K is not None:
        spec["stiffness"] = _matrix(K)
    if C is not None:
        spec["damping"] = _matrix(C)
    if forcing:
        spec["forcing"] = {k: _matrix(v) for k, v in forcing.items()}
    spec["contacts"] = [dict(c) for c in contacts]
    spec.update({k: _matrix(v) for k, v in keys.items()})
    return model(spec, name=name)
