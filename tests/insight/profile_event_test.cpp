// The runner's `profile` event: written and read back the same, and read as untrusted input
// (a wrong kind, a missing count, too many launches: the event is refused with a reason).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/protocol/profile.h"

namespace {

using cugrade::protocol::profile_record;
using nlohmann::json;

profile_record sample() {
  return {3,
          {{"tiled",
            "matmul.cu",
            {8, 8, 1},
            {16, 16, 1},
            2048,
            0,
            0,
            {{41, "shared", "load", 100, 800, 100, 3200, 12800, 100},
             {30, "global", "store", 10, 40, 40, 320, 1280, 10}}}}};
}

TEST(ProfileEvent, RoundTrips) {
  profile_record back;
  EXPECT_EQ(cugrade::protocol::profile_from_json(cugrade::protocol::profile_json(sample()), back),
            "");
  EXPECT_EQ(back, sample());
}

TEST(ProfileEvent, RefusesWhatTheRunnerCannotHaveWritten) {
  json j = cugrade::protocol::profile_json(sample());
  profile_record out;
  json wrong_kind = j;
  wrong_kind["launches"][0]["accesses"][0]["space"] = "texture";
  EXPECT_NE(cugrade::protocol::profile_from_json(wrong_kind, out), "");
  json missing = j;
  missing["launches"][0]["accesses"][0].erase("units");
  EXPECT_NE(cugrade::protocol::profile_from_json(missing, out), "");
  json negative = j;
  negative["launches"][0]["accesses"][0]["requests"] = -1;
  EXPECT_NE(cugrade::protocol::profile_from_json(negative, out), "");
  json many = j;
  for (std::size_t i = 0; i < cugrade::protocol::max_profiled_launches; ++i) {
    many["launches"].push_back(j["launches"][0]);
  }
  EXPECT_NE(cugrade::protocol::profile_from_json(many, out), "");
  json bad_grid = j;
  bad_grid["launches"][0]["grid"] = json::array({1, 2});
  EXPECT_NE(cugrade::protocol::profile_from_json(bad_grid, out), "");
}

} // namespace
