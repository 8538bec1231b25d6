// The processes of one run and the messages between them. A run started by an MPI launcher
// (mpirun, srun) with several ranks talks over MPI; every other run is one process and sends
// nothing. Only host/base/mpi/comm_mpi.cpp includes mpi.h: the rest of the program sees this
// header.
//
// Every call is made from the thread that called init() (MPI_THREAD_FUNNELED), and none blocks:
// OpenMPI's blocking calls busy-poll a core that the rollouts need, so callers poll receive() from
// their own loop and sleep when idle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sp::dist {

// How many processes the launcher of this process started, read from its environment
// (OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_STEP_NUM_TASKS); 1 without a launcher. `variable` gets the
// name of the variable that said so.
int launcher_size(std::string* variable = nullptr);

// Whether this binary was built with MPI (CMake option SELFPLAY_MPI).
bool built_with_mpi();

// Starts MPI when this process is one of several ranks of a launcher, and does nothing otherwise
// (so a single process, or `mpirun -np 1`, runs exactly as without MPI). Throws InputError when
// several ranks were launched but MPI support was not built. Call once, first thing in main.
void init(int& argc, char**& argv);
// Ends MPI if init() started it. abort(): ends every rank of the run with `code` (after an error
// on one rank that the others would otherwise wait for).
void finalize();
[[noreturn]] void abort(int code);

struct Message {
  int source = 0;
  int tag = 0;
  std::vector<std::byte> data;
};

// This process's place in the run: rank 0 of 1 without MPI.
int rank();
int size();
// Rank among the processes on this machine, and how many there are (for picking GPUs).
int node_rank();
int node_size();

// Two independent streams of messages (two MPI communicators): a run's own (its dealer, kRun), and
// that of a loop of runs around it (selfplay improve's step orders, kLoop), so that neither reader
// takes the other's messages. Order holds within a channel only.
enum class Channel { kRun = 0, kLoop = 1 };

// Sends data to rank `dest` without blocking; the bytes are kept until MPI has delivered them.
void send(int dest, int tag, std::vector<std::byte> data, Channel channel = Channel::kRun);
// A message that has arrived on `channel`, if any; never blocks. Messages from one rank arrive in
// the order they were sent.
std::optional<Message> receive(Channel channel = Channel::kRun);
// Whether sends are still undelivered (they are completed by this call, send() and receive()).
bool sends_pending();

// The GPU a rank uses: device_offset + node_rank, modulo the devices it sees (0 when it sees
// none). Ranks on one machine thus take distinct GPUs while there are enough; with one device
// visible per rank (Slurm's --gpus-per-task=1) every rank takes its own device 0.
int pick_device(int node_rank, int device_count, int device_offset);

// Bytes of a trivially copyable value, and back.
template <class T>
void put(std::vector<std::byte>& out, const T& value) {
  const auto* p = reinterpret_cast<const std::byte*>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}
template <class T>
T get(const std::vector<std::byte>& in, size_t& offset) {
  if (offset + sizeof(T) > in.size()) throw std::runtime_error("dist: a message is too short");
  T value;
  std::memcpy(&value, in.data() + offset, sizeof(T));
  offset += sizeof(T);
  return value;
}

}  // namespace sp::dist
