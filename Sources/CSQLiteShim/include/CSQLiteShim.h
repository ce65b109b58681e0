#ifndef CSQLITESHIM_H
#define CSQLITESHIM_H

/*
 * sqlite3_deserialize for a connection GRDB opened, so that a database known only as bytes (a
 * decrypted backup's Manifest.db) is read in memory and never written to any file system. GRDB
 * has no call for it, and its SQLite module is not one of its products; this shim links the
 * same system libsqlite3 (Debian libsqlite3-dev) that GRDB does.
 */

#include <stdint.h>

/* Copies `size` bytes into memory SQLite owns and makes them the read-only `main` database of
 * `connection` (a `sqlite3 *`). A header saying WAL mode is changed to the rollback journal in
 * the copy: an in-memory database has no WAL to read. Returns an SQLite result code (0: OK). */
int csqlite_deserialize_read_only(void *connection, const void *bytes, int64_t size);

#endif
