#include "mpi_session.hpp"

#include <cstdlib>

#ifdef LIBCONT_WITH_MPI
#include <mpi.h>
#endif

namespace vicont {

#ifdef LIBCONT_WITH_MPI

namespace {

// Set by mpirun/mpiexec (OpenMPI, MPICH/Hydra, PMIx launchers such as srun).
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

}  // namespace

MpiSession::MpiSession() {
  if (!launched_by_mpi()) return;
  int provided = 0;
  // Only the main thread talks to MPI; the worker threads of the sweep never do.
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  initialised_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  if (initialised_) MPI_Finalize();
}

void MpiSession::barrier() const {
  if (initialised_) MPI_Barrier(MPI_COMM_WORLD);
}

std::vector<std::string> MpiSession::gather(const std::string& mine) const {
  if (!initialised_) return {mine};
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<size_t>(size_)), offsets(static_cast<size_t>(size_));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (root()) {
    int total = 0;
    for (int r = 0; r < size_; ++r) {
      offsets[static_cast<size_t>(r)] = total;
      total += lengths[static_cast<size_t>(r)];
    }
    all.resize(static_cast<size_t>(total));
  }
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  std::vector<std::string> texts;
  if (root())
    for (int r = 0; r < size_; ++r)
      texts.push_back(all.substr(static_cast<size_t>(offsets[static_cast<size_t>(r)]),
                                 static_cast<size_t>(lengths[static_cast<size_t>(r)])));
  return texts;
}

bool MpiSession::all(bool ok) const {
  if (!initialised_) return ok;
  int mine = ok ? 1 : 0, every = 0;
  MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return every == 1;
}

void MpiSession::abort_all(int exit_code) const {
  if (initialised_ && size_ > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
}

#else  // one process, no MPI

MpiSession::MpiSession() = default;
MpiSession::~MpiSession() = default;
void MpiSession::barrier() const {}
std::vector<std::string> MpiSession::gather(const std::string& mine) const { return {mine}; }
bool MpiSession::all(bool ok) const { return ok; }
void MpiSession::abort_all(int) const {}

#endif

}  // namespace vicont
