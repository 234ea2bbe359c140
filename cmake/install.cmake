# Installing cugrade (cmake --install build/<preset> --prefix P) and its Debian package (cpack).
#
#   P/bin/            cugrade, cugrade-fetch, the runners, cugrade-roofline (GPU builds), cugrade-validate-report
#   P/lib/cugrade/    libcugrade_emu.so (the emulator's runtime that students' code links)
#   P/share/cugrade/  assignments/ (specs, hidden.json, starters), reference/, emu/include/ (the
#                     emulator's CUDA headers), reports/schema/
#
# Two components. `student` is what students install to run `cugrade check`: the programs, the
# emulator, the starters and the visible specs. `instructor` adds the reference solutions
# (reference/) and the hidden test groups (assignments/*/hidden.json). A plain `cmake --install`
# and the .deb hold both; `cmake --install build/<preset> --component student --prefix P` holds
# no reference kernel and no hidden shape (tests/install/student_test.sh proves it).
#
# grader/layout/layout.cpp finds the data relative to the installed executable, so P/bin/cugrade
# works from any directory without environment variables. Installed programs carry the RPATH
# $ORIGIN/../lib/cugrade (set before the targets are made, in the top-level CMakeLists.txt).

# What grading and installing need, and nothing more: `cmake --build --preset grade` (scripts/grade)
# builds the target cugrade_grading, that is these and none of the test suites.
set(CUGRADE_GRADING_TARGETS cugrade cugrade-fetch cugrade-runner-emu cugrade_emu
    cugrade-validate-report)
foreach(optional cugrade-runner-gpu cugrade-roofline)
  if(TARGET ${optional})
    list(APPEND CUGRADE_GRADING_TARGETS ${optional})
  endif()
endforeach()
add_custom_target(cugrade_grading DEPENDS ${CUGRADE_GRADING_TARGETS})

set(CUGRADE_INSTALL_LIBDIR lib/cugrade)
set(CUGRADE_INSTALL_DATADIR share/cugrade)

set(_programs ${CUGRADE_GRADING_TARGETS})
list(REMOVE_ITEM _programs cugrade_emu)
install(TARGETS ${_programs} RUNTIME DESTINATION bin COMPONENT student)
install(TARGETS cugrade_emu LIBRARY DESTINATION ${CUGRADE_INSTALL_LIBDIR} COMPONENT student)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assignments/ DESTINATION ${CUGRADE_INSTALL_DATADIR}/assignments
  COMPONENT student PATTERN hidden.json EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assignments/ DESTINATION ${CUGRADE_INSTALL_DATADIR}/assignments
  COMPONENT instructor FILES_MATCHING PATTERN hidden.json)
if(EXISTS ${PROJECT_SOURCE_DIR}/reference)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/reference/ DESTINATION ${CUGRADE_INSTALL_DATADIR}/reference
    COMPONENT instructor PATTERN CMakeLists.txt EXCLUDE)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/harness/emu/include/
  DESTINATION ${CUGRADE_INSTALL_DATADIR}/emu/include COMPONENT student)
install(FILES ${PROJECT_SOURCE_DIR}/reports/schema/report.schema.json
  DESTINATION ${CUGRADE_INSTALL_DATADIR}/reports/schema COMPONENT student)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md
  DESTINATION share/doc/cugrade COMPONENT student)

include(${CMAKE_CURRENT_LIST_DIR}/package.cmake)
