# The Debian package: `cpack -G DEB` in a build folder writes cugrade_<version>_<arch>.deb,
# installing under /usr (the layout of install.cmake).
#
# Its dependencies are the Debian packages that hold the shared libraries cugrade links, asked
# of dpkg for the files this build used (so the names fit the release it was built on), plus the
# programs grading starts: g++ (emulation builds) and binutils (nm for the symbol policy,
# addr2line for fault lines). The CUDA toolkit is not a Debian package here: GPU grading needs it
# installed separately, as `cugrade doctor` says.

# The Debian package that owns `file`, or `fallback` where dpkg does not know it.
function(cugrade_owning_package out file fallback)
  set(package "${fallback}")
  if(file AND EXISTS "${file}")
    get_filename_component(real "${file}" REALPATH)
    execute_process(COMMAND dpkg-query -S "${real}" OUTPUT_VARIABLE owner ERROR_QUIET
      RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND owner MATCHES "^([^:,]+)")
      set(package "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${package}" PARENT_SCOPE)
endfunction()

# The shared library an imported target stands for.
function(cugrade_imported_file out target)
  set(file "")
  if(TARGET ${target})
    get_target_property(file ${target} LOCATION)
  endif()
  set(${out} "${file}" PARENT_SCOPE)
endfunction()

cugrade_imported_file(_fmt fmt::fmt)
cugrade_imported_file(_boost_context Boost::context)
cugrade_imported_file(_pugixml pugixml::shared)
find_library(_libgit2 NAMES git2 HINTS ${LIBGIT2_LIBRARY_DIRS})
# libgit2.so is the -dev package's link; its SONAME file belongs to the runtime package.
file(GLOB _libgit2_runtime "${_libgit2}.*")
list(GET _libgit2_runtime 0 _libgit2_runtime_first)
cugrade_owning_package(_dep_fmt "${_fmt}" libfmt9)
cugrade_owning_package(_dep_boost "${_boost_context}" libboost-context1.74.0)
cugrade_owning_package(_dep_git2 "${_libgit2_runtime_first}" libgit2-1.5)
cugrade_owning_package(_dep_pugixml "${_pugixml}" libpugixml1v5)
# The libraries found without an imported target visible here: batch's journal and roster
# (SQLite, libcsv), the sandbox's filter (libseccomp), the leaderboard's HMAC (OpenSSL's libcrypto)
# and its nickname folding (ICU's libicuuc, which brings libicudata with it).
find_library(_libseccomp NAMES seccomp)
find_library(_libcrypto NAMES crypto)
find_library(_libicuuc NAMES icuuc)
cugrade_owning_package(_dep_sqlite "${SQLite3_LIBRARY}" libsqlite3-0)
cugrade_owning_package(_dep_csv "${CSV_LIBRARY}" libcsv3)
cugrade_owning_package(_dep_seccomp "${_libseccomp}" libseccomp2)
cugrade_owning_package(_dep_crypto "${_libcrypto}" libssl3)
cugrade_owning_package(_dep_icu "${_libicuuc}" libicu72)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cugrade)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "CUDA-aware course autograder")
set(CPACK_PACKAGE_CONTACT "cugrade maintainers <cugrade@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_STRIP_FILES TRUE) # as Debian packages ship programs: without debug information
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "CUDA-aware course autograder\n Grades students' CUDA kernels against CPU references on awkward shapes, on an\n NVIDIA GPU when one is usable, else in a CPU emulator, and writes JSON,\n Gradescope, JUnit and text reports.")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libc6, libstdc++6, libgcc-s1, ${_dep_git2}, ${_dep_fmt}, ${_dep_boost}, ${_dep_pugixml}, \
${_dep_sqlite}, ${_dep_csv}, ${_dep_seccomp}, ${_dep_crypto}, ${_dep_icu}, g++, binutils")
message(STATUS "cugrade: .deb dependencies: ${CPACK_DEBIAN_PACKAGE_DEPENDS}")
include(CPack)
