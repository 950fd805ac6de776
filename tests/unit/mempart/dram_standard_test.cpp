// DRAM standards as data (dram_standard.h, dram_params.h): the built-in files, a standard of
// one's own that includes a built-in one, memory.dram.* overrides, and malformed files.
#include <cmath>
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/common/error.h"
#include "models/mempart/dram_params.h"
#include "models/mempart/dram_standard.h"
#include "models/mempart/dram_standard_files.h"
#include "tests/unit/common/temp_dir.h"

namespace gpusoc::mempart {
namespace {

using ::testing::HasSubstr;

// ceil(ns / tCK), as a standard's nanoseconds become cycles.
uint32_t cycles(double ns, double mhz) {
  return uint32_t(std::ceil(ns * mhz / 1000.0 - 1e-9));
}

TEST(DramStandards, EachBuiltInNameHasItsFileAndEachFileItsName) {
  std::set<std::string> files;
  for (const DramStandardFile& f : dram_standard_files()) files.insert(f.file);
  std::set<std::string> named;
  for (std::string name : dram_preset_names()) {
    for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
    named.insert(name + ".json");
  }
  EXPECT_EQ(files, named);
}

// A standard of one's own: HBM2 (JESD235A) at a 1000 MHz bin, its nanoseconds in that clock.
TEST(DramStandards, AFileIncludesABuiltInStandardAndReplacesFieldByField) {
  testing::TempDir dir;
  const std::string path = dir.write("hbm2-2000.json", R"js({
    "include": "hbm2.json",
    "name": "HBM2-2000 (a bin of our own)",
    "clock_mhz": {"value": 1000, "source": "our bin"},
    "timing": {"tCCD_L": {"tck": 4, "source": "our guess"}}
  })js");
  const DramTiming t = dram_timing_of(dram_standard_document(path), path);
  EXPECT_EQ(t.name, "HBM2-2000 (a bin of our own)");
  EXPECT_EQ(t.source, dram_preset("HBM2").source);  // kept from the included file
  EXPECT_DOUBLE_EQ(t.tck_ns, 1.0);
  EXPECT_EQ(t.tRCD, cycles(14, 1000));   // JESD235A tRCD 14 ns
  EXPECT_EQ(t.tRFC, cycles(350, 1000));  // tRFC 350 ns
  EXPECT_EQ(t.tREFI, 3900u);             // 3.9 us, rounded down
  EXPECT_EQ(t.tCCD_S, 2u);               // given in tCK: unchanged
  EXPECT_EQ(t.tCCD_L, 4u);
  EXPECT_EQ(t.bus_bits, 64u);
  EXPECT_DOUBLE_EQ(t.peak_gbytes_per_s(), 8.0 * 2 * 1.0);  // 64 bits, DDR at 1 GHz
}

// Includes are looked for beside the including file first; a file that includes its own name
// means the built-in one.
TEST(DramStandards, IncludesAreFoundBesideTheFileThenAmongTheBuiltInOnes) {
  testing::TempDir dir;
  dir.write("hbm2.json", R"js({"include": "hbm2.json", "timing": {"tCCD_L": {"tck": 5}}})js");
  const std::string mine = dir.write("mine.json", R"js({"include": "hbm2.json"})js");
  const DramTiming t = dram_timing_of(dram_standard_document(mine), mine);
  EXPECT_EQ(t.tCCD_L, 5u);                      // from the file beside it
  EXPECT_EQ(t.tRCD, dram_preset("HBM2").tRCD);  // which took the rest from the built-in
}

// memory.type in a configuration file names a standard beside that file.
TEST(DramStandards, AStandardNamedInAConfigFileIsFoundBesideIt) {
  testing::TempDir dir;
  dir.write("sub/fast.json", R"js({"include": "gddr5.json", "clock_mhz": {"value": 1750}})js");
  const std::string gpu = dir.write("sub/gpu.json", R"js({"memory": {"type": "fast.json"}})js");
  Config config;
  config.load_file(gpu);
  EXPECT_DOUBLE_EQ(1000.0 / dram_timing_from(config).tck_ns, 1750.0);
}

TEST(DramStandards, OnlyRegularFilesOfSaneShapeAreRead) {
  testing::TempDir dir;
  for (const char* path : {"/dev/zero", "/tmp"}) {
    SCOPED_TRACE(path);
    EXPECT_THROW(dram_standard_document(path), ConfigError);
  }
  std::string deep = R"js({"include": "hbm2.json", "timing": )js";
  for (int i = 0; i < 40; ++i) deep += "[";
  for (int i = 0; i < 40; ++i) deep += "]";
  const std::string path = dir.write("deep.json", deep + "}");
  try {
    dram_standard_document(path);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("nested deeper than"));
  }
}

