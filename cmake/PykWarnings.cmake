# Warnings on pyk's own code only: generated and third-party sources get
# their own, milder flags where they are compiled.
#
# Warnings are errors only where pyk's own scripts ask for it
# (-DPYK_WARNINGS_AS_ERRORS=ON: scripts/build, scripts/test-sanitized, so CI
# keeps the code free of them). A user's or a packager's build never stops
# on a warning: a newer compiler's new warning, or a false one at another
# optimisation level, is not their problem to fix.
option(PYK_WARNINGS_AS_ERRORS "Treat warnings in pyk's own code as errors (pyk's CI and test builds)" OFF)

set(PYK_WARNING_FLAGS
  -Wall -Wextra -Wpedantic
  -Wnon-virtual-dtor -Wimplicit-fallthrough -Wswitch
  # Locals that shadow locals (clang's spelling has no '=local').
  $<IF:$<CXX_COMPILER_ID:Clang>,-Wshadow,-Wshadow=local>
  # g++ 12 at -O3 reports overlapping memcpy in libstdc++'s
  # `"text" + std::string` (GCC bug 105329, fixed in 13): a false warning
  # on correct code, in every Release build of pyk.
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>
  $<$<BOOL:${PYK_WARNINGS_AS_ERRORS}>:-Werror>)

function(pyk_enable_warnings target)
  target_compile_options(${target} PRIVATE ${PYK_WARNING_FLAGS})
endfunction()
