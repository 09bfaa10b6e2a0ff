#include "branch_drawing.hpp"

#include <cstddef>

namespace vicont {

namespace {

// Polylines of one style under construction: vertices go to the open one.
class Lines {
 public:
  explicit Lines(std::vector<Polyline>& done) : done_(done) {}
  ~Lines() { close(); }
  Lines(const Lines&) = delete;
  Lines& operator=(const Lines&) = delete;

  void extend(const std::pair<double, double>& vertex) { open_.push_back(vertex); }
  void close() {
    if (open_.size() > 1) done_.push_back(open_);
    open_.clear();
  }

 private:
  std::vector<Polyline>& done_;
  Polyline open_;
};

}  // namespace

BranchDrawing branch_drawing(const std::vector<DrawnRow>& rows,
                             const std::vector<DrawnSpecialPoint>& points) {
  BranchDrawing drawing;
  {
    Lines solid(drawing.stable), dashed(drawing.unstable);
    const auto lines = [&](bool stable) -> Lines& { return stable ? solid : dashed; };
    const auto located_after = [&](std::size_t row) {
      Polyline located;
      for (const auto& p : points)
        if (p.after_row == static_cast<long>(row)) located.push_back({p.x, p.y});
      return located;
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const DrawnRow& row = rows[i];
      const std::pair<double, double> at{row.x, row.y};
      if (i == 0) lines(row.stable).extend(at);
      const Polyline located = located_after(i);
      if (i + 1 == rows.size()) {  // points located after the last row end its line
        for (const auto& p : located) lines(row.stable).extend(p);
        break;
      }
      const DrawnRow& next = rows[i + 1];
      const std::pair<double, double> next_at{next.x, next.y};
      Lines &before = lines(row.stable), &after = lines(next.stable);
      if (row.stable == next.stable) {
        for (const auto& p : located) before.extend(p);
        before.extend(next_at);
        continue;
      }
      if (located.empty()) {
        before.extend(next_at);
        after.extend(at);
      } else {
        for (const auto& p : located) before.extend(p);
        for (const auto& p : located) after.extend(p);
      }
      before.close();
      after.extend(next_at);
    }
  }
  return drawing;
}

}  // namespace vicont
