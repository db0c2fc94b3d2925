// PhaseClock: the phases' times from a clock the test moves by hand.
#include "common/phase_clock.h"

#include <gtest/gtest.h>

namespace pmpp {
namespace {

struct HandClock {
    double t = 100.0;
    PhaseClock::Now now() {
        return [this] { return t; };
    }
};

TEST(PhaseClock, EachPhaseLastsUntilTheNextOneStartsAndTheFirstIsStartUp) {
    HandClock c;
    PhaseClock clock(c.now());
    c.t += 0.5;
    clock.enter("the inputs and the CPU's answer of u32 n=5");
    c.t += 2.0;
    clock.enter("student on u32 n=5");
    c.t += 1.0;
    clock.leave();
    c.t += 0.25;
    const auto p = clock.phases();
    ASSERT_EQ(p.size(), 4u);
    EXPECT_EQ(p[0].what, "start-up");
    EXPECT_DOUBLE_EQ(p[0].seconds, 0.5);
    EXPECT_EQ(p[1].what, "the inputs and the CPU's answer of u32 n=5");
    EXPECT_DOUBLE_EQ(p[1].seconds, 2.0);
    EXPECT_EQ(p[2].what, "student on u32 n=5");
    EXPECT_DOUBLE_EQ(p[2].seconds, 1.0);
    EXPECT_EQ(p[3].what, "between phases");  // the one under way, up to now
    EXPECT_DOUBLE_EQ(p[3].seconds, 0.25);
}

TEST(PhaseClock, AKindIsThePhaseNameBeforeItsCaseOrSize) {
    EXPECT_EQ(PhaseClock::kind_of("the inputs and the CPU's answer of u32 keys n=2049"),
              "the inputs and the CPU's answer");
    EXPECT_EQ(PhaseClock::kind_of("student on u32 keys n=2049"), "student");
    EXPECT_EQ(PhaseClock::kind_of("cub benchmark at n=2^24"), "cub");
    EXPECT_EQ(PhaseClock::kind_of("the copy bandwidth"), "the copy bandwidth");
}

TEST(PhaseClock, TheSummaryAddsUpEachKindAndListsTheLongestPhaseFirst) {
    HandClock c;
    PhaseClock clock(c.now());
    for (int i = 0; i < 3; ++i) {
        clock.enter("the inputs and the CPU's answer of case " + std::to_string(i));
        c.t += 1.0;
        clock.enter("student on case " + std::to_string(i));
        c.t += i == 2 ? 7.0 : 0.5;
    }
    clock.leave();
    const std::string s = clock.summary(2);
    EXPECT_NE(s.find("phases: 11.000 s in all"), std::string::npos) << s;
    EXPECT_NE(s.find("8.000 s  student (3)"), std::string::npos) << s;
    EXPECT_NE(s.find("3.000 s  the inputs and the CPU's answer (3)"), std::string::npos) << s;
    const std::size_t longest = s.find("longest:");
    ASSERT_NE(longest, std::string::npos);
    const std::size_t first = s.find("7.000 s  student on case 2", longest);
    const std::size_t second = s.find("1.000 s  the inputs and the CPU's answer of case 0", longest);
    EXPECT_NE(first, std::string::npos) << s;
    EXPECT_NE(second, std::string::npos) << s;
    EXPECT_LT(first, second);
    EXPECT_EQ(s.find("student on case 0", longest), std::string::npos) << "only the 2 longest: " << s;
}

}  // namespace
}  // namespace pmpp
