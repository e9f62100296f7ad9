# gpulab_target_warnings(<target> [NO_WERROR])
#
# Warnings on for every language the target compiles: -Wall -Wextra for C and
# C++, the same passed to the host compiler for CUDA. With GPULAB_WERROR=ON
# (as `make test` and CI configure) any warning fails the build, except in
# targets given NO_WERROR: a student's own lab programs (gpulab_add_lab), where
# a warning while experimenting must be shown but never stop the build.
function(gpulab_target_warnings target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_WERROR" "" "")
  set(werror OFF)
  if(GPULAB_WERROR AND NOT arg_NO_WERROR)
    set(werror ON)
  endif()
  set(flags -Wall -Wextra)
  if(werror)
    list(APPEND flags -Werror)
  endif()
  list(JOIN flags "," host_flags)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C,CXX>:${flags}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${host_flags}>)
  if(werror)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings>)
  endif()
endfunction()
