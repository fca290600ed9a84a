# Warnings as errors on pyk's own code only: generated and third-party sources
# get their own, milder flags where they are compiled.
function(pyk_enable_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Werror
    -Wshadow=local -Wnon-virtual-dtor -Wimplicit-fallthrough -Wswitch)
endfunction()
