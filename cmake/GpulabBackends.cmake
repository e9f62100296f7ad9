# The backends a lab program is built for. Each backend <b> is an INTERFACE
# target gpulab_backend_<b> (what its programs compile and link with) plus a
# function gpulab_backend_<b>_sources(<target> <files>...) that adds lab
# sources to a target the way that backend compiles them. GPULAB_BACKENDS
# lists the enabled ones, in the order their programs are built.
#
#   cuda  nvcc, cudart, cuBLAS and cuRAND; runs on an NVIDIA GPU, exits 77 without one.
#   sim   the CPU simulator (sim/): the same .cu files, launches rewritten
#         by gpulab-sim-rewrite, compiled as C++ against gpulab's stand-in CUDA
#         headers and linked with gpulab_sim_runtime. Needs no CUDA toolkit.

set(GPULAB_BACKENDS "")

if(GPULAB_HAVE_CUDA)
  list(APPEND GPULAB_BACKENDS cuda)
  add_library(gpulab_backend_cuda INTERFACE)
  target_link_libraries(gpulab_backend_cuda INTERFACE CUDA::cudart CUDA::cublas CUDA::curand)
  target_compile_definitions(gpulab_backend_cuda INTERFACE
    GPULAB_BACKEND_CUDA=1 GPULAB_BACKEND_NAME="cuda")
  # Line info in device code for profilers and compute-sanitizer reports.
  target_compile_options(gpulab_backend_cuda INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)

  function(gpulab_backend_cuda_sources target)
    # .cu files compile with nvcc by their extension; .c and .cpp with the host compilers.
    target_sources(${target} PRIVATE ${ARGN})
  endfunction()
endif()

