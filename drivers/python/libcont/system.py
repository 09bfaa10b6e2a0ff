"""The catalogue's models by name, with their named and validated parameters."""
from . import _core
from ._tables import number


def systems():
    """The catalogue: a list of (name, description)."""
    return [tuple(entry) for entry in _core.systems()]


class System:
    """A catalogue model with its parameters.

    Parameters are given and changed by keyword (numbers, or words for a choice such as
    contact="hertz"), validated by the model with the message vicont prints for --set.
    """

    def __init__(self, name, **parameters):
        self._core = name if isinstance(name, _core.System) else _core.System(name, parameters)

    @property
    def name(self):
        return self._core.name

    @property
    def parameters(self):
        """{name: value}; a choice's value is its word, an unset optional one None."""
        return self._core.parameters

    def describe(self):
        """One dict per parameter: name, value, rule, description, required, optional."""
        return self._core.describe()

    def set(self, **parameters):
        """Sets parameters (all or none: on an error nothing changes). Returns self."""
        self._core.set(parameters)
        return self

    def copy(self, **parameters):
        """A copy, with the given parameters set on it."""
        return System(self._core.with_parameters(parameters))

    def __getitem__(self, name):
        return self._core[name]

    def __contains__(self, name):
        return name in self._core

    @property
    def state_names(self):
        return list(self._core.state_names)

    @property
    def dimension(self):
        return self._core.dimension

    @property
    def mode_names(self):
        return list(self._core.mode_names)

    @property
    def forcing_period(self):
        """T = 2 pi / omega of the forcing; 0 for an autonomous system."""
        return self._core.forcing_period

    @property
    def default_state(self):
        return self._core.default_state

    def __reduce__(self):
        return (System, (self._core,))

    def __repr__(self):
        values = ", ".join(
            f"{name}={value!r}" if isinstance(value, str) or value is None else f"{name}={number(value)}"
            for name, value in self.parameters.items())
        return f"System('{self.name}', {values})"


def system(name, **parameters):
    """The catalogue model `name` with `parameters` set, e.g. system("moving-base", omega=4)."""
    return System(name, **parameters)


def core_of(s):
    """The compiled system of a System (TypeError for anything else)."""
    if not isinstance(s, System):
        raise TypeError(f"expected a libcont.System (libcont.system(name, ...)), got {type(s).__name__}")
    return s._core
