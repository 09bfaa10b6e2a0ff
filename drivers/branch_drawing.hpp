#pragma once
// The lines a branch's figure draws: its rows joined in order, stable rows solid and
// unstable ones dashed, each special point (fold, period doubling, Neimark-Sacker,
// grazing) drawn as a vertex of the line in the step it was located in. Joining the rows
// alone cuts corners: a fold located between two rows of a coarse step lies off the line
// (its tip cut off), and a step across which the stability changes, long past a grazing,
// would be drawn both solid and dashed over its whole length, which tells the reader
// nothing about where the orbit is stable.
//
// Where the stability changes in a step, the solid and dashed lines change over at the
// special points located in it: the line of the row before runs to the first of them, the
// line of the row after from the last; between two of them (which one changes the
// stability is not known here) both are drawn. A change with no special point in its
// step is drawn both ways over the whole step, so that the two lines still meet.
#include <utility>
#include <vector>

namespace vicont {

struct DrawnRow {
  double x = 0.0, y = 0.0;
  bool stable = false;
};

// A special point on the branch, located in the step after row `after_row` (-1: before
// the first row: not a vertex of the line).
struct DrawnSpecialPoint {
  double x = 0.0, y = 0.0;
  long after_row = -1;
};

using Polyline = std::vector<std::pair<double, double>>;

struct BranchDrawing {
  std::vector<Polyline> stable, unstable;  // solid and dashed, each of two points or more
};

BranchDrawing branch_drawing(const std::vector<DrawnRow>& rows,
                             const std::vector<DrawnSpecialPoint>& points);

}  // namespace vicont
