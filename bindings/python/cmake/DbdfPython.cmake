# Finds the Python interpreter on PATH (the one scripts/install-deps.sh installs the test requirements into) and
# checks that it has what the package and its tests import. Sets DBDF_PYTHON_EXECUTABLE (a cache variable, so
# -DDBDF_PYTHON_EXECUTABLE=... chooses another interpreter). Used by bindings/python and examples/python.
include_guard(GLOBAL)

find_program(DBDF_PYTHON_EXECUTABLE NAMES python3 python REQUIRED)
execute_process(
  COMMAND "${DBDF_PYTHON_EXECUTABLE}" -c
          "import sys; assert sys.version_info >= (3, 9), sys.version; import numpy, scipy, pytest"
  RESULT_VARIABLE dbdf_python_check_result
  OUTPUT_QUIET ERROR_VARIABLE dbdf_python_check_error)
if(NOT dbdf_python_check_result EQUAL 0)
  message(FATAL_ERROR
    "Python binding: ${DBDF_PYTHON_EXECUTABLE} is not Python >= 3.9 with numpy, scipy and pytest:\n"
    "${dbdf_python_check_error}\n"
    "Run scripts/install-deps.sh (it installs bindings/python/requirements-test.txt), choose another interpreter "
    "with -DDBDF_PYTHON_EXECUTABLE=..., or configure with -DDBDF_BUILD_PYTHON=OFF.")
endif()
