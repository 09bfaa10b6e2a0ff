// The raster a sweep's clouds of points are drawn as (drivers/cloud_raster.hpp): each
// point lands in the pixel its coordinates say, the layers compose in order, and clouds
// of no point, one point or ranges of no width draw without trouble.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "cloud_raster.hpp"

using vicont::autoscaled_range;
using vicont::CloudRaster;
using vicont::RasterColour;

namespace {

// The RGBA bytes of pixel (column, row from the bottom).
struct Pixel {
  int red, green, blue, alpha;
};
Pixel pixel_at(const CloudRaster& raster, int column, int row) {
  const auto image = raster.rgba();
  const size_t at = 4 * (static_cast<size_t>(row) * raster.columns() + column);
  return {image[at], image[at + 1], image[at + 2], image[at + 3]};
}

int alpha_sum(const CloudRaster& raster) {
  int sum = 0;
  const auto image = raster.rgba();
  for (size_t i = 3; i < image.size(); i += 4) sum += image[i];
  return sum;
}

}  // namespace

TEST_CASE("a point's pixel is the one its coordinates fall in, counted from the bottom left") {
  // 10 x 4 pixels over [2, 12] x [-1, 1]: pixels 1 wide and 0.5 high.
  CloudRaster raster(10, 4, 2.0, 12.0, -1.0, 1.0, {{255, 0, 0}});
  CHECK(raster.pixel(2.0, -1.0) == std::make_pair(0, 0));
  CHECK(raster.pixel(2.99, -0.51) == std::make_pair(0, 0));
  CHECK(raster.pixel(3.0, -0.5) == std::make_pair(1, 1));
  CHECK(raster.pixel(7.5, 0.75) == std::make_pair(5, 3));
  CHECK(raster.pixel(12.0, 1.0) == std::make_pair(9, 3));  // the upper edges: the last pixel
  CHECK_FALSE(raster.pixel(1.99, 0.0));
  CHECK_FALSE(raster.pixel(5.0, 1.01));
  CHECK_FALSE(raster.pixel(std::nan(""), 0.0));
  CHECK_FALSE(raster.pixel(5.0, std::numeric_limits<double>::infinity()));

  raster.add(0, 7.5, 0.75);
  const Pixel centre = pixel_at(raster, 5, 3);
  CHECK(centre.red == 255);
  CHECK(centre.green == 0);
  CHECK(centre.alpha == 255);
  // Its neighbours partly covered, the rest of the image transparent.
  CHECK(pixel_at(raster, 4, 3).alpha > 0);
  CHECK(pixel_at(raster, 4, 3).alpha < 255);
  CHECK(pixel_at(raster, 5, 2).red == 255);
  CHECK(pixel_at(raster, 0, 0).alpha == 0);
  CHECK(pixel_at(raster, 7, 3).alpha == 0);
  // Points outside the box draw nothing.
  const int before = alpha_sum(raster);
  raster.add(0, 100.0, 0.0);
  raster.add(0, std::nan(""), 0.0);
  CHECK(alpha_sum(raster) == before);
}

TEST_CASE("a later layer is drawn over an earlier one") {
  CloudRaster raster(5, 5, 0.0, 5.0, 0.0, 5.0, {{0, 0, 255}, {255, 0, 0}});
  raster.add(1, 2.5, 2.5);
  raster.add(0, 2.5, 2.5);
  const Pixel centre = pixel_at(raster, 2, 2);
  CHECK(centre.red == 255);
  CHECK(centre.blue == 0);
  CHECK(centre.alpha == 255);
  // Where the upper layer covers partly, the lower one shows through.
  raster.add(0, 0.5, 0.5);
  raster.add(1, 1.5, 0.5);
  const Pixel mixed = pixel_at(raster, 0, 0);
  CHECK(mixed.red > 0);
  CHECK(mixed.blue > 0);
  CHECK(mixed.alpha == 255);
}

TEST_CASE("clouds of no point, one point and ranges of no width draw") {
  const CloudRaster empty(7, 3, 0.0, 1.0, 0.0, 1.0, {{0, 0, 0}});
  CHECK(empty.rgba().size() == 4u * 7 * 3);
  CHECK(alpha_sum(empty) == 0);

  CloudRaster one(1, 1, 0.0, 1.0, 0.0, 1.0, {{0, 0, 0}});
  one.add(0, 0.5, 0.5);
  CHECK(pixel_at(one, 0, 0).alpha == 255);

  // A range of no width: its points go into the middle pixel, nothing is divided by zero.
  CloudRaster flat(5, 4, 3.0, 3.0, 1.0, 1.0, {{0, 0, 0}});
  CHECK(flat.pixel(3.0, 1.0) == std::make_pair(2, 2));
  flat.add(0, 3.0, 1.0);
  CHECK(pixel_at(flat, 2, 2).alpha == 255);
  CHECK(flat.gnuplot_source().find("nan") == std::string::npos);
  CHECK(flat.gnuplot_source().find("inf") == std::string::npos);
}

TEST_CASE("autoscaled ranges are those gnuplot 5.4 gives the same data") {
  // Each pair read back from gnuplot (GPVAL_Y_MIN/MAX after `plot` with `set autoscale y`)
  // for data spanning the first pair.
  CHECK(autoscaled_range(0.0, 0.1367) == std::make_pair(0.0, 0.14));
  CHECK(autoscaled_range(-0.1397, -0.0004) == std::make_pair(-0.14, 0.0));
  CHECK(autoscaled_range(0.3, 5.37) == std::make_pair(0.0, 6.0));
  CHECK(autoscaled_range(-713.0, 2.0e4) == std::make_pair(-5000.0, 20000.0));
  // A constant is widened by 1 % (by 1 at zero) before the tics are applied.
  CHECK(autoscaled_range(0.0, 0.0) == std::make_pair(-1.0, 1.0));
  const auto constant = autoscaled_range(2.0, 2.0, false);
  CHECK(constant.first == Approx(1.98));
  CHECK(constant.second == Approx(2.02));
  // xfix keeps the data's ends.
  CHECK(autoscaled_range(2.0, 10.0, false) == std::make_pair(2.0, 10.0));
}
