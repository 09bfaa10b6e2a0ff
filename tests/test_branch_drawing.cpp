// The lines of a branch's figure (drivers/branch_drawing.hpp): rows joined in order with
// the special points located between them as vertices, the solid and dashed lines
// changing over at the special points of a step where the stability changes, and meeting
// over the whole step where none was located there.
#include <catch2/catch.hpp>

#include "branch_drawing.hpp"

using vicont::branch_drawing;
using vicont::DrawnRow;
using vicont::DrawnSpecialPoint;
using vicont::Polyline;

TEST_CASE("a change of stability is drawn through the special point located in its step",
          "[figures]") {
  // Stable, stable, unstable (a period doubling located between rows 1 and 2), unstable,
  // stable again (nothing located between rows 3 and 4).
  const std::vector<DrawnRow> rows{
      {0.0, 0.0, true}, {1.0, 1.0, true}, {2.0, 2.0, false}, {3.0, 3.0, false}, {4.0, 4.0, true}};
  const auto drawing = branch_drawing(rows, {{1.75, 1.8, 1}});
  CHECK(drawing.stable ==
        std::vector<Polyline>{{{0.0, 0.0}, {1.0, 1.0}, {1.75, 1.8}}, {{3.0, 3.0}, {4.0, 4.0}}});
  CHECK(drawing.unstable == std::vector<Polyline>{{{1.75, 1.8}, {2.0, 2.0}, {3.0, 3.0}, {4.0, 4.0}}});
}

TEST_CASE("a fold located between two rows of one stability is a vertex of their line",
          "[figures]") {
  // The fold's tip lies beyond both rows (x = 2.2 > 2.0, 1.9): joining the rows alone
  // would cut it off.
  const std::vector<DrawnRow> rows{{1.0, 1.0, false}, {2.0, 2.0, false}, {1.9, 3.0, false}};
  const std::vector<DrawnSpecialPoint> points{{2.2, 2.5, 1}, {0.5, 0.0, -1}, {1.5, 3.5, 2}};
  const auto drawing = branch_drawing(rows, points);
  CHECK(drawing.stable.empty());
  // The point before the first row is no vertex; the one after the last row ends the line.
  CHECK(drawing.unstable ==
        std::vector<Polyline>{{{1.0, 1.0}, {2.0, 2.0}, {2.2, 2.5}, {1.9, 3.0}, {1.5, 3.5}}});
  CHECK(branch_drawing({}, points).unstable.empty());
  CHECK(branch_drawing({rows.front()}, {}).unstable.empty());
}

TEST_CASE("between two special points of one step both lines are drawn", "[figures]") {
  // Unstable to stable with a grazing and then a period doubling in the step: which of
  // them restores stability is not known from the rows.
  const std::vector<DrawnRow> rows{{0.0, 0.0, false}, {1.0, 1.0, true}, {2.0, 2.0, true}};
  const auto drawing = branch_drawing(rows, {{0.2, 0.3, 0}, {0.7, 0.6, 0}});
  CHECK(drawing.unstable == std::vector<Polyline>{{{0.0, 0.0}, {0.2, 0.3}, {0.7, 0.6}}});
  CHECK(drawing.stable ==
        std::vector<Polyline>{{{0.2, 0.3}, {0.7, 0.6}, {1.0, 1.0}, {2.0, 2.0}}});
}

TEST_CASE("a change with nothing located in its step is drawn both ways", "[figures]") {
  const std::vector<DrawnRow> rows{{0.0, 0.0, true}, {1.0, 1.0, false}, {2.0, 2.0, false}};
  const auto drawing = branch_drawing(rows, {});
  CHECK(drawing.stable == std::vector<Polyline>{{{0.0, 0.0}, {1.0, 1.0}}});
  CHECK(drawing.unstable == std::vector<Polyline>{{{0.0, 0.0}, {1.0, 1.0}, {2.0, 2.0}}});
}
