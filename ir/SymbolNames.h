//===- SymbolNames.h - Names that generated C++ and PTX may not use --------===//
//
// A .pyk name can be any Python identifier; the code pyk generates is C++
// (with the CUDA and C library headers in scope) and PTX. This decides, once
// for every backend, which names must be renamed.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_SYMBOLNAMES_H
#define PYK_IR_SYMBOLNAMES_H

#include "RecordTypes.h"

#include <string>
#include <string_view>

namespace pyk::ir {

/// True for names the generated C++ may not use as they are: C++ keywords
/// (`new`, `typeof`), `main`, every name that the headers of the generated
/// code declare at global scope or define as a macro (`NULL`, `div`,
/// `sincosf`, `printf`, `threadIdx`, `dim3`, `linux`: CudaHeaderNames.inc,
/// generated from the CUDA toolkit's headers by
/// scripts/cuda_header_names.py), identifiers C++ reserves (containing `__`,
/// or `_` and a capital), and names starting with `pyk_`, which pyk keeps
/// for the names it generates.
bool isReservedInCxx(std::string_view name);

/// True for the names of isReservedInCxx that break C++ in a namespace of
/// its own too: keywords, macros and reserved identifiers, not the names the
/// headers merely declare (`div`).
bool isReservedInEveryScope(std::string_view name);

/// The exported name of a kernel, and the name of a device function: its
/// .pyk name, or `pyk_NAME` when that is reserved. The CUDA C++, PTX and
/// CPU device backends define it and the host code loads the kernel by it.
std::string kernelSymbol(std::string_view pykName);

/// The name of a kernel's launch function in the host code (inside
/// `pyk::kernels::FILE_pyk`): its .pyk name, so that a kernel `div` is
/// launched as `pyk::kernels::div`, or `pyk_NAME` where the name cannot be
/// a C++ function's in any namespace (isReservedInEveryScope).
std::string launchFunctionName(std::string_view pykName);

/// The struct of a file's own record type in the generated kernel code (a
/// name at global scope, as kernelSymbol's), and in the launch header,
/// where it is `pyk::records::` and its launchFunctionName. The built-in
/// records' C++ structs are the runtime's (RecordType::cxxType).
std::string recordStructName(std::string_view pykName);
std::string recordCxxType(const RecordType &record);
/// The member of a record's struct that holds field `pykName`: the name, or
/// `pyk_NAME` where no member may have it (a keyword, a macro).
std::string recordFieldName(std::string_view pykName);

/// The CPU device's entry point for the kernel exported as `kernelSymbol`,
/// in the compilation tagged `unitId` (ir::Module::unitId):
/// `pyk_cpu_<unitId>_<kernelSymbol>`, or `pyk_cpu_<kernelSymbol>` without a
/// tag. The object with the CPU device's code defines it and the launch
/// code refers to it.
std::string cpuEntrySymbol(std::string_view unitId, std::string_view kernelSymbol);

/// The C++ namespace of the launch functions of NAME.pyk: NAME made an
/// identifier (each character that cannot be in one becomes `_`, runs of
/// `_` become one), then `_pyk`: `vector_add.pyk` gives `vector_add_pyk`,
/// `vec.ops.pyk` gives `vec_ops_pyk`. The suffix keeps it apart from the
/// kernel names, which often repeat the file's.
std::string fileNamespace(std::string_view baseName);

} // namespace pyk::ir

#endif // PYK_IR_SYMBOLNAMES_H
