# lit configuration for pyk's golden, diagnostics and command-line tests.
# Each test is a file with `# RUN:` lines; %pykc is the compiler under test.
import os

import lit.formats

config.name = "pyk"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".pyk", ".test"]
config.test_source_root = os.path.join(config.pyk_source_root, "tests")
config.test_exec_root = os.path.join(os.path.dirname(config.pykc), "..", "tests", "lit-out")
config.excludes = ["unit", "validity", "Inputs", "consumer", "linkage", "runtime", "execution", "checked", "numba", "CMakeLists.txt", "lit.cfg.py"]

config.substitutions.append(("%pykc", config.pykc))
config.substitutions.append(("%examples", os.path.join(config.pyk_source_root, "examples")))
config.substitutions.append(("%cxx", "c++"))
config.substitutions.append(("%pyk_include", os.path.join(config.pyk_source_root, "runtime", "include")))
# What a program that calls launch functions links: the runtime and its
# system libraries.
config.substitutions.append(("%pyk_runtime", config.pyk_runtime_library + " -ldl -lpthread"))
llvm_bin = config.llvm_tools_dir
config.substitutions.append(("FileCheck", os.path.join(llvm_bin, "FileCheck")))
config.substitutions.append(("not ", os.path.join(llvm_bin, "not") + " "))
config.environment["PATH"] = os.pathsep.join([llvm_bin, config.environment.get("PATH", os.environ["PATH"])])
# The sanitised build (PYK_SANITIZE): tests that measure time say
# "UNSUPPORTED: asan".
if config.pyk_sanitize:
    config.available_features.add("asan")
