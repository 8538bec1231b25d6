// A build without MPI: one process, which sends nothing.
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "host/base/mpi/comm.hpp"

namespace sp::dist {

bool built_with_mpi() { return false; }

void init(int&, char**&) {
  std::string variable;
  if (const int n = launcher_size(&variable); n > 1)
    throw InputError("started as one of " + std::to_string(n) + " ranks (" + variable + "=" +
                     std::to_string(n) +
                     "), but this selfplay was built without MPI support: rebuild with "
                     "-DSELFPLAY_MPI=ON (needs libopenmpi-dev), or run one process");
}
void finalize() {}
void abort(int code) { std::exit(code); }

int rank() { return 0; }
int size() { return 1; }
int node_rank() { return 0; }
int node_size() { return 1; }

void send(int dest, int, std::vector<std::byte>, Channel) {
  throw std::logic_error("dist::send to rank " + std::to_string(dest) + " in a single process");
}
std::optional<Message> receive(Channel) { return std::nullopt; }
bool sends_pending() { return false; }

}  // namespace sp::dist
