# Installs the build, stripped as a release is (`cmake --install --strip`), into a fresh temporary prefix outside
# the source tree, then checks what docs/use-from-c.md promises:
# - bin/dbdf runs with no environment variable (its RUNPATH is $ORIGIN/../lib);
# - every installed library is under 5 MB (no debug sections);
# - a small C consumer builds and runs three times: found through find_package(dbdf) against the shared and against
#   the static library (the install component `static`), and compiled with the flags pkg-config gives plus an rpath
#   to pkg-config's libdir.
# CONSUMER_FLAGS (may be empty) are added to every compile and link, for builds with sanitizers.
execute_process(COMMAND mktemp -d -t dbdf-install-and-consume-XXXXXX OUTPUT_VARIABLE WORK_DIR
                OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
set(prefix "${WORK_DIR}/prefix")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}" --component Unspecified
                        --strip RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install --strip failed")
endif()

# The tool: RUNPATH relative to itself, and it starts from an empty environment.
if(EXISTS "${prefix}/bin/dbdf")
  execute_process(COMMAND readelf -d "${prefix}/bin/dbdf" OUTPUT_VARIABLE dynamic COMMAND_ERROR_IS_FATAL ANY)
  if(NOT dynamic MATCHES "\\(RUNPATH\\)[^\n]*\\$ORIGIN/\\.\\./lib")
    message(FATAL_ERROR "the installed dbdf has no RUNPATH $ORIGIN/../lib:\n${dynamic}")
  endif()
  execute_process(COMMAND env -i "${prefix}/bin/dbdf" --version RESULT_VARIABLE result OUTPUT_VARIABLE output
                  ERROR_VARIABLE error)
  if(NOT result EQUAL 0 OR NOT output MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+")
    message(FATAL_ERROR "the installed dbdf does not run without environment variables: ${output}${error}")
  endif()
endif()

# Shipped libraries carry no debug sections and each is under 5 MB. The release prefix (component Unspecified) has
# no static archive: that is the component `static`, installed and checked below.
file(GLOB_RECURSE installed_libraries "${prefix}/lib*/*.so*" "${prefix}/lib*/*.a")
if(NOT installed_libraries)
  message(FATAL_ERROR "no library was installed under ${prefix}")
endif()
foreach(library IN LISTS installed_libraries)
  if(IS_SYMLINK "${library}")
    continue()
  endif()
  execute_process(COMMAND objdump -h "${library}" OUTPUT_VARIABLE sections COMMAND_ERROR_IS_FATAL ANY)
  if(sections MATCHES "\\.debug_")
    message(FATAL_ERROR "${library} was installed with debug sections")
  endif()
  file(SIZE "${library}" library_size)
  if(library_size GREATER_EQUAL 5242880)
    message(FATAL_ERROR "${library} weighs ${library_size} bytes: a shipped library must stay under 5 MB")
  endif()
endforeach()

# The static archive, for programs that link statically: installed on request, without debug sections (it keeps the
# symbol table and relocations a link needs, so it is larger than the shared library and not held to 5 MB).
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}" --component static --strip
                RESULT_VARIABLE result OUTPUT_QUIET)
file(GLOB static_archives "${prefix}/lib*/libdbdf.a")
if(NOT result EQUAL 0 OR NOT static_archives)
  message(FATAL_ERROR "cmake --install --component static --strip did not install libdbdf.a")
endif()
execute_process(COMMAND objdump -h ${static_archives} OUTPUT_VARIABLE sections COMMAND_ERROR_IS_FATAL ANY)
if(sections MATCHES "\\.debug_")
  message(FATAL_ERROR "${static_archives} was installed with debug sections")
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
# Not on the loader's default path: the program records where libdbdf is (or LD_LIBRARY_PATH must name it).
execute_process(COMMAND pkg-config --variable=libdir dbdf OUTPUT_VARIABLE pc_libdir RESULT_VARIABLE result
                OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(flags UNIX_COMMAND "${CONSUMER_FLAGS} ${flags} -Wl,-rpath,${pc_libdir}")
execute_process(COMMAND cc -std=c11 "${SOURCE_DIR}/consumer.c" ${flags} -o "${WORK_DIR}/pkgconfig_consumer"
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "compiling with pkg-config flags failed")
endif()
execute_process(COMMAND env -u LD_LIBRARY_PATH "${WORK_DIR}/pkgconfig_consumer" RESULT_VARIABLE result
                OUTPUT_VARIABLE output)
if(NOT result EQUAL 0 OR NOT output MATCHES "round trip ok")
  message(FATAL_ERROR "the pkg-config consumer failed: ${output}")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "installed dbdf: the tool runs, libraries under 5 MB, consumed through find_package (shared and "
               "static) and pkg-config")
