# gpulab_target_warnings(<target>)
#
# Warnings on for every language the target compiles: -Wall -Wextra for C and
# C++, the same passed to the host compiler for CUDA. With GPULAB_WERROR=ON
# (as `make test` and CI configure) any warning fails the build.
function(gpulab_target_warnings target)
  set(flags -Wall -Wextra)
  if(GPULAB_WERROR)
    list(APPEND flags -Werror)
  endif()
  list(JOIN flags "," host_flags)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C,CXX>:${flags}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${host_flags}>)
  if(GPULAB_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings>)
  endif()
endfunction()
