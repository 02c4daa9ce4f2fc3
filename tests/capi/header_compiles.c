/* dbdf.h must compile as strict C99 / C11 with all warnings as errors. */
#include "dbdf.h"

int dbdf_header_check(void);
int dbdf_header_check(void) {
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    dbdf_open_options_t open_options = DBDF_OPEN_OPTIONS_INIT;
    dbdf_writer_options_t writer_options = DBDF_WRITER_OPTIONS_INIT;
    dbdf_block_info_t info;
    info.block_type = DBDF_BLOCK_COO;
    return (int)options.encoding + (int)info.block_type + DBDF_VERSION_NUMBER + (int)open_options.dialect +
           writer_options.write_meta + (int)DBDF_PAYLOAD_STRIDED_COLUMN;
}
