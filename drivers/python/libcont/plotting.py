"""Plots of libcont's results on matplotlib: branch diagrams with stability and special
points, two-parameter curves and maps, Lyapunov diagrams, basins, phase portraits and time
series. Each function draws into `ax` (a new figure's axes if None) and returns the axes,
so that figures can be composed and saved as the caller likes:

    import matplotlib.pyplot as plt
    from libcont import plotting
    ax = plotting.branch(br, "A_max:x")
    ax.figure.savefig("branch.png", dpi=150)
"""
import numpy as np

import matplotlib.pyplot as plt
from matplotlib.lines import Line2D

from . import _core

# One marker and colour per special-point or codimension-two type; others get the default.
_POINT_STYLE = {
    "fold": ("s", "tab:red"),
    "period-doubling": ("D", "tab:blue"),
    "neimark-sacker": ("^", "tab:green"),
    "grazing": ("o", "black"),
    "impact-signature": ("v", "tab:purple"),
}
_DEFAULT_POINT_STYLE = ("*", "tab:orange")

_CURVE_COLOUR = {
    "fold": "tab:red",
    "period-doubling": "tab:blue",
    "neimark-sacker": "tab:green",
    "grazing": "black",
}


def _axes(ax):
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    return ax


def axis_label(name):
    """A column name as an axis label: "A_max:x" -> "A_max(x)", "mu1:abs" -> "|mu1|"."""
    if ":" not in name:
        return name
    head, tail = name.split(":", 1)
    if tail == "abs":
        return f"|{head}|"
    return f"{head}({tail})"


def _spread_labels(ax, xs, ys, texts, colours):
    """Writes texts beside the points (xs, ys) without overlaps. Points that coincide on
    the figure (within 8 pixels) share one label ("LP2, NS2, GR1"); labels are stacked above
    their points in display space, at least one text height apart, each tied to its point
    by a thin line where it had to move."""
    if not texts:
        return
    ax.figure.canvas.draw()
    points = ax.transData.transform(np.column_stack([xs, ys]))
    groups = []  # [display point, data point, texts, colour]
    for i in np.argsort(points[:, 0]):
        for g in groups:
            if np.hypot(*(points[i] - g[0])) < 8.0:
                g[2].append(texts[i])
                break
        else:
            groups.append([points[i], (xs[i], ys[i]), [texts[i]], colours[i]])
    height = 1.3 * ax.figure.dpi * plt.rcParams["font.size"] / 72.0
    width = 0.6 * height
    placed = []  # (x, y, half width) of labels already placed, in display units
    for (x, y), anchor, names, colour in groups:
        text = ", ".join(names)
        half = 0.5 * width * len(text)
        ty = y + 0.8 * height
        moved = True
        while moved:
            moved = False
            for px, py, ph in placed:
                if abs(px - x) < ph + half and abs(py - ty) < height:
                    ty = max(ty, py) + height  # only upwards, so the loop ends
                    moved = True
        placed.append((x, ty, half))
        tx, ty_data = ax.transData.inverted().transform((x, ty))
        arrow = dict(arrowstyle="-", lw=0.5, color="0.4") if ty - y > 1.5 * height else None
        ax.annotate(text, xy=anchor, xytext=(tx, ty_data), ha="center", va="bottom",
                    fontsize="small", color=colour if len(names) == 1 else "black",
                    arrowprops=arrow, annotation_clip=False)


def _amplitude_column(br, y):
    if y is not None:
        return y
    y = next((name for name in br.columns if name.startswith("A_max:")), None)
    if y is None:
        raise KeyError("no amplitude column A_max:... in the branch; name the column as y")
    return y


def _draw_lines(ax, br, y, colour, text, width=1.6):
    """The branch's stable rows solid, its unstable rows dashed, its special points
    vertices of the lines, solid and dashed changing over at the special point of a step
    where the stability changes (as vicont draws them)."""
    xs, ys = np.asarray(br[br.parameter], dtype=float), np.asarray(br[y], dtype=float)
    stable = [bool(s) for s in np.asarray(br["stable"])]
    marks = _marks(br, y, "")
    solid, dashed = _core.branch_drawing(
        xs.tolist(), ys.tolist(), stable, [m[0] for m in marks], [m[1] for m in marks],
        [p.index for p in br.special_points])
    for k, line in enumerate(solid):
        ax.plot(line[:, 0], line[:, 1], "-", color=colour, lw=width,
                label=f"{text}, stable" if k == 0 and text else None)
    for k, line in enumerate(dashed):
        ax.plot(line[:, 0], line[:, 1], "--", color=colour, lw=0.6 * width,
                label=f"{text}, unstable" if k == 0 and text else None)


