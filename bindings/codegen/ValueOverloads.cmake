# Generates the per-value-type overloads of the Java and C# bindings from their templates (*.java.in, *.cs.in) and
# bindings/codegen/value_types.txt, which the generator checks against dbdf_value_type_t in capi/include/dbdf.h
# (bindings/README.md, "Value types in the bindings"). Included by bindings/java and bindings/csharp, each of which
# needs the variables below in its own scope; the first inclusion also registers the generator's own tests.
include_guard(DIRECTORY)

find_package(Python3 3.9 REQUIRED COMPONENTS Interpreter)

set(DBDF_CODEGEN_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(DBDF_VALUE_TYPES_TABLE "${DBDF_CODEGEN_DIR}/value_types.txt")
file(GLOB dbdf_codegen_scripts CONFIGURE_DEPENDS "${DBDF_CODEGEN_DIR}/*.py")

# dbdf_generate_value_overloads(<java|csharp> <output directory> <variable> <template>...)
# Expands each <name>.in into <output directory>/<name> when the build needs it, and sets <variable> to the list of
# generated files (to compile, and to depend on).
function(dbdf_generate_value_overloads language output_dir outputs_variable)
  set(outputs)
  foreach(template IN LISTS ARGN)
    cmake_path(GET template FILENAME template_name)
    string(REGEX REPLACE "\\.in$" "" output_name "${template_name}")
    list(APPEND outputs "${output_dir}/${output_name}")
  endforeach()
  add_custom_command(
    OUTPUT ${outputs}
    # Emptied first, so that the file of a template that was removed is not compiled any more.
    COMMAND "${CMAKE_COMMAND}" -E rm -rf "${output_dir}"
    COMMAND "${Python3_EXECUTABLE}" -B "${DBDF_CODEGEN_DIR}/generate_value_overloads.py" --language ${language}
            --header "${PROJECT_SOURCE_DIR}/capi/include/dbdf.h" --table "${DBDF_VALUE_TYPES_TABLE}"
            --output-dir "${output_dir}" ${ARGN}
    DEPENDS ${ARGN} ${dbdf_codegen_scripts} "${DBDF_VALUE_TYPES_TABLE}" "${PROJECT_SOURCE_DIR}/capi/include/dbdf.h"
    COMMENT "Generating the ${language} value-type overloads"
    VERBATIM)
  set(${outputs_variable} ${outputs} PARENT_SCOPE)
endfunction()

get_property(dbdf_codegen_tests_registered GLOBAL PROPERTY DBDF_CODEGEN_TESTS_REGISTERED)
if(dbdf_codegen_tests_registered)
  return()
endif()
set_property(GLOBAL PROPERTY DBDF_CODEGEN_TESTS_REGISTERED TRUE)
add_test(NAME codegen_value_overloads
  COMMAND "${Python3_EXECUTABLE}" -m unittest discover -s "${DBDF_CODEGEN_DIR}/tests"
  WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
set_tests_properties(codegen_value_overloads PROPERTIES
  LABELS "java;csharp"
  ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1;DBDF_HEADER=${PROJECT_SOURCE_DIR}/capi/include/dbdf.h")
