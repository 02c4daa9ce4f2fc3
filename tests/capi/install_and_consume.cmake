# Installs the build into a temporary prefix, then builds and runs a small C consumer three times: found through
# find_package(dbdf) against the shared and against the static library, and compiled with the flags pkg-config
# gives. CONSUMER_FLAGS (may be empty) are added to every compile and link, for builds with sanitizers.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}" --component Unspecified
                RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/consumer" -G "${GENERATOR}"
                        "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_C_FLAGS=${CONSUMER_FLAGS}"
                        "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}" RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "configuring the find_package consumer failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/consumer" RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "building the find_package consumer failed")
endif()
foreach(consumer dbdf_consumer dbdf_consumer_static)
  execute_process(COMMAND "${WORK_DIR}/consumer/${consumer}" RESULT_VARIABLE result OUTPUT_VARIABLE output)
  if(NOT result EQUAL 0 OR NOT output MATCHES "round trip ok")
    message(FATAL_ERROR "the find_package consumer ${consumer} failed: ${output}")
  endif()
endforeach()
# The static consumer must not depend on the shared library.
execute_process(COMMAND readelf -d "${WORK_DIR}/consumer/dbdf_consumer_static" OUTPUT_VARIABLE dynamic
                RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR dynamic MATCHES "libdbdf\\.so")
  message(FATAL_ERROR "the static consumer does not link libdbdf statically:\n${dynamic}")
endif()

file(GLOB pc_dirs "${prefix}/lib*/pkgconfig" "${prefix}/lib/*/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "${pc_dirs}")
execute_process(COMMAND pkg-config --cflags --libs dbdf OUTPUT_VARIABLE flags RESULT_VARIABLE result
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "pkg-config does not know dbdf")
endif()
separate_arguments(flags UNIX_COMMAND "${CONSUMER_FLAGS} ${flags}")
execute_process(COMMAND cc -std=c11 "${SOURCE_DIR}/consumer.c" ${flags} -o "${WORK_DIR}/pkgconfig_consumer"
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "compiling with pkg-config flags failed")
endif()
file(GLOB lib_dirs "${prefix}/lib*" "${prefix}/lib/*")
string(REPLACE ";" ":" library_path "${lib_dirs}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${library_path}" "${WORK_DIR}/pkgconfig_consumer"
                RESULT_VARIABLE result OUTPUT_VARIABLE output)
if(NOT result EQUAL 0 OR NOT output MATCHES "round trip ok")
  message(FATAL_ERROR "the pkg-config consumer failed: ${output}")
endif()
message(STATUS "installed dbdf consumed through find_package (shared and static) and pkg-config")
