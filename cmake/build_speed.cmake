# Build time (docs/evidence/build-time.md has the ninja-log measurements behind these choices).
#
# grader/ and reports/ are orchestration: they parse specs and reports, start compilers and
# runners, and wait on them; their own CPU time in a grading is a few milliseconds. Two choices
# cut their compile time, which was most of a fresh build:
#
# - Optimisation level. At -O2 each of their files took 2-2.5x longer to compile than at -Og
#   (GCC optimises the CLI11, nlohmann/json and fmt code they inline, again in every file). They
#   are compiled with CUGRADE_ORCHESTRATION_OPTIMIZATION (-Og: optimised, still debuggable) in the
#   optimised build types. The test suites too: their speed is the speed of what they start.
# - Unity builds (CUGRADE_UNITY_BUILD), in grader/, reports/ and tests/. CMake compiles a
#   target's files 16 at a time (CUGRADE_UNITY_BATCH_SIZE) as one translation unit, so the code
#   they share is compiled once per batch rather than once per file (the 13 files of the cugrade
#   command: 89 s of CPU one by one, 22 s in two batches). What a batch costs is mostly the
#   instantiation and code of the templates its files share (fmt, nlohmann/json, the standard
#   library), not parsing: precompiled headers saved nothing here, while 16 files a batch rather
#   than 8 took a fifth off the grade build and 32 was slower again (its last batches run alone).
#   The price is in incremental builds: an edit recompiles its batch's 16 files.
#   A file-local helper must then have a name no other file of its target uses. Five harness/
#   libraries are batched too, at their own optimisation level (protocol, core, problems, the
#   runner's core and the emulator's rewriter: 12 files of the runner's core took 16.9 s one by
#   one, 4.3 s as one batch; the rewriter's 19.6 s, 7.9 s); the emulator's runtime is not (its
#   speed is grading's, and its file-local helpers share names).
#
# harness/ (the runners, the emulator that runs students' kernels, the comparison of outputs) and
# the reference kernels keep the build type's level: their speed is the grading's speed.
set(CUGRADE_ORCHESTRATION_OPTIMIZATION "-Og" CACHE STRING
    "Optimisation flag for grader/, reports/ and tests/ in optimised builds (empty: the build type's)")
option(CUGRADE_UNITY_BUILD "Compile grader/, reports/ and tests/ as unity batches" ON)
set(CUGRADE_UNITY_BATCH_SIZE 16 CACHE STRING "Files per unity batch in grader/, reports/ and tests/")

# In a directory's CMakeLists.txt, before its targets: every C++ target made there and below is
# compiled at the orchestration level (GCC takes the last -O flag of its command line).
macro(cugrade_orchestration_optimization)
  if(CUGRADE_ORCHESTRATION_OPTIMIZATION)
    add_compile_options(
      "$<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CONFIG:Release,RelWithDebInfo,MinSizeRel>>:${CUGRADE_ORCHESTRATION_OPTIMIZATION}>")
  endif()
endmacro()

# One harness/ library as unity batches of `size` files, at its own optimisation level; off with
# CUGRADE_UNITY_BUILD, as everywhere.
function(cugrade_unity_batches target size)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ${CUGRADE_UNITY_BUILD}
                                             UNITY_BUILD_BATCH_SIZE ${size})
endfunction()

# The same, and unity batches for the directory's targets. In a batch GCC sees every file but the
# first as a header, and warns (-Wsubobject-linkage) when a class there, such as a TEST_F's, derives
# from a type of an anonymous namespace: a header's concern that a batch does not have.
macro(cugrade_orchestration_code)
  cugrade_orchestration_optimization()
  set(CMAKE_UNITY_BUILD ${CUGRADE_UNITY_BUILD})
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${CUGRADE_UNITY_BATCH_SIZE})
  if(CUGRADE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-subobject-linkage>)
  endif()
endmacro()

# The `grade` and `ci` presets are Release: no debug info. CMake's Release would also mean -O3;
# here it means -O2, the level the emulator's speed (emu_bench) and every test were measured at.
foreach(lang C CXX CUDA)
  set(CMAKE_${lang}_FLAGS_RELEASE "-O2 -DNDEBUG")
endforeach()
