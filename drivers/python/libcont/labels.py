"""The labels special points go by, as in vicont's files: LP1, PD2, GR1 on branches
(numbered per type, in the order of the branch), CP1, LPPD1, RGPD1 on curves."""

_BRANCH_PREFIXES = {"fold": "LP", "period-doubling": "PD", "neimark-sacker": "NS",
                    "grazing": "GR", "impact-signature": "IS", "user-value": "UZ"}
_CURVE_PREFIXES = {"cusp": "CP", "fold-flip": "LPPD", "grazing": "GR", "turning-point": "TP",
                   "resonance-1:1": "R1_", "resonance-1:2": "R2_", "resonance-1:3": "R3_",
                   "resonance-1:4": "R4_", "resonant-grazing-fold": "RGLP",
                   "resonant-grazing-flip": "RGPD"}


def _numbered(prefixes):
    counts = {}
    labels = []
    for prefix in prefixes:
        counts[prefix] = counts.get(prefix, 0) + 1
        labels.append(f"{prefix}{counts[prefix]}")
    return labels


def branch_labels(types):
    return _numbered(_BRANCH_PREFIXES.get(t, "SP") for t in types)


def curve_labels(types):
    return _numbered(_CURVE_PREFIXES.get(t, "SP") for t in types)


def find_label(points, label, what):
    """The index of the point labelled `label` (case-insensitive); InputError naming the
    labels there are otherwise."""
    from ._core import InputError
    wanted = str(label).upper()
    for k, p in enumerate(points):
        if p.label.upper() == wanted:
            return k
    known = ", ".join(p.label for p in points) or "none"
    raise InputError(f"no point {label} on the {what} (its points: {known})")
