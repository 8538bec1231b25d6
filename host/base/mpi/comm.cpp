// What every build shares: the launcher's environment and the choice of GPU.
#include <cstdlib>
#include <string>

#include "host/base/mpi/comm.hpp"

namespace sp::dist {

int launcher_size(std::string* variable) {
  // OpenMPI's mpirun, then PMI (MPICH's hydra, Slurm's srun with --mpi=pmi2), then srun alone.
  // Slurm's job-wide SLURM_NTASKS is also set in the batch script itself, where selfplay runs as
  // one process: only a step's task count (set by srun) means ranks.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"}) {
    const char* value = std::getenv(name);
    if (!value || !*value) continue;
    char* end = nullptr;
    const long n = std::strtol(value, &end, 10);
    if (*end != '\0' || n < 1) continue;
    if (variable) *variable = name;
    return static_cast<int>(n);
  }
  return 1;
}

int pick_device(int node_rank, int device_count, int device_offset) {
  if (device_count <= 0) return 0;
  return (device_offset + node_rank) % device_count;
}

}  // namespace sp::dist
