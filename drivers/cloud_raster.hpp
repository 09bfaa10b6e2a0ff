#pragma once
// A cloud of many points (a sweep's Poincare samples, its impact velocities) drawn as one
// image. gnuplot's cost is per mark drawn, some microseconds each, so a cloud of 10^5
// points costs it a second, and thinning the cloud only bounds that cost by the pixels
// hit. Here each point stamps a dot into the pixels of the panel itself, in C++, and
// gnuplot draws a single image per panel (`with rgbalpha`): its cost no longer grows
// with the points.
//
// The raster is the panel's own pixel grid: `columns` x `rows` pixels between the axes'
// ranges, which the plot fixes to the raster's (autoscaled_range). Every pixel edge is
// then a data coordinate and gnuplot maps the image one to one onto the panel's pixels,
// without resampling (no blur, nothing moved).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vicont {

// An axis range as gnuplot's autoscaling leaves it for data from `lo` to `hi` (lo <= hi,
// finite): extended outwards to the next major tic, the tic step being 1, 2 or 5 times a
// power of ten chosen for about 20 steps at most over the range. A range of no width is
// first widened as gnuplot does (by 1 % of its value each way, or by 1 at 0).
// `extend_to_tics` false keeps the data's ends, as "set autoscale xfix" does.
std::pair<double, double> autoscaled_range(double lo, double hi, bool extend_to_tics = true);

struct RasterColour {
  unsigned char red = 0, green = 0, blue = 0;
};
// "#rrggbb" (a gnuplot colour as the plots write it); black for anything else.
RasterColour raster_colour(const std::string& hex);

class CloudRaster {
 public:
  // A grid of columns x rows pixels (each >= 1) over [x_lo, x_hi] x [y_lo, y_hi]; a range of
  // no width puts every point into the middle column or row. `layers`: how many colours
  // are drawn one over the other (a sweep's directions), in the order given.
  CloudRaster(int columns, int rows, double x_lo, double x_hi, double y_lo, double y_hi,
              std::vector<RasterColour> layers);

  // The pixel (column from the left, row from the bottom) that (x, y) falls in; none
  // for a point outside the box or not finite. A point on the box's upper edge belongs
  // to the last pixel.
  std::optional<std::pair<int, int>> pixel(double x, double y) const;

  // Stamps a dot for (x, y) on `layer`: its pixel fully, its neighbours partly, as
  // gnuplot's "pt 7 ps 0.25" mark (which the plots drew before) covers them; dots on one
  // pixel darken it as such marks drawn over each other do. Points outside the box are
  // left out.
  void add(int layer, double x, double y);

  // The image as gnuplot reads it with `binary array=(columns, rows) format='%uchar'`:
  // four bytes (red, green, blue, alpha) per pixel, row by row from the bottom, the
  // layers composed in order (a later one over an earlier one), transparent where no dot
  // fell.
  std::vector<unsigned char> rgba() const;

  // The plot source of the image, after the file's name: "binary array=... with rgbalpha".
  std::string gnuplot_source() const;

  int columns() const { return columns_; }
  int rows() const { return rows_; }

 private:
  int columns_, rows_;
  double x_lo_, x_hi_, y_lo_, y_hi_;
  std::vector<RasterColour> colours_;
  std::vector<std::vector<std::uint32_t>> depth_;  // per layer, per pixel (cloud_raster.cpp)
};

}  // namespace vicont
