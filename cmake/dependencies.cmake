# Every dependency comes from a Debian package (scripts/setup installs them); nothing is downloaded.
find_package(nlohmann_json 3.10 REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 REQUIRED)
find_package(pugixml REQUIRED)
find_package(date REQUIRED)
find_package(Boost 1.74 REQUIRED COMPONENTS context)
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBGIT2 REQUIRED IMPORTED_TARGET libgit2)
find_package(Threads REQUIRED)
# `cugrade batch`: its journal (SQLite) and the roster's CSV (libcsv ships no CMake or pkg-config
# file, so it is found by header and library).
find_package(SQLite3 REQUIRED)
find_path(CSV_INCLUDE_DIR csv.h REQUIRED)
find_library(CSV_LIBRARY csv REQUIRED)
add_library(CSV::CSV UNKNOWN IMPORTED)
set_target_properties(CSV::CSV PROPERTIES IMPORTED_LOCATION ${CSV_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${CSV_INCLUDE_DIR})
if(CUGRADE_ENABLE_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
endif()
