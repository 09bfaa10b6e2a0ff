"""Models without C++ from Python: a model file, the same description as a dict, and a
structure from its matrices; the moving-base file gives the catalogue model's numbers."""
import json
import pathlib
import pickle

import numpy as np
import pytest

import libcont

MODELS = pathlib.Path(__file__).resolve().parents[2] / "examples" / "models"


def test_model_file_gives_the_catalogues_branch():
    path = MODELS / "moving_base.json"
    if not path.exists():
        pytest.skip("no example model files")
    from_file = libcont.continue_branch(libcont.model_from_file(path, omega=4), "omega", 4.0, 4.7)
    built_in = libcont.continue_branch(libcont.system("moving-base", omega=4), "omega", 4.0, 4.7)
    assert [(p.label, p.parameter) for p in from_file.special_points] == \
        [(p.label, p.parameter) for p in built_in.special_points]
    assert np.array_equal(from_file["x"], built_in["x"])
    # The same description as a dict, and a copy through pickle, are the same model.
    as_dict = libcont.model(json.loads(path.read_text()), omega=4)
    assert as_dict.parameters == built_in.system.parameters
    assert pickle.loads(pickle.dumps(as_dict)).parameters == as_dict.parameters


def test_structure_from_matrices():
    # m x'' + c x' + k x = a sin(omega t), a stop at d below: the impacting oscillator with
    # Newton restitution r; its period-one orbit with one impact a period.
    s = libcont.LinearImpactSystem(
        M=np.array([[1.0]]), C=[["c"]], K=[[1.0]],
        forcing={"frequency": "omega", "sin": ["a"]},
        contacts=[{"name": "stop", "normal": [1], "surface": "d", "law": "hard",
                   "restitution": "r"}],
        parameters={"omega": {"default": 2.0, "rule": "positive"}, "c": 0.1, "a": 0.5,
                    "d": -0.1, "r": 0.8})
    assert s.state_names == ["x", "v"] and s["omega"] == 2.0
    orbit = libcont.orbit(s.copy(omega=1.5))
    assert orbit.converged and orbit.measures["impacts"] >= 1
    assert orbit.x[:, 0].min() >= -0.1 - 1e-9  # never through the stop


def test_bad_descriptions_name_the_item():
    with pytest.raises(libcont.InputError, match="nosuch"):
        libcont.model({"mass": [[1.0]], "nosuch": 1})
    with pytest.raises(libcont.InputError, match="contacts\\[0\\].law"):
        libcont.LinearImpactSystem(M=[[1.0]], contacts=[{"normal": [1], "law": "glue"}])
    with pytest.raises(libcont.InputError, match="nonexistent"):
        libcont.model_from_file("/nonexistent/model.json")
