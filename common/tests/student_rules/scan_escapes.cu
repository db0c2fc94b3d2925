// Use rule: one scan file with every escape the rule names, each in its own function so that each
// shows up as its own symbol: a file opened, the environment read, a thread, an exit handler, a
// shell command, a non-blocking stream, and a path into /proc. Each must be named as forbidden.
#include "scan.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace scan {

static void at_exit_hook() {}

FILE* open_results() { return std::fopen("build/results.json", "r"); }
const char* read_environment() { return std::getenv("PMPP_SEED"); }
void start_thread() {
    std::thread([] {}).detach();
}
int register_exit_hook() { return std::atexit(at_exit_hook); }
int run_shell() { return std::system("true"); }
cudaStream_t private_stream() {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
}
const char* maps_path() { return "/proc/self/maps"; }

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }
void exclusive_scan_student(const int*, int*, std::size_t, void*) {}

}  // namespace scan
