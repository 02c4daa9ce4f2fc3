# Every package version is dbdf.h's DBDF_VERSION_MAJOR.MINOR.PATCH. CMake's project version and what CMake
# configures from it (the NuGet package, the jar's name) follow by construction; this checks the files that must
# hold the number as a literal. Run with -DSOURCE_DIR=<repository> -DPROJECT_VERSION=<CMake project version>.
file(READ "${SOURCE_DIR}/capi/include/dbdf.h" header)
foreach(part MAJOR MINOR PATCH)
  if(NOT header MATCHES "#define DBDF_VERSION_${part} ([0-9]+)")
    message(FATAL_ERROR "capi/include/dbdf.h defines no DBDF_VERSION_${part}")
  endif()
  set(version_${part} "${CMAKE_MATCH_1}")
endforeach()
set(version "${version_MAJOR}.${version_MINOR}.${version_PATCH}")
set(failures "")
if(NOT PROJECT_VERSION STREQUAL version)
  string(APPEND failures "\n  CMakeLists.txt: project(VERSION ${PROJECT_VERSION})")
endif()

# file | regular expression whose first group is the version | what the group must equal
set(checks
  "bindings/java/pom.xml|<artifactId>dbdf</artifactId>[ \t\r\n]*<version>([^<]*)</version>|${version}"
  "examples/java/consumer/pom.xml|<artifactId>dbdf</artifactId>[ \t\r\n]*<version>([^<]*)</version>|${version}"
  "bindings/csharp/Dbdf.csproj|<Version>([^<]*)</Version>|${version}"
  "bindings/csharp/src/AssemblyInfo.cs|AssemblyVersion\\(\"([^\"]*)\"\\)|${version}.0"
  "bindings/csharp/src/Internal/NativeLoader.cs|const int AbiMajor = ([0-9]+)|${version_MAJOR}"
  "examples/csharp/consumer/Program.exe.config|packages/Dbdf\\.([0-9.]+)/lib|${version}")
foreach(check IN LISTS checks)
  string(REPLACE "|" ";" fields "${check}")
  list(GET fields 0 relative_path)
  list(GET fields 1 pattern)
  list(GET fields 2 expected)
  file(READ "${SOURCE_DIR}/${relative_path}" content)
  if(NOT content MATCHES "${pattern}")
    string(APPEND failures "\n  ${relative_path}: no version found (expected ${expected})")
  elseif(NOT CMAKE_MATCH_1 STREQUAL expected)
    string(APPEND failures "\n  ${relative_path}: ${CMAKE_MATCH_1} (expected ${expected})")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "versions differ from dbdf.h's ${version}:${failures}")
endif()
message(STATUS "every package version is ${version}")
