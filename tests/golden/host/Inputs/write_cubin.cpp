// Writes the cubin that a generated NAME.pyk.cpp embeds for the architecture
// argv[1] to stdout, as the runtime would hand it to the driver (its data
// and size in pyk_cubins), so that a test can compare it with ptxas's own.
// Compiled with -DKERNELS_CPP='"NAME.pyk.cpp"': the table is in that file's
// anonymous namespace, visible only in its translation unit.
#include KERNELS_CPP

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  for (const pyk::detail::CubinImage &image : pyk_cubins)
    if (std::strcmp(image.arch, argv[1]) == 0)
      return std::fwrite(image.data, 1, image.size, stdout) == image.size ? 0 : 1;
  std::fprintf(stderr, "no cubin for %s\n", argv[1]);
  return 1;
}
