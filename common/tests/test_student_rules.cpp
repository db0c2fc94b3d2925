// The three rules on student files (common/student_rules.sh, run by common/common.mk): the link
// rule, the use rule and the include rule, on what the real build produces. Host only: nvcc
// compiles, nothing runs on a GPU, so CI runs these.
//
// Two parts:
//  - every exercise: its starter and its reference answer pass the link rule, and the starter is
//    clean, on the exercise's own build (as `make test` leaves it; skipped when not built);
//  - sneaky student files (common/tests/student_rules/), built by the real common.mk in a
//    sandbox copy of common/, 01_saxpy and 02_scan (their built objects copied along, so only the
//    student files compile): each must fail to link, be forbidden, or be clean, as its first
//    comment says. A file takes the student's place through STUDENT_SRCS on make's command line,
//    the variable the rules read.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Outcome {
    int status = -1;  // the command's exit status
    std::string output;  // stdout and stderr together
};

Outcome run(const std::string& command) {
    Outcome o;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr) return o;
    std::array<char, 4096> buffer;
    std::size_t got;
    while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) o.output.append(buffer.data(), got);
    const int raw = pclose(pipe);
    o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return o;
}

std::string shell_quoted(const std::string& s) { return "'" + s + "'"; }

bool has(const Outcome& o, const std::string& words) { return o.output.find(words) != std::string::npos; }

// A line of the output that holds all the given words ("" if none).
std::string line_with(const Outcome& o, const std::vector<std::string>& words) {
    std::size_t start = 0;
    while (start < o.output.size()) {
        std::size_t end = o.output.find('\n', start);
        if (end == std::string::npos) end = o.output.size();
        const std::string line = o.output.substr(start, end - start);
        bool all = true;
        for (const auto& w : words) all = all && line.find(w) != std::string::npos;
        if (all) return line;
        start = end + 1;
    }
    return "";
}

// The repository: this binary is common/build/tests.
fs::path repository() {
    static const fs::path root =
        fs::canonical(fs::read_symlink("/proc/self/exe")).parent_path().parent_path().parent_path();
    return root;
}

// make without the calling make's jobserver and flags (this runs under `make test`).
std::string make_in(const fs::path& folder) {
    const char* arch = std::getenv("ARCH");
    return "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C " + shell_quoted(folder.string()) +
           " ARCH=" + (arch != nullptr && *arch != '\0' ? arch : "sm_75");
}

std::string rules_script() { return shell_quoted((repository() / "common" / "student_rules.sh").string()); }

// build/obj/<path>.o, as common.mk names objects.
std::string object_of(const std::string& source) {
    std::string p = source;
    for (std::size_t at; (at = p.find("../")) != std::string::npos;) p.replace(at, 3, "__/");
    return "build/obj/" + p + ".o";
}

std::vector<std::string> words_of(const std::string& s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ') ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ') ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

std::string pairs_of(const std::string& sources) {
    std::string out;
    for (const auto& s : words_of(sources)) out += " " + shell_quoted(s + "=" + object_of(s));
    return out;
}

// ---- every exercise, on its own build -----------------------------------------------------------

std::vector<std::string> exercises() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(repository())) {
        const std::string n = e.path().filename().string();
        if (e.is_directory() && n.size() > 3 && std::isdigit(static_cast<unsigned char>(n[0])) &&
            std::isdigit(static_cast<unsigned char>(n[1])) && n[2] == '_' && fs::exists(e.path() / "Makefile"))
            names.push_back(n);
    }
    std::sort(names.begin(), names.end());
    return names;
}

// KEY=value lines of `make grading-info`.
std::map<std::string, std::string> grading_info(const fs::path& folder) {
    std::map<std::string, std::string> info;
    const Outcome o = run(make_in(folder) + " -s grading-info");
    std::size_t start = 0;
    while (start < o.output.size()) {
        std::size_t end = o.output.find('\n', start);
        if (end == std::string::npos) end = o.output.size();
        const std::string line = o.output.substr(start, end - start);
        const std::size_t eq = line.find('=');
        if (eq != std::string::npos) info[line.substr(0, eq)] = line.substr(eq + 1);
        start = end + 1;
    }
    return info;
}

