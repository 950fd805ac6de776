// Finding a kernel by the name a user gives: the mangled name nvcc emits
// (_Z13MatrixMulCUDAILi32EEvPfS0_S0_ii), the demangled signature
// (void MatrixMulCUDA<32>(float*, float*, float*, int, int)), the name with its template
// arguments (MatrixMulCUDA<32>), or the plain name where only one kernel has it (MatrixMulCUDA,
// vectorAdd). One lookup for every loader (the functional device's modules and the runtime's).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpusoc {

/// The demangled form of a mangled C++ name; the name itself when it is not one (extern "C").
std::string demangle(const std::string& mangled);

/// The forms a kernel can be named by, from its mangled name.
struct KernelNameForms {
  std::string mangled;
  std::string signature;  // demangled, with the parameters (and a template's return type)
  std::string qualified;  // without return type and parameters: ns::MatrixMulCUDA<32>
  std::string templated;  // without namespaces: MatrixMulCUDA<32>
  std::string plain;      // without namespaces and template arguments: MatrixMulCUDA
};
KernelNameForms kernel_name_forms(const std::string& mangled);

struct KernelLookup {
  static constexpr size_t kNotFound = size_t(-1);
  size_t index = kNotFound;  // into the names searched
  /// Why nothing was found, listing what could be meant: the kernels the query names
  /// ambiguously, or every kernel ("mangled (demangled)", one per line).
  std::string problem;
};

/// Looks `query` up among `mangled_names` of module `module`: an exact mangled name first, then
/// a signature, a qualified name, a name with template arguments, a plain name; a form that
/// several kernels share is ambiguous.
KernelLookup find_kernel(const std::vector<std::string>& mangled_names, std::string_view query,
                         const std::string& module);

}  // namespace gpusoc
