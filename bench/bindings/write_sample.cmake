# Writes a small one-block float64 file for the smoke runs of the binding-overhead programs: a 3 x 4 CSV converted
# by the dbdf tool into one dense block. Usage: cmake -DCLI=<dbdf tool> -DOUT=<file.dbdf> -P write_sample.cmake
cmake_minimum_required(VERSION 3.25)
set(csv "${OUT}.csv")
file(WRITE "${csv}" "1.5,2.5,3.5,4.5\n5.5,6.5,7.5,8.5\n9.5,10.5,11.5,12.25\n")
execute_process(
  COMMAND "${CLI}" convert "${csv}" "${OUT}" --value-type f64 --encoding dense --block 3x4
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "dbdf convert failed (${result})")
endif()