def _marks(br, y, prefix):
    """(parameter, value, label, type) of the branch's special points in column y."""
    column = y.split(":", 1)[1] if y.startswith("A_max:") else None
    marks = []
    for p in br.special_points:
        if column is not None and column in p.amplitudes:
            value = p.amplitudes[column]
        else:
            # A column the point does not carry: its value interpolated along the branch rows.
            value = float(np.interp(p.parameter, *_sorted(br[br.parameter], br[y])))
        marks.append((p.parameter, value, prefix + p.label, p.type))
    return marks


def _draw_marks(ax, marks, labelled, legend=True):
    """Markers by type, then the labels of the points marked `labelled`; the legend (with
    legend=True) before the labels, whose placement needs the final layout."""
    seen = set()
    for x, y, _, kind in marks:
        marker, colour = _POINT_STYLE.get(kind, _DEFAULT_POINT_STYLE)
        ax.plot([x], [y], marker, color=colour, ms=6, mfc="white", mew=1.5, zorder=5,
                label=kind if legend and kind not in seen else None)
        seen.add(kind)
    if legend:
        _legend(ax)
    chosen = [m for m, keep in zip(marks, labelled) if keep]
    if chosen:
        _spread_labels(ax, np.array([m[0] for m in chosen]), np.array([m[1] for m in chosen]),
                       [m[2] for m in chosen],
                       [_POINT_STYLE.get(m[3], _DEFAULT_POINT_STYLE)[1] for m in chosen])


def _cluster(marks, span):
    """The indices of the largest group of special points closer than 1 % of the
    parameter's span to their neighbours (at least three, or two that nearly coincide):
    where labels would pile up and a zoomed panel is needed. Empty if there is none."""
    if len(marks) < 2 or span <= 0:
        return []
    order = sorted(range(len(marks)), key=lambda i: marks[i][0])
    groups, group = [], [order[0]]
    for i in order[1:]:
        if marks[i][0] - marks[group[-1]][0] < 0.01 * span:
            group.append(i)
        else:
            groups.append(group)
            group = [i]
    groups.append(group)
    best = max(groups, key=len)
    if len(best) >= 3 or (len(best) == 2 and abs(marks[best[0]][0] - marks[best[1]][0]) < 0.002 * span):
        return best
    return []


def _quiet_corner(ax, runs):
    """The corner of the axes (as inset bounds) that the branches' rows avoid most."""
    to_axes = ax.transAxes.inverted()
    counts = {}
    corners = {"upper left": (0.12, 0.52), "upper right": (0.54, 0.52),
               "lower left": (0.12, 0.12), "lower right": (0.54, 0.12)}
    points = np.vstack([np.column_stack([np.asarray(br[br.parameter]), np.asarray(br[y])])
                        for br, y in runs])
    where = to_axes.transform(ax.transData.transform(points))
    for name, (x0, y0) in corners.items():
        inside = ((where[:, 0] > x0) & (where[:, 0] < x0 + 0.42)
                  & (where[:, 1] > y0) & (where[:, 1] < y0 + 0.42))
        counts[name] = int(np.sum(inside))
    x0, y0 = corners[min(counts, key=counts.get)]
    return [x0, y0, 0.42, 0.42]


