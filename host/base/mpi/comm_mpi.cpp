// A build with MPI: the only file that includes mpi.h.
#include <mpi.h>

#include <cstdlib>
#include <list>
#include <stdexcept>
#include <string>
#include <utility>

#include "host/base/mpi/comm.hpp"

namespace sp::dist {
namespace {

bool g_started = false;
int g_rank = 0, g_size = 1, g_node_rank = 0, g_node_size = 1;
// Channel::kRun is MPI_COMM_WORLD, Channel::kLoop a duplicate of it.
MPI_Comm g_loop = MPI_COMM_NULL;

MPI_Comm comm_of(Channel channel) { return channel == Channel::kLoop ? g_loop : MPI_COMM_WORLD; }

struct PendingSend {
  MPI_Request request = MPI_REQUEST_NULL;
  std::vector<std::byte> data;  // kept until the request completes
};
std::list<PendingSend> g_sends;

// Errors come back as codes (MPI_ERRORS_RETURN) and are thrown with the call that failed.
void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error("rank " + std::to_string(g_rank) + ": " + call +
                           " failed: " + std::string(text, static_cast<size_t>(length)));
}

void complete_sends() {
  for (auto it = g_sends.begin(); it != g_sends.end();) {
    int done = 0;
    check(MPI_Test(&it->request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    it = done ? g_sends.erase(it) : std::next(it);
  }
}

}  // namespace

bool built_with_mpi() { return true; }

void init(int& argc, char**& argv) {
  if (launcher_size() <= 1) return;  // one process: exactly the run without MPI
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  g_started = true;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &g_size), "MPI_Comm_size");
  MPI_Comm node;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  check(MPI_Comm_rank(node, &g_node_rank), "MPI_Comm_rank");
  check(MPI_Comm_size(node, &g_node_size), "MPI_Comm_size");
  MPI_Comm_free(&node);
  check(MPI_Comm_dup(MPI_COMM_WORLD, &g_loop), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(g_loop, MPI_ERRORS_RETURN);
}

void finalize() {
  if (!g_started) return;
  // Sends still undelivered go to a rank that is gone (a stopped run): cancel them rather than
  // wait forever in MPI_Finalize.
  for (PendingSend& s : g_sends) {
    MPI_Cancel(&s.request);
    MPI_Request_free(&s.request);
  }
  g_sends.clear();
  MPI_Comm_free(&g_loop);
  MPI_Finalize();
  g_started = false;
}

void abort(int code) {
  if (g_started) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

int rank() { return g_rank; }
int size() { return g_size; }
int node_rank() { return g_node_rank; }
int node_size() { return g_node_size; }

void send(int dest, int tag, std::vector<std::byte> data, Channel channel) {
  if (!g_started) throw std::logic_error("dist::send without MPI started");
  PendingSend& s = g_sends.emplace_back();
  s.data = std::move(data);
  check(MPI_Isend(s.data.data(), static_cast<int>(s.data.size()), MPI_BYTE, dest, tag,
                  comm_of(channel), &s.request),
        "MPI_Isend");
  complete_sends();
}

std::optional<Message> receive(Channel channel) {
  if (!g_started) return std::nullopt;
  complete_sends();
  int flag = 0;
  MPI_Status status;
  // Any source and any tag: messages of one rank are then taken in the order they were sent.
  const MPI_Comm comm = comm_of(channel);
  check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &status), "MPI_Iprobe");
  if (!flag) return std::nullopt;
  int count = 0;
  check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
  Message m;
  m.source = status.MPI_SOURCE;
  m.tag = status.MPI_TAG;
  m.data.resize(static_cast<size_t>(count));
  check(MPI_Recv(m.data.data(), count, MPI_BYTE, m.source, m.tag, comm, MPI_STATUS_IGNORE),
        "MPI_Recv");
  return m;
}

bool sends_pending() {
  if (g_started) complete_sends();
  return !g_sends.empty();
}

}  // namespace sp::dist
