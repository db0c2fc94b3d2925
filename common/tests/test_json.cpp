#include "common/json.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace pmpp;

TEST(Json, RoundTripsNestedValues) {
    Json j = Json::object();
    j.set("name", "saxpy \"quoted\"\n");
    j.set("n", 268435456);
    j.set("ms", 0.8125);
    j.set("ok", true);
    j.set("nothing", nullptr);
    Json arr = Json::array();
    arr.push_back(1);
    arr.push_back("two");
    arr.push_back(Json::object());
    j.set("list", arr);
    for (int indent : {0, 2}) {
        const Json back = Json::parse(j.dump(indent));
        EXPECT_EQ(back.at("name").as_string(), "saxpy \"quoted\"\n");
        EXPECT_EQ(back.at("n").as_number(), 268435456);
        EXPECT_EQ(back.at("ms").as_number(), 0.8125);
        EXPECT_TRUE(back.at("ok").as_bool());
        EXPECT_TRUE(back.at("nothing").is_null());
        EXPECT_EQ(back.at("list").size(), 3u);
        EXPECT_EQ(back.at("list")[1].as_string(), "two");
        EXPECT_EQ(back.dump(), j.dump());
    }
}

TEST(Json, KeepsInsertionOrderAndReplacesKeysInPlace) {
    Json j = Json::object();
    j.set("b", 1);
    j.set("a", 2);
    j.set("b", 3);
    ASSERT_EQ(j.items().size(), 2u);
    EXPECT_EQ(j.items()[0].first, "b");
    EXPECT_EQ(j.at("b").as_number(), 3);
}

TEST(Json, WritesNonFiniteNumbersAsNull) {
    Json j = Json::array();
    j.push_back(std::nan(""));
    j.push_back(INFINITY);
    EXPECT_EQ(j.dump(0), "[null,null]");
}

TEST(Json, RejectsMalformedText) {
    for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "tru", "\"open", "{\"a\":1} x", "[1 2]"})
        EXPECT_THROW(Json::parse(bad), JsonError) << bad;
}

TEST(Json, MissingKeysThrow) {
    EXPECT_THROW(Json::object().at("x"), std::out_of_range);
    EXPECT_THROW(Json(3).as_string(), JsonError);
}
