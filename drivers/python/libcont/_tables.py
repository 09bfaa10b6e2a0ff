"""What the column-shaped results share: columns by name, a length, and pandas."""
import numpy as np


def data_frame(columns):
    """A pandas DataFrame of equal-length columns; ImportError if pandas is missing."""
    try:
        import pandas
    except ImportError as error:
        raise ImportError("to_pandas() needs pandas (python3-pandas), which is not installed") from error
    return pandas.DataFrame({name: np.asarray(values) for name, values in columns.items()})


class ColumnTable:
    """Columns of equal length by name: result[name], len(result), to_pandas()."""

    columns = {}

    def __getitem__(self, name):
        try:
            return self.columns[name]
        except KeyError:
            raise KeyError(f"no column '{name}' (columns: {', '.join(self.columns)})") from None

    def __contains__(self, name):
        return name in self.columns

    def __len__(self):
        for values in self.columns.values():
            return len(values)
        return 0

    def to_pandas(self):
        return data_frame(self.columns)


def number(value, digits=10):
    """A number as the summaries print it."""
    if isinstance(value, complex) or np.iscomplexobj(value):
        value = complex(value)
        if value.imag == 0:
            return f"{value.real:.{digits}g}"
        return f"{value.real:.{digits}g}{'-' if value.imag < 0 else '+'}{abs(value.imag):.{digits}g}i"
    return f"{float(value):.{digits}g}"


def numbers(values, digits=6, limit=8):
    shown = ", ".join(number(v, digits) for v in list(values)[:limit])
    return shown + (", ..." if len(values) > limit else "")


def progress_argument(progress):
    if progress is not None and not callable(progress):
        raise TypeError("progress must be a callable taking one dict, or None")
    return progress
