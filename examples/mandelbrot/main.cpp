// The Mandelbrot set on a 600 x 400 image, one thread per pixel in 16 x 16
// blocks, checked against the same iteration on the host with
// std::complex<double> and written as a PNG (argv[1], default
// mandelbrot.png).
#include "mandelbrot.pyk.h"

#include <png.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

struct View {
  double xmin, xmax, ymin, ymax;
};

// The kernel's arithmetic in the kernel's order, so that each point c is
// the same double on both sides.
std::vector<std::uint16_t> mandelbrotOnHost(const View &view, int width, int height, int maxIter) {
  std::vector<std::uint16_t> counts(std::size_t(width) * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const std::complex<double> c(view.xmin + x * (view.xmax - view.xmin) / width,
                                   view.ymin + y * (view.ymax - view.ymin) / height);
      std::complex<double> z = 0;
      int n = 0;
      while (n < maxIter && std::abs(z) <= 2.0) {
        z = z * z + c;
        ++n;
      }
      counts[std::size_t(y) * width + x] = static_cast<std::uint16_t>(n);
    }
  return counts;
}

// Black inside the set; outside, a colour from how quickly the point
// escaped (the square root spreads the many points that escape within a
// few steps over more of the palette).
bool writePng(const char *path, const std::vector<std::uint16_t> &counts, int width, int height, int maxIter) {
  std::vector<png_byte> rgb(counts.size() * 3);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double t = counts[i] == maxIter ? 0.0 : std::sqrt(double(counts[i]) / maxIter);
    const double rest = 1 - t;
    rgb[3 * i + 0] = static_cast<png_byte>(255 * 9 * rest * t * t * t);
    rgb[3 * i + 1] = static_cast<png_byte>(255 * 15 * rest * rest * t * t);
    rgb[3 * i + 2] = static_cast<png_byte>(255 * 8.5 * rest * rest * rest * t);
  }
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = PNG_FORMAT_RGB;
  if (!png_image_write_to_file(&image, path, 0, rgb.data(), 0, nullptr)) {
    std::fprintf(stderr, "mandelbrot: cannot write %s: %s\n", path, image.message);
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  const char *pngPath = argc > 1 ? argv[1] : "mandelbrot.png";
  const int width = 600, height = 400, maxIter = 200;
  const View view{-2.0, 1.0, -1.0, 1.0};

  auto image = pyk::device_empty<std::uint16_t>({height, width});
  const pyk::Launch launch{{(width + 15) / 16, (height + 15) / 16}, {16, 16}}; // x: columns
  pyk::kernels::mandelbrot(launch, view.xmin, view.xmax, view.ymin, view.ymax, maxIter, image);
  std::vector<std::uint16_t> got(std::size_t(width) * height);
  image.copy_to_host(got);

  const std::vector<std::uint16_t> expected = mandelbrotOnHost(view, width, height, maxIter);
  int differing = 0, inside = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    differing += got[i] != expected[i];
    inside += got[i] == maxIter;
  }
  const bool written = writePng(pngPath, got, width, height, maxIter);
  // On a GPU, z * z's products and sums fuse into fma instructions that
  // round once where the host rounds twice, which near the set's edge can
  // move the step at which |z| passes 2. (Emulated with std::fma on the
  // host, no pixel of this view moves in 200 steps; a few do in 500.)
  const bool equal = differing <= 10;
  std::printf("mandelbrot: %d x %d pixels, at most %d steps, on %s: %d in the set, %d differ from the host; %s %s\n",
              width, height, maxIter, pyk::device_name().c_str(), inside, differing,
              written ? "wrote" : "could not write", pngPath);
  std::printf("Are results equal: %s\n", equal && written ? "True" : "False");
  return equal && written ? 0 : 1;
}
