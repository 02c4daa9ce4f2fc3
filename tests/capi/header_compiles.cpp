// dbdf.h must compile as C++ with all warnings as errors.
#include "dbdf.h"

int dbdf_header_check_cxx();
int dbdf_header_check_cxx() {
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    return static_cast<int>(options.encoding) + DBDF_VERSION_NUMBER;
}
