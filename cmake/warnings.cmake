# One interface target carries the project's warning flags; nvcc gets them through -Xcompiler.
add_library(cugrade_warnings INTERFACE)
add_library(cugrade::warnings ALIAS cugrade_warnings)
set(_cugrade_host_warnings -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
    -Woverloaded-virtual -Wimplicit-fallthrough)
# -Wnull-dereference is left out: GCC 12 raises it falsely inside libstdc++ (basic_string) when
# inlining CLI11 at -O2, and it cannot be switched off per target after this list.
if(CUGRADE_WARNINGS_AS_ERRORS)
  list(APPEND _cugrade_host_warnings -Werror)
endif()
target_compile_options(cugrade_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:${_cugrade_host_warnings}>)
list(JOIN _cugrade_host_warnings "," _cugrade_nvcc_forward)
# -Wpedantic and -Wshadow are too noisy on nvcc's generated host stubs.
string(REPLACE "-Wpedantic," "" _cugrade_nvcc_forward "${_cugrade_nvcc_forward}")
string(REPLACE "-Wshadow," "" _cugrade_nvcc_forward "${_cugrade_nvcc_forward}")
target_compile_options(cugrade_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${_cugrade_nvcc_forward}>)
if(CUGRADE_WARNINGS_AS_ERRORS)
  target_compile_options(cugrade_warnings INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
endif()
