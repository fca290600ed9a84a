# Warnings as errors on pyk's own code only: generated and third-party sources
# get their own, milder flags where they are compiled.
function(pyk_enable_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Werror
    -Wnon-virtual-dtor -Wimplicit-fallthrough -Wswitch
    # Locals that shadow locals (clang's spelling has no '=local').
    $<IF:$<CXX_COMPILER_ID:Clang>,-Wshadow,-Wshadow=local>)
endfunction()
