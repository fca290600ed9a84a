// Jacobi iteration over MPI processes, each on a device of its own: every
// process owns a slab of the grid's rows, runs examples/jacobi's pyk kernel
// on it, and trades its edge rows with the processes above and below after
// each step (the halo rows each slab keeps of its neighbours'). Between GPUs
// the rows go through NCCL, straight from device memory and queued on the
// pyk stream; otherwise (CPU devices, or no NCCL) through MPI, copied to and
// from page-locked host buffers. Rank 0 gathers the slabs and checks them
// against the same steps on the whole grid in one process: the same float
// operations on the same values, so the results must be equal bit for bit.
//
//   mpirun -np 4 distributed_jacobi [ROWS COLS STEPS] [--time-only] [--mpi-halos]
//
// --time-only skips the one-process check and prints only the time per step
// (bench/distributed_jacobi/run measures scaling with it). --mpi-halos
// trades the rows through MPI on host buffers between GPUs too.
#include "jacobi.pyk.h"

#include <mpi.h>
#if PYK_EXAMPLE_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>
#endif

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace {

/// The grid's rows at the start: a hot top edge, a warm left edge, the
/// rest cold. Rows 0 and rows - 1, and columns 0 and cols - 1, never change.
std::vector<float> initialRows(std::int64_t first, std::int64_t count, std::int64_t cols) {
  std::vector<float> rows(static_cast<std::size_t>(count * cols), 0.0f);
  for (std::int64_t r = 0; r < count; ++r) {
    const std::int64_t row = first + r;
    for (std::int64_t j = 0; j < cols; ++j)
      rows[static_cast<std::size_t>(r * cols + j)] = row == 0 ? 100.0f : j == 0 ? 50.0f : 0.0f;
  }
  return rows;
}

pyk::Launch launchFor(std::int64_t rows, std::int64_t cols, pyk::Stream *stream) {
  return {{(cols + 15) / 16, (rows + 15) / 16}, {16, 16}, 0, stream}; // x: columns
}

/// `steps` steps on the whole grid in this process: the result a slab
/// decomposition must reproduce.
std::vector<float> oneProcessResult(std::int64_t rows, std::int64_t cols, int steps) {
  const std::vector<float> grid = initialRows(0, rows, cols);
  auto a = pyk::to_device(grid, {rows, cols}), b = pyk::to_device(grid, {rows, cols});
  for (int step = 0; step < steps; ++step) {
    pyk::kernels::jacobi_step(launchFor(rows, cols, nullptr), a, b);
    std::swap(a, b);
  }
  std::vector<float> result(grid.size());
  a.copy_to_host(result);
  return result;
}

/// Trades edge rows with the neighbours (MPI_PROC_NULL: none, the grid's
/// own edge) through host memory: the edge rows the kernel just wrote go
/// to them, theirs come into the halo rows, behind the kernel on `stream`.
class HostHaloExchange {
public:
  explicit HostHaloExchange(std::int64_t cols)
      : cols_(cols), sendUp_(cols), sendDown_(cols), fromUp_(cols), fromDown_(cols) {}

  void exchange(pyk::DeviceArray<float, 2> &slab, int up, int down, pyk::Stream &stream) {
    const std::int64_t last = slab.shape(0) - 1;
    slab.slice(1, 2).copy_to_host_async(sendUp_.data(), sendUp_.size(), stream);
    slab.slice(last - 1, last).copy_to_host_async(sendDown_.data(), sendDown_.size(), stream);
    stream.synchronize(); // the kernel has run and the rows are here
    const int count = static_cast<int>(cols_);
    MPI_Sendrecv(sendUp_.data(), count, MPI_FLOAT, up, 0, fromDown_.data(), count, MPI_FLOAT, down, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(sendDown_.data(), count, MPI_FLOAT, down, 1, fromUp_.data(), count, MPI_FLOAT, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    // The next step's kernel queues behind these copies; the next exchange
    // synchronises before MPI writes the buffers again.
    if (up != MPI_PROC_NULL)
      slab.slice(0, 1).copy_from_host_async(fromUp_.data(), fromUp_.size(), stream);
    if (down != MPI_PROC_NULL)
      slab.slice(last, last + 1).copy_from_host_async(fromDown_.data(), fromDown_.size(), stream);
  }

private:
  std::int64_t cols_;
  pyk::PinnedBuffer<float> sendUp_, sendDown_, fromUp_, fromDown_;
};

#if PYK_EXAMPLE_HAVE_NCCL
void ncclCheck(ncclResult_t result, const char *call) {
  if (result != ncclSuccess) {
    std::fprintf(stderr, "distributed_jacobi: %s failed: %s\n", call, ncclGetErrorString(result));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

/// The same trade between GPUs through NCCL: device memory to device
/// memory, queued on the pyk stream behind the kernel, with no host wait.
class NcclHaloExchange {
public:
  NcclHaloExchange(int rank, int ranks) {
    ncclUniqueId id;
    if (rank == 0)
      ncclCheck(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    // NCCL's GPU is the CUDA runtime's current one: pyk's device g is CUDA's ordinal g.
    if (cudaSetDevice(pyk::get_device()) != cudaSuccess) {
      std::fprintf(stderr, "distributed_jacobi: cudaSetDevice(%d) failed\n", pyk::get_device());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    ncclCheck(ncclCommInitRank(&comm_, ranks, id, rank), "ncclCommInitRank");
  }
  ~NcclHaloExchange() { ncclCommDestroy(comm_); }
  NcclHaloExchange(const NcclHaloExchange &) = delete;
  NcclHaloExchange &operator=(const NcclHaloExchange &) = delete;

  void exchange(pyk::DeviceArray<float, 2> &slab, int up, int down, pyk::Stream &stream) {
    const std::int64_t last = slab.shape(0) - 1;
    const auto cols = static_cast<std::size_t>(slab.shape(1));
    const auto native = static_cast<cudaStream_t>(stream.native());
    ncclCheck(ncclGroupStart(), "ncclGroupStart");
    if (up != MPI_PROC_NULL) {
      ncclCheck(ncclSend(slab.slice(1, 2).data(), cols, ncclFloat, up, comm_, native), "ncclSend");
      ncclCheck(ncclRecv(slab.slice(0, 1).data(), cols, ncclFloat, up, comm_, native), "ncclRecv");
    }
    if (down != MPI_PROC_NULL) {
      ncclCheck(ncclSend(slab.slice(last - 1, last).data(), cols, ncclFloat, down, comm_, native), "ncclSend");
      ncclCheck(ncclRecv(slab.slice(last, last + 1).data(), cols, ncclFloat, down, comm_, native), "ncclRecv");
    }
    ncclCheck(ncclGroupEnd(), "ncclGroupEnd");
  }

private:
  ncclComm_t comm_ = nullptr;
};
#endif

/// The interior rows a rank owns, [begin, end): an even share of rows
/// 1 to rows - 2.
std::pair<std::int64_t, std::int64_t> slabOf(int rank, int ranks, std::int64_t rows) {
  const std::int64_t interior = rows - 2;
  return {1 + interior * rank / ranks, 1 + interior * (rank + 1) / ranks};
}

struct Options {
  std::int64_t rows = 258, cols = 130;
  int steps = 400;
  bool timeOnly = false, mpiHalos = false;
};

/// The options of the command line; false if it has others.
bool parse(int argc, char **argv, Options &options) {
  std::vector<long long> numbers;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--time-only") == 0)
      options.timeOnly = true;
    else if (std::strcmp(argv[i], "--mpi-halos") == 0)
      options.mpiHalos = true;
    else if (argv[i][0] == '-' && !std::isdigit(static_cast<unsigned char>(argv[i][1])))
      return false;
    else
      numbers.push_back(std::atoll(argv[i]));
  }
  if (numbers.empty())
    return true;
  if (numbers.size() != 3 || numbers[2] > INT_MAX)
    return false;
  options.rows = numbers[0];
  options.cols = numbers[1];
  options.steps = static_cast<int>(numbers[2]);
  return true;
}

/// The slabs' steps, timed, then (unless timeOnly) rank 0's check; the
/// status main returns.
int run(int rank, int ranks, const Options &options) {
  const std::int64_t rows = options.rows, cols = options.cols;
  const int steps = options.steps;
  // The processes on one machine share its devices, one each in turn.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int nodeRank = 0;
  MPI_Comm_rank(node, &nodeRank);
  MPI_Comm_free(&node);
  pyk::set_device(nodeRank % pyk::device_count());

  int onGpu = pyk::current_device() == pyk::DeviceKind::Cuda, allOnGpus = 0;
  MPI_Allreduce(&onGpu, &allOnGpus, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  const bool throughNccl = PYK_EXAMPLE_HAVE_NCCL && allOnGpus && !options.mpiHalos;

  // This rank's rows, with a halo row above and below: the neighbours'
  // edge rows, or the grid's fixed edge at the top and bottom.
  const auto [begin, end] = slabOf(rank, ranks, rows);
  const std::int64_t slabRows = end - begin + 2;
  const std::vector<float> start = initialRows(begin - 1, slabRows, cols);
  auto a = pyk::to_device(start, {slabRows, cols}), b = pyk::to_device(start, {slabRows, cols});
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank + 1 < ranks ? rank + 1 : MPI_PROC_NULL;

  pyk::Stream stream;
  HostHaloExchange hostHalos(cols);
#if PYK_EXAMPLE_HAVE_NCCL
  std::optional<NcclHaloExchange> ncclHalos;
  if (throughNccl)
    ncclHalos.emplace(rank, ranks);
#endif
  const auto exchangeHalos = [&](pyk::DeviceArray<float, 2> &slab) {
#if PYK_EXAMPLE_HAVE_NCCL
    if (ncclHalos)
      return ncclHalos->exchange(slab, up, down, stream);
#endif
    hostHalos.exchange(slab, up, down, stream);
  };

  MPI_Barrier(MPI_COMM_WORLD);
  const double started = MPI_Wtime();
  for (int step = 0; step < steps; ++step) {
    pyk::kernels::jacobi_step(launchFor(slabRows, cols, &stream), a, b);
    exchangeHalos(b);
    std::swap(a, b);
  }
  stream.synchronize();
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - started;

  const char *halos = throughNccl ? "NCCL between GPUs" : "MPI on host buffers";
  if (options.timeOnly) {
    if (rank == 0)
      std::printf("distributed_jacobi: %d process%s, %lld x %lld, %d steps: %.4f ms per step (halos through %s)\n",
                  ranks, ranks == 1 ? "" : "es", static_cast<long long>(rows), static_cast<long long>(cols), steps,
                  1e3 * seconds / std::max(steps, 1), halos);
    return 0;
  }

  // Rank 0 gathers every slab's interior rows into the whole grid.
  std::vector<float> interior(static_cast<std::size_t>((end - begin) * cols));
  a.slice(1, slabRows - 1).copy_to_host(interior);
  std::vector<int> counts(static_cast<std::size_t>(ranks)), offsets(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    const auto [first, after] = slabOf(r, ranks, rows);
    counts[static_cast<std::size_t>(r)] = static_cast<int>((after - first) * cols);
    offsets[static_cast<std::size_t>(r)] = static_cast<int>(first * cols);
  }
  std::vector<float> whole = rank == 0 ? initialRows(0, rows, cols) : std::vector<float>();
  MPI_Gatherv(interior.data(), static_cast<int>(interior.size()), MPI_FLOAT, whole.data(), counts.data(),
              offsets.data(), MPI_FLOAT, 0, MPI_COMM_WORLD);

  int status = 0;
  if (rank == 0) {
    const std::vector<float> expected = oneProcessResult(rows, cols, steps);
    const bool equal = std::memcmp(whole.data(), expected.data(), whole.size() * sizeof(float)) == 0;
    std::printf("distributed_jacobi: %d process%s on %s, %lld x %lld, %d steps, halos through %s: %.4f ms per "
                "step; centre %.6f. Are results equal: %s\n",
                ranks, ranks == 1 ? "" : "es", pyk::device_name().c_str(), static_cast<long long>(rows),
                static_cast<long long>(cols), steps, halos, 1e3 * seconds / std::max(steps, 1),
                static_cast<double>(whole[static_cast<std::size_t>((rows / 2) * cols + cols / 2)]),
                equal ? "True" : "False");
    status = equal ? 0 : 1;
  }
  return status;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Options options;
  const bool parsed = parse(argc, argv, options);
  const std::int64_t rows = options.rows, cols = options.cols;
  // MPI counts elements in int: the gathered grid must fit one.
  if (!parsed || rows < ranks + 2 || cols < 3 || options.steps < 0 || (!options.timeOnly && rows > INT_MAX / cols)) {
    if (rank == 0)
      std::fprintf(stderr, "usage: mpirun -np P distributed_jacobi [ROWS COLS STEPS] [--time-only] [--mpi-halos]\n"
                           "a row per process besides the two edges, 3 columns or more, steps >= 0, and (to gather the "
                           "grid) fewer than 2^31 points\n");
    MPI_Finalize();
    return 2;
  }
  int status = 1;
  try {
    status = run(rank, ranks, options);
  } catch (const pyk::Error &error) {
    // One process's error ends them all, which would otherwise wait for it.
    std::fprintf(stderr, "distributed_jacobi: process %d: %s\n", rank, error.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
