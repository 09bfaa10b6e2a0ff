"""libcont.plotting: what each figure shows, checked on the drawn artists (every special
point labelled once, no two labels overlapping, stable rows solid and unstable dashed, a
zoomed inset where points crowd), and that every figure can be saved."""
import itertools

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import libcont  # noqa: E402
from libcont import plotting  # noqa: E402


@pytest.fixture(scope="module")
def loading_curve():
    return libcont.continue_branch(libcont.system("two-body", contact="hertz"), "lambda", 1.0, 0.1)


@pytest.fixture(scope="module")
def response():
    return libcont.continue_branch(libcont.system("moving-base", d=-0.005), "omega", 0.5, 2.5)


def _texts(ax):
    return [t for t in ax.texts if t.get_text()]


def _label_names(axes):
    names = []
    for ax in axes:
        for t in _texts(ax):
            names += [s.strip() for s in t.get_text().split(",")]
    return names


def _overlaps(ax):
    renderer = ax.figure.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in _texts(ax)]
    return [(a, b) for a, b in itertools.combinations(range(len(boxes)), 2)
            if boxes[a].overlaps(boxes[b])]


def _all_axes(ax):
    return [ax] + [child for child in ax.child_axes]


def test_branch_labels_every_special_point_once_without_overlaps(response, tmp_path):
    ax = plotting.branch(response)
    ax.figure.savefig(tmp_path / "branch.png")
    names = _label_names(_all_axes(ax))
    assert sorted(names) == sorted(p.label for p in response.special_points)
    for a in _all_axes(ax):
        assert _overlaps(a) == []
    plt.close(ax.figure)


def test_stable_rows_solid_and_unstable_rows_dashed(response):
    ax = plotting.branch(response, points=False)
    stable = np.asarray(response["stable"], dtype=bool)
    x = np.asarray(response["omega"])
    solid = [line for line in ax.lines if line.get_linestyle() == "-"]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert solid and dashed
    drawn_solid = np.concatenate([line.get_xdata() for line in solid])
    drawn_dashed = np.concatenate([line.get_xdata() for line in dashed])
    # Every stable row is on a solid line and every unstable one on a dashed line.
    assert set(x[stable]) <= set(drawn_solid)
    assert set(x[~stable]) <= set(drawn_dashed)
    # Where the stability changes in a step with a special point in it, solid and dashed
    # change over at the point: no line joins the rows either side of it directly, and the
    # point ends a line of each style (as vicont's figure draws them).
    changes = [p for p in response.special_points
               if p.stable_after is not None and p.stable != p.stable_after]
    assert changes
    for p in changes:
        before, after = x[p.index], x[p.index + 1]
        for line in ax.lines:
            xs = list(line.get_xdata())
            assert not any(a == before and b == after for a, b in zip(xs, xs[1:])), p.label
        assert any(line.get_xdata()[-1] == p.parameter or line.get_xdata()[0] == p.parameter
                   for line in solid), p.label
        assert any(line.get_xdata()[-1] == p.parameter or line.get_xdata()[0] == p.parameter
                   for line in dashed), p.label
    plt.close(ax.figure)


def test_crowded_special_points_get_a_zoomed_inset(loading_curve, tmp_path):
    # The loading curve's five special points lie within 0.003 in lambda of 0.566.
    ax = plotting.branch(loading_curve)
    assert len(ax.child_axes) == 1
    inset = ax.child_axes[0]
    low, high = inset.get_xlim()
    assert high - low < 0.05 * np.ptp(loading_curve["lambda"])
    assert all(low <= p.parameter <= high for p in loading_curve.special_points)
    assert sorted(_label_names([inset])) == sorted(p.label for p in loading_curve.special_points)
    assert _label_names([ax]) == []
    assert _overlaps(inset) == []
    ax.figure.savefig(tmp_path / "loading.png")
    plt.close(ax.figure)


def test_several_branches_in_one_diagram_keep_their_labels_apart(response):
    doubled = response.switch("PD1", to=2.5)
    ax = plotting.branches([response, doubled])
    names = _label_names(_all_axes(ax))
    expected = [p.label for p in response.special_points] + ["2:" + p.label for p in doubled.special_points]
    assert sorted(names) == sorted(expected)
    plt.close(ax.figure)


def test_lyapunov_diagram_draws_every_exponent_and_the_zero_line(tmp_path):
    result = libcont.sweep(libcont.system("moving-base"), "omega", 2.0, 4.0, steps=9, transient=200, periods=200)
    ax = plotting.lyapunov_diagram(result, samples="x")
    exponent_lines = [line for line in ax.lines if line.get_label().startswith("lambda_")]
    assert len(exponent_lines) == result.exponents.shape[1]
    assert any(np.all(np.asarray(line.get_ydata()) == 0.0) for line in ax.lines)
    assert len(ax.figure.axes) == 2
    ax.figure.savefig(tmp_path / "lyapunov.png")
    plt.close(ax.figure)
    with pytest.raises(KeyError, match="no state coordinate 'y'"):
        plotting.lyapunov_diagram(result, samples="y")
    plt.close("all")


def test_basins_colour_each_attractor(tmp_path):
    result = libcont.basins(libcont.system("moving-base", omega=2.6), x=("x", 0.0, 0.02, 8),
                            y=("v", -0.03, 0.03, 8), transient=300)
    ax = plotting.basins(result)
    image = ax.images[0].get_array()
    assert image.shape[:2] == result.attractor.shape
    for k in range(len(result.attractors)):
        cells = result.attractor == k
        colours = image[cells].reshape(-1, image.shape[-1])
        assert np.all(colours == colours[0])
    ax.figure.savefig(tmp_path / "basins.png")
    plt.close(ax.figure)


def test_curves_and_trajectory_plots_save(response, tmp_path):
    curve = libcont.curve(response, "PD1", "d", -0.006, -0.004)
    ax = plotting.curves([curve])
    assert ax.get_xlabel() == "omega" and ax.get_ylabel() == "d"
    ax.figure.savefig(tmp_path / "curve.png")
    trajectory = libcont.simulate(libcont.system("moving-base"), t_end=20.0)
    for draw in (plotting.phase_portrait, plotting.time_series):
        ax = draw(trajectory)
        ax.figure.savefig(tmp_path / f"{draw.__name__}.png")
    plt.close("all")


def test_axis_labels_of_column_names():
    assert plotting.axis_label("A_max:x1") == "A_max(x1)"
    assert plotting.axis_label("mu1:abs") == "|mu1|"
    assert plotting.axis_label("omega") == "omega"
