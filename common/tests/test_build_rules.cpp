// The build follows the toolchain (common/common.mk, build/toolchain.txt): an object built with
// one ARCH is rebuilt for another, is left alone when nothing changed, and a dry run writes
// nothing. A folder of one C++ file that includes common.mk, built with g++ only: no GPU, no nvcc
// run.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// The repository: three folders up from common/build/tests.
fs::path repository() {
    static const fs::path root =
        fs::canonical(fs::read_symlink("/proc/self/exe")).parent_path().parent_path().parent_path();
    return root;
}

std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

class BuildRules : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("pmpp_build_rules_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        std::ofstream(dir_ / "one.cpp") << "int one() { return 1; }\n";
        // PMPP_COMMON_ONLY: the compile rules and the toolchain stamp, none of an exercise's programs.
        std::ofstream(dir_ / "Makefile") << "PMPP_COMMON_ONLY := 1\ninclude "
                                         << (repository() / "common" / "common.mk").string()
                                         << "\nall: build/obj/one.cpp.o\n";
    }
    void TearDown() override { fs::remove_all(dir_); }

    // make's exit status in the folder; `flags` before the target (e.g. "-q ARCH=sm_75").
    int make(const std::string& flags) const {
        const std::string cmd = "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s -C '" +
                                dir_.string() + "' " + flags + " all >/dev/null 2>&1";
        const int status = std::system(cmd.c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    fs::path dir_;
};

}  // namespace

TEST_F(BuildRules, AnObjectBuiltForOneArchIsRebuiltForAnotherAndKeptForTheSame) {
    ASSERT_EQ(make("ARCH=sm_90"), 0);
    EXPECT_NE(read(dir_ / "build" / "toolchain.txt").find("ARCH=sm_90"), std::string::npos);
    EXPECT_EQ(make("-q ARCH=sm_90"), 0) << "nothing changed, yet make wants to rebuild";
    EXPECT_EQ(make("-q ARCH=sm_75"), 1) << "ARCH changed, yet the objects count as up to date";
    ASSERT_EQ(make("ARCH=sm_75"), 0);
    EXPECT_NE(read(dir_ / "build" / "toolchain.txt").find("ARCH=sm_75"), std::string::npos);
    EXPECT_EQ(make("-q ARCH=sm_75"), 0);
}

TEST_F(BuildRules, ChangingTheCompilerFlagsRebuildsToo) {
    ASSERT_EQ(make("ARCH=sm_90"), 0);
    EXPECT_EQ(make("-q ARCH=sm_90 CXXFLAGS_EXTRA=-DPMPP_SOMETHING"), 1);
}

TEST_F(BuildRules, ADryRunWritesNothing) {
    ASSERT_EQ(make("-n ARCH=sm_90"), 0);
    EXPECT_FALSE(fs::exists(dir_ / "build")) << "make -n created build/";
}