class EveryExercise : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        folder_ = repository() / GetParam();
        info_ = grading_info(folder_);
        const std::string program = info_["PROGRAM"];
        if (program.empty() || !fs::exists(folder_ / "build" / "course_symbols.txt") ||
            !fs::exists(folder_ / "build" / program) || !fs::exists(folder_ / "build" / (program + "_solution")))
            GTEST_SKIP() << GetParam() << " is not built with the link rule (make -C " << GetParam() << " first)";
    }
    // student_rules.sh SUBCOMMAND ... in the exercise's folder.
    Outcome rules(const std::string& arguments) {
        return run("cd " + shell_quoted(folder_.string()) + " && bash " + rules_script() + " " + arguments);
    }
    fs::path folder_;
    std::map<std::string, std::string> info_;
};

TEST_P(EveryExercise, TheStarterPassesTheLinkRuleAndIsClean) {
    const std::string starter = pairs_of(info_["STUDENT_SRCS"]);
    const Outcome link =
        rules("link --course-symbols build/course_symbols.txt --api " + shell_quoted(info_["STUDENT_API"]) + starter);
    EXPECT_EQ(link.status, 0) << link.output;
    const Outcome interposition = rules("interposition --binary build/" + info_["PROGRAM"] +
                                        " --course-symbols build/course_symbols.txt" + starter);
    EXPECT_EQ(interposition.status, 0) << interposition.output;
    const Outcome clean = rules("forbidden --course-root .. --forbid " + shell_quoted(info_["FORBIDDEN_APIS"]) +
                                " --may-include " + shell_quoted(info_["STUDENT_MAY_INCLUDE"]) + " --may-call " +
                                shell_quoted(info_["STUDENT_MAY_CALL"]) + starter);
    EXPECT_EQ(clean.status, 0) << clean.output;
    EXPECT_TRUE(has(clean, "forbidden: clean")) << clean.output;
}

TEST_P(EveryExercise, TheReferenceAnswerInTheStudentsSlotPassesTheLinkRule) {
    const std::string answer = pairs_of(info_["SOLUTION_SRCS"]);
    const Outcome link =
        rules("link --course-symbols build/course_symbols.txt --api " + shell_quoted(info_["STUDENT_API"]) + answer);
    EXPECT_EQ(link.status, 0) << link.output;
    const Outcome interposition = rules("interposition --binary build/" + info_["PROGRAM"] +
                                        "_solution --course-symbols build/course_symbols.txt" + answer);
    EXPECT_EQ(interposition.status, 0) << interposition.output;
}

