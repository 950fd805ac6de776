// The gpusoc version (CMakeLists.txt's project version) and the commit the program was built
// from, recorded in every statistics file. Defined in a source the build writes
// (cmake/GpusocVersion.cmake).
#pragma once

namespace gpusoc::platform {

const char* gpusoc_version();  // "0.1.0"
const char* gpusoc_commit();   // "86fa3f8a1b2c", "...-dirty" with local changes, or "unknown"

}  // namespace gpusoc::platform
