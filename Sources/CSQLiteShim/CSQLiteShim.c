#include "CSQLiteShim.h"

#include <sqlite3.h>
#include <string.h>

int csqlite_deserialize_read_only(void *connection, const void *bytes, int64_t size) {
    if (connection == NULL || bytes == NULL || size <= 0) return SQLITE_MISUSE;
    unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)size);
    if (copy == NULL) return SQLITE_NOMEM;
    memcpy(copy, bytes, (size_t)size);
    /* Bytes 18 and 19 of the header: the file format's write and read versions, 2 for WAL. */
    if (size > 19 && copy[18] == 2 && copy[19] == 2) {
        copy[18] = 1;
        copy[19] = 1;
    }
    /* With FREEONCLOSE SQLite frees the copy, also when deserializing fails. */
    return sqlite3_deserialize((sqlite3 *)connection, "main", copy, size, size,
                               SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
}