INSTANTIATE_TEST_SUITE_P(Exercises, EveryExercise, ::testing::ValuesIn(exercises()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// ---- sneaky files in a sandbox --------------------------------------------------------------------

const char* const kInputs = "../common/tests/student_rules/";

class StudentRules : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        char dir[] = "/tmp/pmpp_student_rules.XXXXXX";
        if (mkdtemp(dir) == nullptr) return;
        sandbox_ = dir;
        const fs::path root = repository();
        std::string log;
        auto step = [&](const std::string& command) {
            const Outcome o = run(command);
            log += "$ " + command + "\n" + o.output;
            return o.status == 0;
        };
        ready_ = step("cp -a " + shell_quoted((root / "common").string()) + " " +
                      shell_quoted((root / "01_saxpy").string()) + " " + shell_quoted((root / "02_scan").string()) +
                      " " + shell_quoted(sandbox_.string()));
        // The course objects (already built: copied, up to date) and the starters' programs.
        ready_ = ready_ && step(make_in(sandbox_ / "02_scan") + " -j2 build/scan") &&
                 step(make_in(sandbox_ / "01_saxpy") + " -j2 build/saxpy");
        // Every sneaky file's object at once (-k: one that does not compile fails its own test).
        std::string scans, saxpys;
        for (const auto& e : fs::directory_iterator(sandbox_ / "common" / "tests" / "student_rules")) {
            const std::string n = e.path().filename().string();
            if (e.path().extension() != ".cu") continue;
            (n.rfind("saxpy_", 0) == 0 ? saxpys : scans) += std::string(kInputs) + n + " ";
        }
        step(make_in(sandbox_ / "02_scan") + " -j2 -k forbidden STUDENT_SRCS=" + shell_quoted(scans));
        step(make_in(sandbox_ / "01_saxpy") + " -j2 -k forbidden STUDENT_SRCS=" + shell_quoted(saxpys));
        setup_log_ = log;
    }
    static void TearDownTestSuite() {
        if (!sandbox_.empty()) fs::remove_all(sandbox_);
    }
    void SetUp() override { ASSERT_TRUE(ready_) << "the sandbox could not be built:\n" << setup_log_; }

    // `make forbidden` with these files in the student's place (memoized: several tests read one run).
    static const Outcome& forbidden(const std::string& exercise, const std::string& files,
                                    const std::string& extra = "") {
        const std::string key = exercise + "|" + files + "|" + extra;
        auto it = runs_.find(key);
        if (it == runs_.end())
            it = runs_
                     .emplace(key, run(make_in(sandbox_ / exercise) + " forbidden STUDENT_SRCS=" + shell_quoted(files) +
                                       " " + extra))
                     .first;
        return it->second;
    }
    // Links the student's program with this file in the student's place (a fresh link every time).
    static Outcome link(const std::string& exercise, const std::string& program, const std::string& files) {
        const fs::path folder = sandbox_ / exercise;
        fs::remove(folder / "build" / program);
        return run(make_in(folder) + " build/" + program + " STUDENT_SRCS=" + shell_quoted(files));
    }
    static std::string input(const std::string& name) { return std::string(kInputs) + name; }

    static fs::path sandbox_;
    static bool ready_;
    static std::string setup_log_;
    static std::map<std::string, Outcome> runs_;
};

fs::path StudentRules::sandbox_;
bool StudentRules::ready_ = false;
std::string StudentRules::setup_log_;
std::map<std::string, Outcome> StudentRules::runs_;

// ---- the link rule ----

