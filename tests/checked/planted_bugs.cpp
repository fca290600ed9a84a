// Runs the planted bugs of planted_bugs.pyk. Built twice: with
// PYK_TEST_CHECKED (the kernels compiled in checked mode), every launch must
// raise pyk::KernelError with the exact location, array, axis, index and
// extent; without it, the same launches must run without an error, and the
// stray stores land in the padding around the arrays (silently wrong).
#include "planted_bugs.pyk.h"

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

int passed = 0, failed = 0;

/// Arrays with `pad` elements of `fill` on both sides, so that accesses a
/// few elements out of bounds stay inside the allocation.
template <typename T, std::size_t N> struct Padded {
  static constexpr std::int64_t pad = 64;
  Padded(std::array<std::int64_t, N> shape, const std::vector<T> &values, T fill) : shape(shape) {
    std::int64_t size = 1;
    for (std::int64_t extent : shape)
      size *= extent;
    host.assign(size + 2 * pad, fill);
    std::copy(values.begin(), values.end(), host.begin() + pad);
    storage = pyk::to_device(host);
  }
  pyk::ArrayView<T, N> view() { return pyk::ArrayView<T, N>(storage.data() + pad, shape); }
  /// Whether anything but the elements changed (a store out of bounds).
  bool paddingChanged(T fill) {
    storage.copy_to_host(host);
    for (std::int64_t i = 0; i < pad; ++i)
      if (host[i] != fill || host[host.size() - 1 - i] != fill)
        return true;
    return false;
  }
  std::array<std::int64_t, N> shape;
  std::vector<T> host;
  pyk::DeviceArray<T, 1> storage;
};

bool onCpuDevice() { return pyk::current_device() == pyk::DeviceKind::Cpu; }

/// Checked mode: `launch` (then a synchronisation) raises KernelError whose
/// message is `where` then " (thread ... of kernel ...)". Which thread fails
/// first is fixed on the CPU device (one block, or one failing thread), so
/// `who` is compared there; a GPU may record any failing thread.
/// Unchecked: `launch` raises nothing.
void expect(const char *name, const std::function<void()> &launch, const std::string &where, const std::string &who) {
  std::string message;
  try {
    launch();
    pyk::synchronize();
  } catch (const pyk::KernelError &error) {
    message = error.what();
  }
#ifdef PYK_TEST_CHECKED
  const std::string want = where + " (" + who + ")";
  const bool ok = onCpuDevice() ? message == want : message.rfind(where + " (thread ", 0) == 0;
  if (!ok) {
    ++failed;
    std::printf("FAIL %s:\n  got  '%s'\n  want '%s'\n", name, message.c_str(), want.c_str());
    return;
  }
#else
  (void)where;
  (void)who;
  if (!message.empty()) {
    ++failed;
    std::printf("FAIL %s: unchecked launch raised '%s'\n", name, message.c_str());
    return;
  }
#endif
  ++passed;
}

void check(const char *what, bool ok) {
  if (ok) {
    ++passed;
    return;
  }
  ++failed;
  std::printf("FAIL %s\n", what);
}

std::vector<float> ramp(std::size_t n) {
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i)
    values[i] = float(i + 1);
  return values;
}

} // namespace

