"""The catalogue and parameters: values by keyword, validation with vicont's messages."""
import math
import pickle

import pytest

import libcont


def test_catalogue_lists_the_shipped_models(vicont, run_vicont):
    names = [name for name, _ in libcont.systems()]
    summary, _ = run_vicont("systems", out=False)
    assert names == [entry["name"] for entry in summary["systems"]]
    assert "moving-base" in names and "two-body" in names


def test_parameters_by_keyword():
    s = libcont.system("moving-base", omega=4, r=0.8)
    assert s["omega"] == 4.0 and s["r"] == 0.8
    assert s.parameters["omega"] == 4.0
    assert s.state_names == ["x", "v"]
    assert s.forcing_period == pytest.approx(2 * math.pi / 4)
    s.set(omega=5.0)
    assert s["omega"] == 5.0
    rows = {row["name"]: row for row in s.describe()}
    assert rows["r"]["rule"] == "in [0, 1]" and rows["omega"]["value"] == 5.0


def test_the_old_name_eta_is_accepted_with_a_warning():
    with pytest.warns(UserWarning, match="'eta' is called 'omega' now"):
        s = libcont.system("moving-base", eta=4.5)
    assert s["omega"] == 4.5
    with pytest.warns(UserWarning, match="'omega'"):
        branch = libcont.continue_branch(s, "eta", 4.5, 4.6)
    assert branch.parameter == "omega" and "omega" in branch.columns


def test_choice_parameters_take_words():
    s = libcont.system("two-body", contact="hertz")
    assert s["contact"] == "hertz"
    with pytest.raises(libcont.InputError, match="contact"):
        s.set(contact="glue")
    assert s["contact"] == "hertz"


def test_copy_and_pickle_keep_the_assignments():
    s = libcont.system("moving-base", omega=4.5)
    c = s.copy(r=0.5)
    assert c["omega"] == 4.5 and c["r"] == 0.5 and s["r"] != 0.5
    back = pickle.loads(pickle.dumps(s))
    assert back.parameters == s.parameters


@pytest.mark.parametrize("args, python", [
    (("--system", "nosuch"), lambda: libcont.system("nosuch")),
    (("--set", "nosuch=1"), lambda: libcont.system("moving-base", nosuch=1)),
    (("--set", "r=2"), lambda: libcont.system("moving-base", r=2)),
    (("--set", "omega=-1"), lambda: libcont.system("moving-base", omega=-1)),
])
def test_errors_carry_viconts_message(vicont_error, args, python):
    message = vicont_error("simulate", *args)
    with pytest.raises(libcont.InputError) as raised:
        python()
    assert isinstance(raised.value, ValueError)
    assert str(raised.value) in message


def test_nan_and_non_numbers_are_refused_by_name():
    with pytest.raises(libcont.InputError, match="omega"):
        libcont.system("moving-base", omega=float("nan"))
    with pytest.raises(libcont.InputError, match="omega"):
        libcont.system("moving-base", omega=[1, 2])
    with pytest.raises(KeyError, match="nosuch"):
        libcont.system("moving-base")["nosuch"]


@pytest.mark.parametrize("name", ["moving-base", "two-body", "cantilever-2dof"])
def test_describe_is_viconts_listing(run_vicont, name):
    summary, _ = run_vicont("systems", "--system", name, out=False)
    listed = summary["systems"][0]["parameters"]
    described = libcont.system(name).describe()
    assert [(p["name"], p["value"], p["rule"], p["description"], p["unit"]) for p in described] == \
        [(p["name"], p["value"], p["rule"], p["description"], p.get("unit", "")) for p in listed]