option(GPULAB_SIM "Build the sim backend (the CPU simulator)" ON)
option(GPULAB_SIM_CHECK_TWINS "Build each sim program's check twin (<program>.check)" ON)
if(GPULAB_SIM)
  list(APPEND GPULAB_BACKENDS sim)
  add_library(gpulab_backend_sim INTERFACE)
  # The stand-in CUDA headers come before any real CUDA toolkit's.
  target_include_directories(gpulab_backend_sim BEFORE INTERFACE
    "${PROJECT_SOURCE_DIR}/sim/include")
  target_link_libraries(gpulab_backend_sim INTERFACE gpulab_sim_runtime)
  target_compile_definitions(gpulab_backend_sim INTERFACE
    GPULAB_BACKEND_SIM=1 GPULAB_BACKEND_NAME="sim")

  function(gpulab_backend_sim_sources target)
    foreach(src IN LISTS ARGN)
      if(NOT src MATCHES "\\.cu$")
        target_sources(${target} PRIVATE "${src}")
        continue()
      endif()
      # foo.cu -> <build>/gpulab-sim/<target>/foo.cu.cpp, compiled as C++ with
      # cuda_runtime.h included first (as nvcc does) and the .cu's own folder
      # searched for its "quoted" includes.
      get_filename_component(name "${src}" NAME)
      get_filename_component(dir "${src}" DIRECTORY)
      set(out "${CMAKE_CURRENT_BINARY_DIR}/gpulab-sim/${target}/${name}.cpp")
      file(MAKE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/gpulab-sim/${target}")
      # Headers it includes with quotes from beside it are rewritten beside
      # ${out} (found first there); the depfile makes their edits rebuild it.
      add_custom_command(OUTPUT "${out}"
        COMMAND gpulab-sim-rewrite --traits --headers --depfile "${out}.d" "${src}" "${out}"
        DEPENDS "${src}" gpulab-sim-rewrite
        DEPFILE "${out}.d"
        COMMENT "Rewriting kernel launches of ${name} for the simulator"
        VERBATIM)
      target_sources(${target} PRIVATE "${out}")
      set_source_files_properties("${out}" PROPERTIES
        COMPILE_OPTIONS "-include;cuda_runtime.h;-iquote;${dir}")
    endforeach()
    target_compile_options(${target} PRIVATE "${GPULAB_SIM_PLAIN_FLAGS}")
  endfunction()

  # The optimization of plain kernel code (not the check twin's): nvcc
  # compiles device code at -O3 whatever the host's -O, and so does the
  # simulator outside Debug builds. On x86-64, where this machine has SSE4.1,
  # kernel code may also use it: its blends make a select such as
  # `x > 0 ? x : 0` branch-free, where SSE2 code branches and mispredicts on
  # data like a ReLU's, a GPU's select never does. Neither changes a result
  # (no contraction into FMA, no reassociation). The check twin keeps the
  # build's own flags: its loads and stores, as compiled, are what the
  # performance model counts, and -O3's vectorizer would widen them.
  # GPULAB_SIM_OPTIMIZE=OFF compiles kernel code like the rest of the build.
  option(GPULAB_SIM_OPTIMIZE "Compile plain sim kernel code at -O3 (and SSE4.1 on x86-64)" ON)
  set(plain_flags "")
  if(GPULAB_SIM_OPTIMIZE AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    list(APPEND plain_flags "$<$<NOT:$<CONFIG:Debug>>:-O3>")
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND NOT CMAKE_CROSSCOMPILING)
      include(CheckCXXSourceRuns)
      set(CMAKE_REQUIRED_FLAGS -msse4.1)
      check_cxx_source_runs("int main() { return __builtin_cpu_supports(\"sse4.1\") ? 0 : 1; }"
                            GPULAB_HOST_SSE41)
      unset(CMAKE_REQUIRED_FLAGS)
      if(GPULAB_HOST_SSE41)
        list(APPEND plain_flags -msse4.1)
      endif()
    endif()
  endif()
  # Evaluated per target: nothing for the check twin's targets, which set
  # GPULAB_SIM_INSTRUMENTED.
  set(GPULAB_SIM_PLAIN_FLAGS
    "$<$<AND:$<COMPILE_LANGUAGE:CXX>,$<NOT:$<BOOL:$<TARGET_PROPERTY:GPULAB_SIM_INSTRUMENTED>>>>:${plain_flags}>")
endif()

# gpulab_sim_check_twin(<target>)
#
# The check twin of a sim program: the same sources and settings, with its C++
# (the rewritten .cu files) compiled with -fsanitize=thread, so that every
# load and store of kernel code calls the simulator's own __tsan_* hooks (the
# TSan runtime is never linked). The plain program runs its twin when
# GPULAB_SIM_CHECK is set: one build serves both, and the plain program pays
# nothing for the checks. Call it after the target is fully configured.
#
# The twin also carries a plain copy of its kernel code, for the blocks that
# the performance model's sample leaves out (runtime/plain_copy.cpp): the
# rewritten .cu files are compiled once, without the hooks, into an object
# library that the program links, and tools/gpulab-sim-plain-copy links those
# objects, renamed, beside the instrumented ones. Without objcopy, readelf and
# ld (or bash) the twin has no copy and runs every block instrumented.
# The flags of instrumented (check-twin) kernel code, for every target that
# compiles some: -fsanitize=thread makes each load and store call a hook.
set(GPULAB_SIM_TSAN_FLAGS
  $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=thread -g -gdwarf-4>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:--param=tsan-instrument-func-entry-exit=0;-fno-tree-sra>
  "$<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:Clang>>:SHELL:-mllvm -tsan-instrument-func-entry-exit=0 -mllvm -tsan-instrument-read-before-write=1>")
# (DWARF 4: binutils' addr2line misreads the file of #line-mapped code in
# GCC 12's DWARF 5, and the reports must name the .cu file. GCC and clang
# spell "no calls at function entry and exit" differently; clang also
# drops the read of `x[i] += v` unless told to keep it, and initcheck
# needs that read. GCC without scalar replacement of aggregates: a
# `float4` stored whole, `p[i] = make_float4(a, b, c, d)`, stays one 16-byte
# access as on a GPU, instead of four 4-byte stores that the model would
# count as four requests.)
find_program(GPULAB_BASH bash)
function(gpulab_sim_check_twin target)
  if(NOT GPULAB_SIM_CHECK_TWINS)
    return()
  endif()
  set(twin "${target}.check")
  get_target_property(srcs ${target} SOURCES)
  set(cu_srcs "")
  set(other_srcs "")
  foreach(src IN LISTS srcs)
    if(src MATCHES "/gpulab-sim/[^/]+/[^/]+\\.cu\\.cpp$")
      list(APPEND cu_srcs "${src}")
    else()
      list(APPEND other_srcs "${src}")
    endif()
  endforeach()
  set(copy_props INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS LINK_LIBRARIES)
  if(cu_srcs AND GPULAB_BASH AND CMAKE_OBJCOPY AND CMAKE_READELF AND CMAKE_LINKER)
    # The kernels, plain (the program's and the copy's) and instrumented.
    foreach(lib IN ITEMS ${target}.cu ${twin}.cu)
      add_library(${lib} OBJECT ${cu_srcs})
      foreach(prop IN LISTS copy_props)
        get_target_property(value ${target} ${prop})
        if(value)
          set_property(TARGET ${lib} PROPERTY ${prop} "${value}")
        endif()
      endforeach()
      if(TARGET ${target}-stale-guard)
        add_dependencies(${lib} ${target}-stale-guard)
      endif()
    endforeach()
    set_target_properties(${twin}.cu PROPERTIES GPULAB_SIM_INSTRUMENTED ON)
    target_compile_options(${twin}.cu PRIVATE ${GPULAB_SIM_TSAN_FLAGS})
    add_dependencies(${twin}.cu ${target}.cu) # one at a time runs the sources' rewriting
    set_property(TARGET ${target} PROPERTY SOURCES ${other_srcs} $<TARGET_OBJECTS:${target}.cu>)
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
    set(kernels "${CMAKE_CURRENT_BINARY_DIR}/gpulab-sim/${target}/kernels.check.o")
    add_custom_command(OUTPUT "${kernels}"
      COMMAND ${CMAKE_COMMAND} -E env OBJCOPY=${CMAKE_OBJCOPY} READELF=${CMAKE_READELF}
              LD=${CMAKE_LINKER} "${GPULAB_BASH}"
              "${PROJECT_SOURCE_DIR}/sim/tools/gpulab-sim-plain-copy" -o "${kernels}"
              --instrumented $<TARGET_OBJECTS:${twin}.cu> --plain $<TARGET_OBJECTS:${target}.cu>
      DEPENDS $<TARGET_OBJECTS:${twin}.cu> $<TARGET_OBJECTS:${target}.cu>
              "${PROJECT_SOURCE_DIR}/sim/tools/gpulab-sim-plain-copy"
      COMMENT "Linking the kernels of ${twin} with their plain copies"
      COMMAND_EXPAND_LISTS VERBATIM)
    set_source_files_properties("${kernels}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    add_executable(${twin} ${other_srcs} "${kernels}")
    add_dependencies(${twin} ${twin}.cu ${target}.cu)
    set_target_properties(${twin} PROPERTIES LINKER_LANGUAGE CXX)
  else()
    add_executable(${twin} ${srcs})
  endif()
  foreach(prop IN LISTS copy_props ITEMS RUNTIME_OUTPUT_DIRECTORY)
    get_target_property(value ${target} ${prop})
    if(value)
      set_property(TARGET ${twin} PROPERTY ${prop} "${value}")
    endif()
  endforeach()
  get_target_property(out_name ${target} OUTPUT_NAME)
  if(NOT out_name)
    set(out_name ${target})
  endif()
  set_target_properties(${twin} PROPERTIES OUTPUT_NAME "${out_name}.check"
                                           GPULAB_SIM_INSTRUMENTED ON)
  target_compile_options(${twin} PRIVATE ${GPULAB_SIM_TSAN_FLAGS})
  add_dependencies(${target} ${twin})
endfunction()
