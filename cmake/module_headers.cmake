# Each module's target exposes only its own headers (docs/architecture.md, "Layers"): no target
# has the repository root as an include directory, so including a header of a module the target
# does not link fails to compile.
#
# cugrade_module_headers(<target> <folder> [PRIVATE] [HEADERS <file>...] [EXCLUDE <subfolder>...])
#
#   Links each header (*.h, *.cuh) of <folder> (relative to the repository root, searched with its
#   subfolders) into a per-target tree under the build folder, one symlink per header, at its usual
#   root-relative path, so `#include "harness/problems/problem.h"` reads as before:
#     include/<target>/public/<folder>/...          headers outside detail/: the target and
#                                                   whatever links it see them
#     include/<target>/private/<folder>/detail/...  detail/ headers: the target's own sources only
#   PRIVATE puts every header in the private tree (a library's internal folder, such as the
#   emulator runtime's src/); an executable has no consumers, so both trees stay private to it.
#   HEADERS takes only the named files (relative to <folder>) where one folder holds several
#   targets; EXCLUDE skips subfolders that belong to another target. Editing a header needs no
#   re-configure (the links point at it); adding or removing one re-runs CMake (CONFIGURE_DEPENDS).
#
# cugrade_module_internals(<target> <module target>...)
#
#   Lets <target> (a test) include the private headers of the modules named as well; each call
#   site says which internal header it needs and why.

set(CUGRADE_HEADER_TREES ${CMAKE_BINARY_DIR}/include)

function(cugrade_module_headers target folder)
  cmake_parse_arguments(PARSE_ARGV 2 arg "PRIVATE" "" "HEADERS;EXCLUDE")
  set(source ${PROJECT_SOURCE_DIR}/${folder})
  set(public_root ${CUGRADE_HEADER_TREES}/${target}/public)
  set(private_root ${CUGRADE_HEADER_TREES}/${target}/private)
  _cugrade_header_list(headers ${source} "${arg_HEADERS}" "${arg_EXCLUDE}")

  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE")
    set(arg_PRIVATE TRUE)
  endif()
  # Rebuilt from scratch so a removed header disappears from the tree too.
  file(REMOVE_RECURSE ${public_root}/${folder} ${private_root}/${folder})
  file(MAKE_DIRECTORY ${public_root} ${private_root})
  foreach(relative ${headers})
    if(arg_PRIVATE OR relative MATCHES "(^|/)detail/")
      set(link ${private_root}/${folder}/${relative})
    else()
      set(link ${public_root}/${folder}/${relative})
    endif()
    get_filename_component(link_folder ${link} DIRECTORY)
    file(MAKE_DIRECTORY ${link_folder})
    file(CREATE_LINK ${source}/${relative} ${link} SYMBOLIC)
  endforeach()

  if(type STREQUAL "EXECUTABLE")
    target_include_directories(${target} PRIVATE ${public_root} ${private_root})
  else()
    target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${public_root}>
      PRIVATE ${private_root})
  endif()
  set_property(TARGET ${target} PROPERTY CUGRADE_INTERNAL_HEADERS ${private_root})
endfunction()

# The headers of <source> to publish, relative to it: the HEADERS named, or every *.h and *.cuh
# below it outside the EXCLUDE'd subfolders.
function(_cugrade_header_list out source named excluded)
  if(named)
    foreach(header ${named})
      if(NOT EXISTS ${source}/${header})
        message(FATAL_ERROR "cugrade_module_headers: ${source}/${header} does not exist")
      endif()
    endforeach()
    set(${out} ${named} PARENT_SCOPE)
    return()
  endif()
  file(GLOB_RECURSE found CONFIGURE_DEPENDS RELATIVE ${source} ${source}/*.h ${source}/*.cuh)
  set(kept)
  foreach(relative ${found})
    set(skip FALSE)
    foreach(subfolder ${excluded})
      if(relative MATCHES "^${subfolder}/")
        set(skip TRUE)
      endif()
    endforeach()
    if(NOT skip)
      list(APPEND kept ${relative})
    endif()
  endforeach()
  set(${out} ${kept} PARENT_SCOPE)
endfunction()

function(cugrade_module_internals target)
  foreach(module ${ARGN})
    get_target_property(internal ${module} CUGRADE_INTERNAL_HEADERS)
    if(NOT internal)
      message(FATAL_ERROR "cugrade_module_internals: ${module} has no cugrade_module_headers()")
    endif()
    target_include_directories(${target} PRIVATE ${internal})
  endforeach()
endfunction()
