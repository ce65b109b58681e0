#ifndef CARCHIVESHIM_H
#define CARCHIVESHIM_H

#include <stdint.h>
#include <stddef.h>

/// A narrow surface over libarchive for reading one archive in one streaming pass: an opaque
/// reader, plain structs, no libarchive type reaches Swift.
typedef struct carchive_reader carchive_reader;

/// What a member is.
enum carchive_kind {
    CARCHIVE_REGULAR = 0,
    CARCHIVE_DIRECTORY = 1,
    CARCHIVE_SYMLINK = 2,
    CARCHIVE_HARDLINK = 3,
    CARCHIVE_OTHER = 4,
};

typedef struct {
    /// The member's name as the archive spells it (UTF-8 when the archive says so, else the
    /// raw bytes); valid until the next call on the reader.
    const char *name;
    int kind;
    /// The size the header declares; -1 when it declares none.
    int64_t size;
    /// Seconds since 1970, and whether the header had them.
    int64_t modified;
    int has_modified;
    int64_t changed;
    int has_changed;
    int64_t created;
    int has_created;
    uint32_t mode;
} carchive_member;

/// Reads up to `count` bytes of the archive's file into `buffer` from where the last read or
/// skip ended: the count, 0 at the end, -1 on an error (which the caller's source keeps, to
/// say). The shim never reads the file itself: Swift does, through its system-call seam, so
/// fault tests reach every read. Called on one thread at a time, not always the same one (the
/// gzip inflater's own).
typedef long (*carchive_read_fn)(void *context, void *buffer, size_t count);

/// Passes over up to `request` bytes without reading them: how many it passed over (0 when it
/// cannot; libarchive then reads them).
typedef int64_t (*carchive_skip_fn)(void *context, int64_t request);

/// Moves where the next read starts, as lseek(2) does (`whence`: SEEK_SET, SEEK_CUR or
/// SEEK_END): the new position, or -1. libarchive's zip reader seeks to the central directory,
/// which holds what a streamed zip's local headers do not (a member's Unix mode).
typedef int64_t (*carchive_seek_fn)(void *context, int64_t offset, int whence);

/// Where an archive's bytes come from, from its first byte on; `context` outlives the reader.
typedef struct {
    carchive_read_fn read;
    carchive_skip_fn skip;
    carchive_seek_fn seek;
    void *context;
} carchive_source;

/// Whether `bytes` (a file's first bytes, or what follows a member) begin a gzip member as
/// libarchive's filter decides it: the magic, deflate, and no reserved flag bit. Such a file is
/// inflated by ISA-L on a thread of its own (CArchiveInflater.h says why), which asks the same
/// of the bytes after each member.
int carchive_starts_gzip_member(const void *bytes, size_t count);

/// Reads the archive `source` gives (`gzip`: the caller found it starts a gzip member); zip, tar
/// (ustar, pax, gnu; concatenated tars read on past the first one's end), 7-zip's and cpio
/// formats, gzip (of one member or several), bzip2 and xz filters. NULL when libarchive cannot
/// start.
carchive_reader *carchive_open(carchive_source source, int gzip, size_t block_size);

/// 1 a member, 0 the end, -1 an error (carchive_error says which).
int carchive_next(carchive_reader *reader, carchive_member *member);

/// Reads up to `capacity` bytes of the current member's data: the count, 0 at its end, -1 an error.
long carchive_read(carchive_reader *reader, void *buffer, size_t capacity);

/// libarchive's text for the last error, or "".
const char *carchive_error(carchive_reader *reader);

/// The archive's format name after the first header ("ZIP 2.0 (deflation)", "POSIX pax
/// interchange format", ...), or "".
const char *carchive_format(carchive_reader *reader);

/// The compressed bytes read so far (for the expansion bound).
int64_t carchive_compressed_position(carchive_reader *reader);

void carchive_close(carchive_reader *reader);

/// Inflates the start of a gzip stream given only its first `count` bytes (a file's first bytes,
/// never the whole file): up to `capacity` bytes into `out`, stopping without error where the
/// bytes end. The count inflated, or -1 when the bytes are no gzip stream.
long carchive_gunzip_start(const void *bytes, size_t count, void *out, size_t capacity);

#endif
