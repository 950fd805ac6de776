// For test programs with GoogleTest's own main that link SystemC: libsystemc needs an sc_main.
extern "C" int sc_main(int, char**) {
  return 0;
}
