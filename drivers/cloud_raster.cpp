#include "cloud_raster.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace vicont {

namespace {

// gnuplot's step between major tics over a range of size `size` for at most about
// `guide` steps: 0.05, 0.1, 0.2, 0.5, 1, 2 (or more) times the range's power of ten.
double tic_step(double size, double guide) {
  const double power = std::pow(10.0, std::floor(std::log10(size)));
  const double normalised = size / power;  // 1 <= normalised < 10
  const double positions = guide / normalised;
  double step = 0.0;
  if (positions > 40)
    step = 0.05;
  else if (positions > 20)
    step = 0.1;
  else if (positions > 10)
    step = 0.2;
  else if (positions > 4)
    step = 0.5;
  else if (positions > 2)
    step = 1;
  else if (positions > 0.5)
    step = 2;
  else
    step = std::ceil(normalised);
  return step * power;
}

}  // namespace

std::pair<double, double> autoscaled_range(double lo, double hi, bool extend_to_tics) {
  if (!(hi > lo)) {
    const double widen = hi == 0.0 ? 1.0 : 0.01 * std::abs(hi);
    lo -= widen;
    hi += widen;
  }
  if (!extend_to_tics) return {lo, hi};
  const double step = tic_step(hi - lo, 20.0);
  return {step * std::floor(lo / step), step * std::ceil(hi / step)};
}

RasterColour raster_colour(const std::string& hex) {
  if (hex.size() != 7 || hex[0] != '#') return {};
  const auto channel = [&](size_t at) {
    return static_cast<unsigned char>(std::strtoul(hex.substr(at, 2).c_str(), nullptr, 16));
  };
  return {channel(1), channel(3), channel(5)};
}

CloudRaster::CloudRaster(int columns, int rows, double x_lo, double x_hi, double y_lo,
                         double y_hi, std::vector<RasterColour> layers)
    : columns_(std::max(columns, 1)),
      rows_(std::max(rows, 1)),
      x_lo_(x_lo),
      x_hi_(x_hi),
      y_lo_(y_lo),
      y_hi_(y_hi),
      colours_(std::move(layers)),
      depth_(colours_.size(),
             std::vector<std::uint32_t>(static_cast<size_t>(columns_) * rows_, 0)) {}

std::optional<std::pair<int, int>> CloudRaster::pixel(double x, double y) const {
  if (!std::isfinite(x) || !std::isfinite(y)) return std::nullopt;
  if (x < x_lo_ || x > x_hi_ || y < y_lo_ || y > y_hi_) return std::nullopt;
  const auto index = [](double v, double lo, double hi, int count) {
    if (!(hi > lo)) return count / 2;
    return std::min(count - 1, static_cast<int>((v - lo) / (hi - lo) * count));
  };
  return std::make_pair(index(x, x_lo_, x_hi_, columns_), index(y, y_lo_, y_hi_, rows_));
}

namespace {

// A dot's coverage of its pixel and the eight around it, as pngcairo draws "pt 7 ps 0.25"
// centred on a pixel (measured: 255 at the centre, 184 above and below, 177 beside,
// 56 at the corners, of 255).
constexpr double kDot[3][3] = {{56, 184, 56}, {177, 255, 177}, {56, 184, 56}};

// Coverage kept as optical depth, -ln(1 - coverage) in thousandths, so that dots on one
// pixel darken it as cairo's antialiased marks drawn over each other do (coverage
// 1 - (1 - a)(1 - b)), while the sum of integers does not depend on the order of the
// points (threads deliver them in any order). Full coverage: a depth past any use.
constexpr std::uint32_t kOpaque = 1u << 20;
std::uint32_t depth_of(double coverage) {
  if (coverage >= 255.0) return kOpaque;
  return static_cast<std::uint32_t>(std::lround(-1000.0 * std::log1p(-coverage / 255.0)));
}
double coverage_of(std::uint32_t depth) {
  return -std::expm1(-static_cast<double>(depth) / 1000.0);
}

}  // namespace

void CloudRaster::add(int layer, double x, double y) {
  static const auto depths = [] {
    std::array<std::array<std::uint32_t, 3>, 3> d{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) d[i][j] = depth_of(kDot[i][j]);
    return d;
  }();
  const auto at = pixel(x, y);
  if (!at || layer < 0 || static_cast<size_t>(layer) >= depth_.size()) return;
  auto& depth = depth_[static_cast<size_t>(layer)];
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int column = at->first + dx, row = at->second + dy;
      if (column < 0 || column >= columns_ || row < 0 || row >= rows_) continue;
      std::uint32_t& d = depth[static_cast<size_t>(row) * columns_ + column];
      d = std::min(kOpaque, d + depths[dy + 1][dx + 1]);
    }
}

std::vector<unsigned char> CloudRaster::rgba() const {
  const size_t pixels = static_cast<size_t>(columns_) * rows_;
  std::vector<unsigned char> image(4 * pixels, 0);
  for (size_t p = 0; p < pixels; ++p) {
    // "over" composition of the layers in order, in straight (not premultiplied) alpha.
    double red = 0, green = 0, blue = 0, alpha = 0;
    for (size_t k = 0; k < colours_.size(); ++k) {
      if (depth_[k][p] == 0) continue;
      const double a = coverage_of(depth_[k][p]);
      const double below = alpha * (1.0 - a), total = a + below;
      red = (colours_[k].red * a + red * below) / total;
      green = (colours_[k].green * a + green * below) / total;
      blue = (colours_[k].blue * a + blue * below) / total;
      alpha = total;
    }
    if (alpha == 0.0) continue;  // most of a panel: left transparent
    image[4 * p] = static_cast<unsigned char>(std::lround(red));
    image[4 * p + 1] = static_cast<unsigned char>(std::lround(green));
    image[4 * p + 2] = static_cast<unsigned char>(std::lround(blue));
    image[4 * p + 3] = static_cast<unsigned char>(std::lround(255.0 * alpha));
  }
  return image;
}

std::string CloudRaster::gnuplot_source() const {
  const double dx = x_hi_ > x_lo_ ? (x_hi_ - x_lo_) / columns_ : 1.0;
  const double dy = y_hi_ > y_lo_ ? (y_hi_ - y_lo_) / rows_ : 1.0;
  std::ostringstream s;
  s.precision(17);
  // origin: the centre of the first pixel.
  s << "binary array=(" << columns_ << ',' << rows_ << ") format='%uchar' dx=" << dx
    << " dy=" << dy << " origin=(" << x_lo_ + dx / 2 << ',' << y_lo_ + dy / 2
    << ") with rgbalpha";
  return s.str();
}

}  // namespace vicont