TEST_F(StudentRules, LinkRefusesAFileThatDefinesTheCoursesTimingSummary) {
    const Outcome o = link("02_scan", "scan", input("scan_replaces_summarize.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"error:", "scan_replaces_summarize.cu", "pmpp::summarize(", "common/stats.cpp"}), "")
        << o.output;
    EXPECT_FALSE(fs::exists(sandbox_ / "02_scan" / "build" / "scan"));
}

TEST_F(StudentRules, LinkRefusesAFileThatDefinesCheckResultFail) {
    const Outcome o = link("02_scan", "scan", input("scan_replaces_check_fail.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"error:", "pmpp::CheckResult::fail(", "common/check.cpp"}), "") << o.output;
}

TEST_F(StudentRules, LinkRefusesAFileThatDefinesARuntimeFunctionTheHarnessCalls) {
    const Outcome o = link("02_scan", "scan", input("scan_replaces_event_elapsed_time.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"error:", "cudaEventElapsedTime", "course code uses"}), "") << o.output;
}

TEST_F(StudentRules, LinkRefusesAFileThatInterposesClockGettime) {
    const Outcome o = link("02_scan", "scan", input("scan_interposes_clock_gettime.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"error:", "clock_gettime", "interposition"}), "") << o.output;
    EXPECT_FALSE(fs::exists(sandbox_ / "02_scan" / "build" / "scan")) << "a refused program must not stay behind";
}

TEST_F(StudentRules, LinkRefusesAFileThatInterposesMalloc) {
    const Outcome o = link("02_scan", "scan", input("scan_interposes_malloc.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"error:", "malloc", "interposition"}), "") << o.output;
}

TEST_F(StudentRules, LinkAcceptsAnHonestFileWithItsOwnKernelsAndHelpers) {
    const Outcome o = link("02_scan", "scan", input("scan_clean.cu"));
    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_TRUE(fs::exists(sandbox_ / "02_scan" / "build" / "scan"));
}

TEST_F(StudentRules, TheReferenceAnswerInTheStudentsSlotLinksAndIsRecognisedByMakeForbidden) {
    const fs::path folder = sandbox_ / "02_scan";
    fs::copy_file(folder / "harness" / "scan_solution.cu", folder / "scan_student.cu",
                  fs::copy_options::overwrite_existing);
    fs::remove(folder / "build" / "scan");
    const Outcome o = run(make_in(folder) + " build/scan forbidden");
    fs::copy_file(repository() / "02_scan" / "scan_student.cu", folder / "scan_student.cu",
                  fs::copy_options::overwrite_existing);
    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_TRUE(has(o, "scan_student.cu is the course's reference answer")) << o.output;
    EXPECT_TRUE(has(o, "forbidden: clean")) << o.output;
}

// ---- the use rule ----

TEST_F(StudentRules, UseRuleRefusesAScanThatCallsTheCubBaseline) {
    const Outcome& o = forbidden("02_scan", input("scan_calls_cub_reference.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"FORBIDDEN: ", "scan_calls_cub_reference.cu", "scan::exclusive_scan_cub(", "use rule"}), "")
        << o.output;
}

TEST_F(StudentRules, UseRuleRefusesASaxpyThatCallsTheVectorizedReference) {
    const Outcome& o = forbidden("01_saxpy", input("saxpy_calls_vectorized.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"FORBIDDEN: ", "saxpy::saxpy_vectorized(", "use rule"}), "") << o.output;
}

TEST_F(StudentRules, UseRuleRefusesTheLibraryBaselineItself) {
    const Outcome& o = forbidden("02_scan", "scan_cub.cu");
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"FORBIDDEN: ", "scan_cub.cu", "cub"}), "") << o.output;
}

TEST_F(StudentRules, ForbiddenLibraryIncludedOnlyUnderAMacroOfTheRealBuildIsSeen) {
    const Outcome& o = forbidden("02_scan", input("scan_thrust_under_build_macro.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"FORBIDDEN: ", "scan_thrust_under_build_macro.cu", "/thrust/", "forbidden library"}), "")
        << o.output;
}

TEST_F(StudentRules, ForbiddenLibraryBehindMacrosOfAHelperHeaderIsSeen) {
    const Outcome& o = forbidden("02_scan", input("scan_thrust_through_a_helper_header.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"FORBIDDEN: ", "/thrust/", "forbidden library"}), "") << o.output;
}

TEST_F(StudentRules, ForbiddenLibraryCooperativeGroupsScanIsSeen) {
    const Outcome& o = forbidden("02_scan", input("scan_cooperative_groups_scan.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"FORBIDDEN: ", "cooperative_groups", "cg-scan"}), "") << o.output;
}

// One file holds every escape; each must be named on its own line.
TEST_F(StudentRules, UseRuleRefusesOpeningAFile) {
    EXPECT_NE(line_with(forbidden("02_scan", input("scan_escapes.cu")), {"FORBIDDEN: ", "calls fopen", "file access"}),
              "");
}
TEST_F(StudentRules, UseRuleRefusesReadingTheEnvironment) {
    EXPECT_NE(line_with(forbidden("02_scan", input("scan_escapes.cu")), {"FORBIDDEN: ", "calls getenv", "environment"}),
              "");
}
TEST_F(StudentRules, UseRuleRefusesAThread) {
    EXPECT_NE(line_with(forbidden("02_scan", input("scan_escapes.cu")), {"FORBIDDEN: ", "std::thread", "threads"}), "");
}
TEST_F(StudentRules, UseRuleRefusesAnExitHandlerButNotNvccsOwnRegistration) {
    const Outcome& o = forbidden("02_scan", input("scan_escapes.cu"));
    EXPECT_NE(line_with(o, {"FORBIDDEN: ", "calls atexit", "exit paths"}), "") << o.output;
    // Every clean file's object also calls atexit, once, from nvcc's registration code.
    EXPECT_TRUE(has(forbidden("02_scan", input("scan_clean.cu")), "forbidden: clean"));
}
TEST_F(StudentRules, UseRuleRefusesAShellCommand) {
    EXPECT_NE(line_with(forbidden("02_scan", input("scan_escapes.cu")), {"FORBIDDEN: ", "calls system", "processes"}),
              "");
}
TEST_F(StudentRules, UseRuleRefusesANonBlockingStream) {
    EXPECT_NE(line_with(forbidden("02_scan", input("scan_escapes.cu")), {"FORBIDDEN: ", "cudaStreamCreateWithFlags"}),
              "");
}
TEST_F(StudentRules, UseRuleRefusesAPathIntoProc) {
    EXPECT_NE(line_with(forbidden("02_scan", input("scan_escapes.cu")), {"FORBIDDEN: ", "/proc/self/maps"}), "");
}

TEST_F(StudentRules, UseRuleAcceptsOwnKernelsVectorPrintfAndPlainCooperativeGroups) {
    for (const char* file : {"scan_clean.cu", "scan_clean_cooperative_groups.cu"}) {
        const Outcome& o = forbidden("02_scan", input(file));
        EXPECT_EQ(o.status, 0) << file << ":\n" << o.output;
        EXPECT_TRUE(has(o, "forbidden: clean")) << file << ":\n" << o.output;
        EXPECT_FALSE(has(o, "FORBIDDEN: ")) << file << ":\n" << o.output;
    }
}

TEST_F(StudentRules, UseRuleAcceptsCallsBetweenStudentFilesAndWhatStudentMayCallNames) {
    const std::string helper = input("scan_helper_calls_the_students_scan.cu");
    EXPECT_EQ(forbidden("02_scan", "scan_student.cu " + helper).status, 0)
        << forbidden("02_scan", "scan_student.cu " + helper).output;
    const Outcome& alone = forbidden("02_scan", helper);
    EXPECT_NE(line_with(alone, {"FORBIDDEN: ", "scan::exclusive_scan_student("}), "") << alone.output;
    const Outcome& allowed = forbidden("02_scan", helper, "STUDENT_MAY_CALL=scan::exclusive_scan_student");
    EXPECT_EQ(allowed.status, 0) << allowed.output;
}

// ---- the include rule ----

TEST_F(StudentRules, IncludeRuleRefusesTheReferencesBlockScanPrimitives) {
    const Outcome& o = forbidden("02_scan", input("scan_includes_primitives.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"FORBIDDEN: ", "includes common/primitives/scan.cuh", "include rule"}), "") << o.output;
}

TEST_F(StudentRules, IncludeRuleRefusesTheHarnessHeader) {
    const Outcome& o = forbidden("02_scan", input("scan_includes_exercise_h.cu"));
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(line_with(o, {"FORBIDDEN: ", "includes common/exercise.h", "include rule"}), "") << o.output;
}

// ---- exit statuses of the check itself (the grader tells "forbidden" from "build failed" by them) ----

TEST_F(StudentRules, CheckExitsWithFiveOnAViolationAndZeroWhenClean) {
    const fs::path folder = sandbox_ / "02_scan";
    const std::string common = " --course-root .. --forbid thrust,cub --may-include scan.h ";
    const Outcome bad = run("cd " + shell_quoted(folder.string()) + " && bash " + rules_script() + " forbidden" +
                            common + pairs_of(input("scan_calls_cub_reference.cu")));
    EXPECT_EQ(bad.status, 5) << bad.output;
    const Outcome good = run("cd " + shell_quoted(folder.string()) + " && bash " + rules_script() + " forbidden" +
                             common + pairs_of(input("scan_clean.cu")));
    EXPECT_EQ(good.status, 0) << good.output;
}

TEST_F(StudentRules, CheckExitsWithTwoAndSaysSoWhenAnObjectIsMissing) {
    const Outcome o = run("cd " + shell_quoted((sandbox_ / "02_scan").string()) + " && bash " + rules_script() +
                          " forbidden --course-root .. 'nowhere.cu=build/obj/nowhere.cu.o'");
    EXPECT_EQ(o.status, 2) << o.output;
    EXPECT_TRUE(has(o, "missing")) << o.output;
    EXPECT_FALSE(has(o, "FORBIDDEN: ")) << o.output;
}

}  // namespace
