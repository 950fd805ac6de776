// GoogleTest entry point for SystemC testbenches: libsystemc wants an sc_main, which the tests
// never use (each test case runs its own elaboration, see systemc_test.h).
#include <cstdlib>

#include <gtest/gtest.h>
#include <systemc>

int sc_main(int, char**) {
  return 0;
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  // "Simulation stopped by user" after every sc_stop() is noise in test output.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