int main() {
  const float fill = -7.0f;
#ifdef PYK_TEST_CHECKED
  const bool checked = true;
#else
  const bool checked = false;
#endif
  {
    Padded<float, 1> x({100}, ramp(100), fill), y({100}, {}, fill);
    expect(
        "off_by_one_guard", [&] { pyk::kernels::off_by_one_guard({4, 32}, x.view(), y.view()); },
        "planted_bugs.pyk:13:18: index 100 out of bounds for axis 0 of 'x' with size 100",
        "thread (4,0,0) of block (3,0,0) of kernel 'off_by_one_guard'");
    // Checked: the failing store is dropped. Unchecked: it lands past y.
    check("off_by_one_guard: the stray store", y.paddingChanged(fill) != checked);
  }
  {
    Padded<float, 2> m({4, 6}, ramp(24), fill), out({4, 6}, {}, fill);
    expect(
        "swapped_axes", [&] { pyk::kernels::swapped_axes({{1, 1}, {4, 6}}, m.view(), out.view()); },
        "planted_bugs.pyk:20:23: index 4 out of bounds for axis 0 of 'm' with size 4",
        "thread (0,4,0) of block (0,0,0) of kernel 'swapped_axes'");
  }
  {
    Padded<float, 1> x({50}, ramp(50), fill), y({50}, {}, fill);
    expect(
        "stencil_negative_offset", [&] { pyk::kernels::stencil_negative_offset({2, 32}, x.view(), y.view()); },
        "planted_bugs.pyk:27:18: index -64 out of bounds for axis 0 of 'x' with size 50",
        "thread (0,0,0) of block (0,0,0) of kernel 'stencil_negative_offset'");
    expect(
        "stencil_past_the_end", [&] { pyk::kernels::stencil_past_the_end({2, 32}, x.view(), y.view()); },
        "planted_bugs.pyk:34:18: index 50 out of bounds for axis 0 of 'x' with size 50",
        "thread (17,0,0) of block (1,0,0) of kernel 'stencil_past_the_end'");
  }
  {
    Padded<float, 2> a({6, 4}, ramp(24), fill), out({6, 4}, {}, fill);
    expect(
        "stencil_wrong_extent", [&] { pyk::kernels::stencil_wrong_extent({{1, 1}, {6, 6}}, a.view(), out.view()); },
        "planted_bugs.pyk:41:68: index 4 out of bounds for axis 1 of 'a' with size 4",
        "thread (1,3,0) of block (0,0,0) of kernel 'stencil_wrong_extent'");
  }
#ifdef PYK_TEST_CHECKED
  // Unchecked, the stray stores would go past the block's shared memory,
  // which on the CPU device is on a worker's stack.
  {
    Padded<float, 1> x({64}, ramp(64), fill), y({64}, {}, fill);
    expect(
        "shared_tile_overflow", [&] { pyk::kernels::shared_tile_overflow({1, 64}, x.view(), y.view()); },
        "planted_bugs.pyk:49:14: index 32 out of bounds for axis 0 of 'tile' with size 32",
        "thread (32,0,0) of block (0,0,0) of kernel 'shared_tile_overflow'");
  }
#endif
  {
    auto x = pyk::to_device(std::vector<std::int32_t>{10, 20, 30, 40});
    auto d = pyk::to_device(std::vector<std::int32_t>{2, 5, 0, 4});
    auto y = pyk::device_empty<std::int32_t>({4});
    expect(
        "divide_by_zero", [&] { pyk::kernels::divide_by_zero({1, 32}, x, d, y); },
        "planted_bugs.pyk:59:16: integer division by zero",
        "thread (2,0,0) of block (0,0,0) of kernel 'divide_by_zero'");
    std::vector<std::int32_t> quotients(4);
    y.copy_to_host(quotients);
    check("divide_by_zero: the other threads' results",
          quotients[0] == 5 && quotients[1] == 4 && quotients[2] == 0 && quotients[3] == 10);
    expect(
        "modulo_by_zero", [&] { pyk::kernels::modulo_by_zero({1, 32}, x, d, y); },
        "planted_bugs.pyk:66:16: integer modulo by zero",
        "thread (2,0,0) of block (0,0,0) of kernel 'modulo_by_zero'");
  }
  {
    auto x = pyk::to_device(std::vector<float>{1.0f, -2.0f, 3.0f});
    auto y = pyk::device_empty<float>({3});
    expect(
        "failed_assert", [&] { pyk::kernels::failed_assert({1, 32}, x, y); },
        "planted_bugs.pyk:73:9: assertion failed: x must be non-negative",
        "thread (1,0,0) of block (0,0,0) of kernel 'failed_assert'");
  }
  {
    Padded<float, 1> x({10}, ramp(10), fill), y({10}, {}, fill);
    expect(
        "device_function_past_the_end",
        [&] { pyk::kernels::device_function_past_the_end({1, 32}, x.view(), y.view()); },
        "planted_bugs.pyk:79:14: index 10 out of bounds for axis 0 of 'a' with size 10",
        "thread (9,0,0) of block (0,0,0) of kernel 'device_function_past_the_end'");
    expect(
        "loop_one_too_far", [&] { pyk::kernels::loop_one_too_far({1, 32}, x.view(), y.view()); },
        "planted_bugs.pyk:95:24: index 10 out of bounds for axis 0 of 'x' with size 10",
        "thread (0,0,0) of block (0,0,0) of kernel 'loop_one_too_far'");
  }
  {
    auto bins = pyk::to_device(std::vector<std::int32_t>{0, 3, 8, 2});
    Padded<std::int32_t, 1> counts({8}, std::vector<std::int32_t>(8, 0), 0);
    expect(
        "histogram_bin_overflow", [&] { pyk::kernels::histogram_bin_overflow({1, 32}, bins, counts.view()); },
        "planted_bugs.pyk:103:33: index 8 out of bounds for axis 0 of 'counts' with size 8",
        "thread (2,0,0) of block (0,0,0) of kernel 'histogram_bin_overflow'");
    check("histogram_bin_overflow: the stray increment", counts.paddingChanged(0) != checked);
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