def _zoom(ax, runs, colours, marks, cluster):
    """An inset zoomed on the clustered special points, with the branches and their labels."""
    xs = np.array([marks[i][0] for i in cluster])
    ys = np.array([marks[i][1] for i in cluster])
    width = max(xs.max() - xs.min(), 1e-12 * max(1.0, abs(xs.max())))
    x_lo, x_hi = xs.min() - 0.6 * width, xs.max() + 0.6 * width
    values = [ys]
    for br, y in runs:
        bx, by = np.asarray(br[br.parameter]), np.asarray(br[y])
        near = (bx >= x_lo) & (bx <= x_hi)
        values.append(by[near])
    values = np.concatenate(values)
    height = max(values.max() - values.min(), 1e-12 * max(1.0, abs(values.max())))
    inset = ax.inset_axes(_quiet_corner(ax, runs))
    for (br, y), colour in zip(runs, colours):
        _draw_lines(inset, br, y, colour, None, width=1.2)
    inset.set_xlim(x_lo, x_hi)
    inset.set_ylim(values.min() - 0.15 * height, values.max() + 0.45 * height)
    inset.tick_params(labelsize="x-small")
    inset.xaxis.get_offset_text().set_fontsize("x-small")
    inset.yaxis.get_offset_text().set_fontsize("x-small")
    _draw_marks(inset, [marks[i] for i in cluster], [True] * len(cluster), legend=False)
    ax.indicate_inset_zoom(inset, edgecolor="0.4")
    return inset


def branches(runs, y=None, ax=None, *, labels=None, points=True, point_labels=True, zoom=True):
    """Several branches in one diagram (a parent and its doubled, switched or restarted
    branches), each in its own colour: `y` (a column, default the first amplitude
    A_max:...) against the continued parameter, stable rows solid and unstable dashed,
    special points marked by type and labelled (LP1, PD1, ...; a later branch's with its
    number, 2:PD1) without overlaps. Where three or more special points crowd within 1 %
    of the parameter's span, they are labelled in a zoomed inset instead."""
    ax = _axes(ax)
    runs = [(br, _amplitude_column(br, y)) for br in runs]
    colours, marks = [], []
    for k, (br, column) in enumerate(runs):
        cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        colour = cycle[k % len(cycle)]
        colours.append(colour)
        text = labels[k] if labels else f"branch {k + 1}, n = {br.period}" if len(runs) > 1 else f"n = {br.period}"
        _draw_lines(ax, br, column, colour, text)
        if points:
            marks += _marks(br, column, f"{k + 1}:" if k > 0 else "")
    ax.set_xlabel(axis_label(runs[0][0].parameter))
    ax.set_ylabel(axis_label(runs[0][1]))
    if not marks:
        _legend(ax)
    else:
        span = np.ptp(np.concatenate([np.asarray(br[br.parameter]) for br, _ in runs]))
        cluster = _cluster(marks, span) if zoom else []
        labelled = [point_labels and i not in cluster for i in range(len(marks))]
        _draw_marks(ax, marks, labelled)
        if cluster and point_labels:
            _zoom(ax, runs, colours, marks, cluster)
    return ax


def branch(br, y=None, ax=None, **options):
    """One branch's diagram: branches([br], ...)."""
    return branches([br], y, ax, **options)


def _sorted(x, y):
    order = np.argsort(x)
    return np.asarray(x)[order], np.asarray(y)[order]


def _legend(ax):
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    if unique:
        ax.legend(unique.values(), unique.keys(), fontsize="small", loc="upper left",
                  bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)


def curves(pieces, ax=None, *, points=True):
    """Two-parameter curves (OrbitCurve, or a ParameterMap's curves) in the plane of their
    two parameters, coloured by kind, with their codimension-two points labelled."""
    ax = _axes(ax)
    pieces = list(getattr(pieces, "curves", pieces))
    seen, xs, ys, texts = set(), [], [], []
    for c in pieces:
        colour = _CURVE_COLOUR.get(c.kind, "tab:orange")
        style = "--" if c.kind == "period-doubling" else "-"
        # Through the rows with the codimension-two and turning points as vertices (a
        # turning point located between two rows is the tip of the line, not cut off).
        rows = len(c[c.first])
        lines, _ = _core.branch_drawing(
            np.asarray(c[c.first], dtype=float).tolist(), np.asarray(c[c.second], dtype=float).tolist(),
            [True] * rows, [p.first for p in c.points], [p.second for p in c.points],
            [p.index for p in c.points])
        for k, line in enumerate(lines):
            ax.plot(line[:, 0], line[:, 1], style, color=colour, lw=1.2,
                    label=f"{c.kind} curves" if c.kind not in seen and k == 0 else None)
        seen.add(c.kind)
        if points:
            for p in c.points:
                ax.plot([p.first], [p.second], "o", color="black", ms=4, zorder=5)
                xs.append(p.first)
                ys.append(p.second)
                texts.append(p.label)
    if pieces:
        ax.set_xlabel(axis_label(pieces[0].first))
        ax.set_ylabel(axis_label(pieces[0].second))
    _spread_labels(ax, np.array(xs), np.array(ys), texts, ["black"] * len(texts))
    _legend(ax)
    return ax


