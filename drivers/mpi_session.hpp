#pragma once
// The MPI side of a distributed sweep (CMake option LIBCONT_WITH_MPI). vicont joins MPI
// only when a launcher started it (mpirun sets OMPI_COMM_WORLD_SIZE, PMI_SIZE or
// PMIX_RANK); run by hand it is one process of rank 0, exactly as a build without MPI.
// Without LIBCONT_WITH_MPI this is that single process and nothing else.
#include <string>
#include <vector>

namespace vicont {

class MpiSession {
 public:
  MpiSession();   // MPI_Init_thread when launched under MPI
  ~MpiSession();  // MPI_Finalize
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }

  void barrier() const;
  // Every rank's text, in rank order, on rank 0 (empty elsewhere).
  std::vector<std::string> gather(const std::string& mine) const;
  // Whether every rank says ok (a collective: all ranks must call it).
  bool all(bool ok) const;
  // Ends every rank after an error on this one (a collective that others may be waiting
  // in would otherwise hang), with `exit_code`. Returns only in a single process.
  void abort_all(int exit_code) const;

 private:
  int rank_ = 0, size_ = 1;
  bool initialised_ = false;
};

}  // namespace vicont