TEST(DramStandards, TheConfigNamesAStandardAndOverridesSingleFields) {
  Config config;
  config.apply_set("memory.type=HBM2");
  EXPECT_EQ(dram_timing_from(config).tRCD, dram_preset("HBM2").tRCD);
  config.apply_set("memory.dram.tRCD=20");
  config.apply_set("memory.dram.banks_per_group=8");
  DramTiming t = dram_timing_from(config);
  EXPECT_EQ(t.tRCD, 20u);
  EXPECT_EQ(t.banks(), 32u);
  EXPECT_EQ(t.tRP, dram_preset("HBM2").tRP);
  // The clock moves what the standard gives in ns, not what it gives in cycles or was set.
  config.apply_set("memory.dram.clock_mhz=1000");
  t = dram_timing_from(config);
  EXPECT_EQ(t.tRP, cycles(14, 1000));
  EXPECT_EQ(t.tRCD, 20u);
  EXPECT_EQ(t.tCCD_S, 2u);
}

TEST(DramStandards, AnInconsistentOverrideIsNamedWithTheStandard) {
  Config config;
  config.apply_set("memory.type=GDDR5");
  config.apply_set("memory.dram.tRAS=100");  // tRC 60 < tRAS + tRP
  try {
    dram_timing_from(config);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("'GDDR5' (memory.type"));
    EXPECT_THAT(e.what(), HasSubstr("tRC 60 is less than tRAS + tRP = 118"));
  }
}

// Each malformed file: one ConfigError naming the file and what is wrong.
TEST(DramStandards, MalformedFilesAreNamedWithTheField) {
  testing::TempDir dir;
  const struct {
    const char* body;
    const char* error;
  } cases[] = {
      {"{", "not JSON"},
      {"[]", "not a JSON object"},
      {R"js({"include": "hbm2.json", "colour": 1})js", "unknown field 'colour'"},
      {R"js({"include": "hbm2.json", "timing": {"tXYZ": {"tck": 1, "source": ""}}})js",
       "timing: unknown field 'tXYZ'"},
      {R"js({"include": "hbm2.json", "timing": {"tRCD": {"tck": 1, "ns": 2}}})js",
       "timing.tRCD must give one of tck, ns or sum"},
      {R"js({"include": "hbm2.json", "timing": {"tRCD": {"sum": ["tRC"]}}})js",
       "timing.tRCD.sum: tRC is itself a sum"},
      {R"js({"include": "hbm2.json", "timing": {"tRC": {"sum": ["tXYZ"]}}})js",
       "timing.tRC.sum: \"tXYZ\" is not a timing field"},
      {R"js({"include": "hbm2.json", "timing": {"tRCD": {"tck": -1}}})js",
       "timing.tRCD.tck must be a whole number"},
      {R"js({"include": "hbm2.json", "timing": {"tRCD": {"tck": 1, "min_tck": 2}}})js",
       "min_tck goes with ns"},
      {R"js({"include": "hbm2.json", "organization": {"rows": {"value": 1000}}})js",
       "rows must be a power of two"},
      {R"js({"include": "hbm2.json", "clock_mhz": {"value": 0}})js", "clock_mhz.value must be"},
      {R"js({"include": "nowhere.json"})js", "include 'nowhere.json': no such file"},
      {R"js({"include": "loop.json"})js", "includes nest too deep"},  // loop.json includes bad.json
      {R"js({"include": "bad.json"})js", "include 'bad.json': no such file here or among"},
      {R"js({"name": "x", "source": "y", "clock_mhz": {"value": 1000}, "organization": {},
           "timing": {}})js",
       "organization.ranks is missing"},
  };
  dir.write("loop.json", R"js({"include": "bad.json"})js");
  for (const auto& c : cases) {
    SCOPED_TRACE(c.body);
    const std::string path = dir.write("bad.json", c.body);
    try {
      dram_timing_of(dram_standard_document(path), path);
      FAIL() << "no error";
    } catch (const ConfigError& e) {
      EXPECT_THAT(e.what(), HasSubstr(c.error));
      EXPECT_THAT(e.what(), HasSubstr("bad.json"));
    }
  }
  try {
    dram_standard_document(dir.file("missing.json"));
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("neither a built-in DRAM standard (GDDR3, GDDR5"));
  }
}

}  // namespace
}  // namespace gpusoc::mempart
