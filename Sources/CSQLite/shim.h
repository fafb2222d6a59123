#ifndef LIVEGRID_CSQLITE_SHIM_H
#define LIVEGRID_CSQLITE_SHIM_H
// Debian's libsqlite3 for the persistent library index (LibraryIndex).
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import: sqlite copies the bound bytes at once.
static inline int csqlite_bind_text_copy(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}
static inline int csqlite_bind_blob_copy(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
#endif