def parameter_map(pm, ax=None, *, grid=None):
    """A ParameterMap: its curves in its box, over a two-parameter sweep `grid`
    (SweepResult with a second parameter) coloured by the settled motion's z if given."""
    ax = _axes(ax)
    if grid is not None:
        sweep_grid(grid, ax=ax, legend=False)
    curves(pm, ax)
    a, b, c, d = pm.box
    ax.set_xlim(a, b)
    ax.set_ylim(c, d)
    return ax


def _z_classes(result):
    p = np.asarray(result["p"], dtype=int)
    n = np.asarray(result["n"], dtype=int)
    regime = np.asarray(result["regime"], dtype=object)
    names = np.array([f"z = {pi}/{ni}" if ni > 0 else str(r) for pi, ni, r in zip(p, n, regime)],
                     dtype=object)
    return names


def sweep_grid(result, ax=None, *, legend=True):
    """A two-parameter sweep's cells coloured by the settled motion's z = p/n (or its regime
    where it is not periodic)."""
    ax = _axes(ax)
    if not result.second:
        raise ValueError("sweep_grid needs a sweep over two parameters (second=...)")
    x, y = np.asarray(result[result.parameter]), np.asarray(result[result.second])
    names = _z_classes(result)
    classes = sorted(set(names), key=lambda s: (not s.startswith("z ="), s))
    index = {name: k for k, name in enumerate(classes)}
    xu, yu = np.unique(x), np.unique(y)
    image = np.full((len(yu), len(xu)), np.nan)
    image[np.searchsorted(yu, y), np.searchsorted(xu, x)] = [index[s] for s in names]
    cmap = plt.get_cmap("tab20", max(len(classes), 2))
    ax.imshow(image, origin="lower", aspect="auto", interpolation="nearest", cmap=cmap,
              vmin=-0.5, vmax=max(len(classes), 2) - 0.5,
              extent=_extent(xu, yu))
    if legend:
        handles = [Line2D([], [], ls="", marker="s", ms=8, color=cmap(k)) for k in range(len(classes))]
        ax.legend(handles, classes, fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    ax.set_xlabel(axis_label(result.parameter))
    ax.set_ylabel(axis_label(result.second))
    return ax


def _extent(xu, yu):
    def edges(v):
        if len(v) == 1:
            return v[0] - 0.5, v[0] + 0.5
        step = (v[-1] - v[0]) / (len(v) - 1)
        return v[0] - step / 2, v[-1] + step / 2
    return (*edges(xu), *edges(yu))


def lyapunov_diagram(result, ax=None, *, samples=None):
    """A one-parameter sweep as the sources draw it: the Poincare samples of coordinate
    `samples` (a state name; none: no upper panel) above, every Lyapunov exponent below
    (the largest thick, the others thin, each its own colour, the zero line dashed).
    Returns the axes of the exponents (with ax=None, a figure of one or two panels)."""
    if result.second:
        raise ValueError("lyapunov_diagram draws a one-parameter sweep; use sweep_grid for two")
    x = np.asarray(result[result.parameter])
    if ax is None:
        rows = 2 if samples else 1
        fig, axes = plt.subplots(rows, 1, figsize=(7, 3 + 2.5 * rows), sharex=True,
                                 layout="constrained", squeeze=False)
        axes = axes[:, 0]
        if samples:
            bifurcation_samples(result, samples, axes[0])
            axes[0].set_xlabel("")
        ax = axes[-1]
    exponents = np.asarray(result.exponents)
    for k in range(exponents.shape[1]):
        # The largest on top: where exponents coincide (a complex pair of multipliers) it
        # stays visible, the others show beside it where they differ.
        ax.plot(x, exponents[:, k], "-", lw=1.8 if k == 0 else 0.9, zorder=3 - 0.1 * k,
                marker="." if len(x) < 200 else None, ms=3, label=f"lambda_{k + 1}")
    ax.axhline(0.0, color="0.3", lw=0.8, ls="--")
    ax.set_xlabel(axis_label(result.parameter))
    ax.set_ylabel("Lyapunov exponents")
    ax.legend(fontsize="small", ncol=min(exponents.shape[1], 4))
    return ax


def bifurcation_samples(result, coordinate, ax=None):
    """The kept Poincare samples of a one-parameter sweep in one state coordinate against
    the parameter: the brute-force bifurcation diagram."""
    ax = _axes(ax)
    k = result.state_names.index(coordinate) if coordinate in result.state_names else None
    if k is None:
        raise KeyError(f"no state coordinate '{coordinate}' (coordinates: {', '.join(result.state_names)})")
    x = np.asarray(result[result.parameter])
    px, py = [], []
    for value, kept in zip(x, result.samples):
        kept = np.asarray(kept)
        if kept.size:
            px.append(np.full(kept.shape[0], value))
            py.append(kept[:, k])
    if px:
        ax.plot(np.concatenate(px), np.concatenate(py), ".", color="black", ms=1.0)
    ax.set_xlabel(axis_label(result.parameter))
    ax.set_ylabel(f"{coordinate} (Poincare section)")
    return ax


def basins(result, ax=None):
    """Basins of attraction: each cell coloured by its attractor (grey: not periodic,
    white: failed), the attractors' section points marked, a legend of z = p/n."""
    ax = _axes(ax)
    count = len(result.attractors)
    colours = plt.get_cmap("tab10")
    rgb = np.ones(result.attractor.shape + (3,))
    rgb[result.attractor == result.NON_PERIODIC] = (0.6, 0.6, 0.6)
    for k in range(count):
        rgb[result.attractor == k] = colours(k % 10)[:3]
    ax.imshow(rgb, origin="lower", aspect="auto", interpolation="nearest",
              extent=_extent(np.asarray(result.x), np.asarray(result.y)))
    handles, labels = [], []
    ix, iy = result.state_names.index(result.x_name), result.state_names.index(result.y_name)
    shapes = "o^sDvP*X"
    for k, a in enumerate(result.attractors):
        pts = np.atleast_2d(np.asarray(a["points"]))
        shape = shapes[k % len(shapes)]
        if pts.size:
            ax.plot(pts[:, ix], pts[:, iy], shape, color="white", mec="black", ms=6)
        handles.append(Line2D([], [], ls="", marker=shape, ms=8, color=colours(k % 10), mec="black"))
        labels.append(f"z = {a['p']}/{a['n']} (its section points: {shape})")
    if result.non_periodic:
        handles.append(Line2D([], [], ls="", marker="s", ms=8, color=(0.6, 0.6, 0.6)))
        labels.append("not periodic")
    if handles:
        ax.legend(handles, labels, fontsize="small", loc="upper right")
    ax.set_xlabel(result.x_name)
    ax.set_ylabel(result.y_name)
    return ax


def phase_portrait(trajectory, x=None, y=None, ax=None, *, events=True):
    """One state coordinate against another (default the first two), with the events
    (impacts, contact starts and ends) marked."""
    ax = _axes(ax)
    names = trajectory.state_names
    x = x or names[0]
    y = y or names[1]
    ix, iy = names.index(x), names.index(y)
    ax.plot(trajectory.x[:, ix], trajectory.x[:, iy], "-", lw=0.8)
    if events and len(trajectory.events.t):
        ax.plot(trajectory.events.x_minus[:, ix], trajectory.events.x_minus[:, iy], ".",
                color="tab:red", ms=3, label="events")
        ax.legend(fontsize="small")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    return ax


def time_series(trajectory, names=None, ax=None):
    """State coordinates against time (default all displacement-like ones: all of them)."""
    ax = _axes(ax)
    names = names or trajectory.state_names
    for name in names:
        ax.plot(trajectory.t, trajectory.x[:, trajectory.state_names.index(name)], lw=0.8, label=name)
    ax.set_xlabel("t")
    ax.legend(fontsize="small")
    return ax
