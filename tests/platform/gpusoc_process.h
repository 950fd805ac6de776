// Runs the built gpusoc program in a test: exit status, standard output and standard error.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "tests/unit/common/temp_dir.h"

namespace gpusoc::platform {

struct Outcome {
  int status;
  std::string out;
  std::string err;
};

class GpusocProcessTest : public ::testing::Test {
 protected:
  Outcome gpusoc(const std::string& args) {
    const std::string out = dir.file("stdout");
    const std::string err = dir.file("stderr");
    const std::string command =
        std::string(GPUSOC_BINARY) + " " + args + " >'" + out + "' 2>'" + err + "'";
    const int raw = std::system(command.c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, testing::read_file(out),
            testing::read_file(err)};
  }

  testing::TempDir dir;
};

}  // namespace gpusoc::platform
