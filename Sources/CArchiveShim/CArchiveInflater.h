#ifndef CARCHIVEINFLATER_H
#define CARCHIVEINFLATER_H

#include <stddef.h>
#include <stdint.h>

#include "CArchiveShim.h"

/// A gzip file inflated by Intel's ISA-L on a thread of its own, handed to libarchive one buffer
/// at a time. Why not libarchive's own gzip filter: it inflates through zlib on the thread that
/// also parses the tar and runs the scan, and ISA-L's inflater is 2-4x faster than zlib's on the
/// same bytes (Benchmarks/RESULTS.md, "Archives through a faster inflater"). libdeflate is
/// faster still per byte but only inflates a whole member into one buffer, which a bounded scan
/// of a multi-gigabyte member cannot give it. Private to the shim; Swift never sees it. It
/// never reads the file itself: the source's `read` does (Swift, through its system-call seam).
///
/// Behaviour kept from libarchive's filter: several members one after another are one stream;
/// bytes after the last member that do not start another are ignored (a padded tape image).
/// Stricter: each member's CRC-32 and length are checked against its trailer (libarchive leaves
/// that "TODO"), so a damaged archive says so instead of handing on wrong bytes.
typedef struct carchive_inflater carchive_inflater;

/// Starts inflating the gzip stream `read` gives from its first byte, in blocks of
/// `block_size`, on a thread of its own (which makes every call of `read` after this one
/// returns); NULL when the inflater cannot start (libarchive then reads the file itself).
carchive_inflater *carchive_inflater_start(carchive_read_fn read, void *context, size_t block_size);

/// The next buffer of inflated bytes, valid until the next call: its length, 0 at the end, -1
/// on an error (`*error` says which, a static text). Releases the buffer of the last call.
long carchive_inflater_next(carchive_inflater *inflater, const void **buffer, const char **error);

/// The compressed bytes consumed for the buffers handed out so far.
int64_t carchive_inflater_compressed_position(carchive_inflater *inflater);

/// Stops the thread, waits for it and frees everything; NULL is a no-op.
void carchive_inflater_stop(carchive_inflater *inflater);

#endif
