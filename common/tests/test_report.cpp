#include "common/report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <unistd.h>

using namespace pmpp;

TEST(Table, AlignsColumnsAndDrawsRules) {
    Table t({"impl", "ms"}, {Table::Align::Left, Table::Align::Right});
    t.add_row({"naive", "1.5"});
    t.add_rule();
    t.add_row({"vectorized", "0.25"});
    const std::string s = t.str();
    EXPECT_NE(s.find("impl          ms\n"), std::string::npos) << s;
    EXPECT_NE(s.find("naive        1.5\n"), std::string::npos) << s;
    EXPECT_NE(s.find("vectorized  0.25\n"), std::string::npos) << s;
    EXPECT_EQ(t.rows(), 3u);
}

TEST(Format, BehavesLikePrintf) {
    EXPECT_EQ(format("%d-%s-%.2f", 7, "x", 1.005), "7-x-1.00");
    EXPECT_EQ(format("%s", std::string(500, 'a').c_str()).size(), 500u);
}

TEST(Files, AtomicWriteReplacesContentWhole) {
    const std::string path = ::testing::TempDir() + "pmpp_atomic_" + std::to_string(::getpid());
    write_file_atomically(path, "first");
    write_file_atomically(path, "second");
    EXPECT_EQ(read_file(path), "second");
    std::remove(path.c_str());
    EXPECT_THROW(read_file(path), std::runtime_error);
}
