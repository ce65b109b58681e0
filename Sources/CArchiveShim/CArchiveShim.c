#include "CArchiveShim.h"

#include "CArchiveInflater.h"

#include <archive.h>
#include <archive_entry.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#if defined(__APPLE__)
#include <xlocale.h>
#endif

/// A UTF-8 character type for libarchive's name conversions, or (locale_t)0 when the system has
/// none. libarchive converts a name it knows to be UTF-8 (a zip member flagged so: Python's
/// zipfile, Info-ZIP, Windows) to the current locale's charset, and in the C locale a process
/// starts in that fails for every name that is not ASCII: the member came out with no name at
/// all. Reading under a UTF-8 locale keeps such names as the archive has them; names of unknown
/// charset are copied as bytes either way.
static locale_t carchive_utf8_locale = (locale_t)0;
static pthread_once_t carchive_utf8_once = PTHREAD_ONCE_INIT;

static void carchive_make_utf8_locale(void) {
    const char *names[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8", "UTF-8"};
    for (size_t index = 0; index < sizeof(names) / sizeof(names[0]); index++) {
        carchive_utf8_locale = newlocale(LC_CTYPE_MASK, names[index], (locale_t)0);
        if (carchive_utf8_locale != (locale_t)0) return;
    }
}

/// Switches this thread to the UTF-8 character type; returns what to switch back to.
static locale_t carchive_enter_utf8(void) {
    pthread_once(&carchive_utf8_once, carchive_make_utf8_locale);
    if (carchive_utf8_locale == (locale_t)0) return (locale_t)0;
    return uselocale(carchive_utf8_locale);
}

static void carchive_leave_utf8(locale_t previous) {
    if (previous != (locale_t)0) uselocale(previous);
}

struct carchive_reader {
    struct archive *archive;
    /// The gzip stream's own inflater when the file is gzip, else NULL (libarchive reads the
    /// source itself, through `carchive_plain_read`).
    carchive_inflater *inflater;
    /// The source and the buffer libarchive is handed its bytes in, when it reads them itself.
    carchive_source source;
    unsigned char *buffer;
    size_t buffer_size;
};

static la_ssize_t carchive_inflated_read(struct archive *archive, void *context, const void **buffer) {
    const char *error = NULL;
    long count = carchive_inflater_next(((carchive_reader *)context)->inflater, buffer, &error);
    if (count < 0) archive_set_error(archive, -1 /* libarchive's ARCHIVE_ERRNO_MISC, not public */, "%s", error != NULL ? error : "gzip: cannot inflate");
    return (la_ssize_t)count;
}

static la_ssize_t carchive_plain_read(struct archive *archive, void *context, const void **buffer) {
    carchive_reader *reader = context;
    long count = reader->source.read(reader->source.context, reader->buffer, reader->buffer_size);
    if (count < 0) {
        // The source keeps the failure, and the Swift side says it (ArchiveReader).
        archive_set_error(archive, -1, "cannot read the file");
        return -1;
    }
    *buffer = reader->buffer;
    return (la_ssize_t)count;
}

static la_int64_t carchive_plain_skip(struct archive *archive, void *context, la_int64_t request) {
    (void)archive;
    carchive_reader *reader = context;
    return request > 0 ? (la_int64_t)reader->source.skip(reader->source.context, (int64_t)request) : 0;
}

static la_int64_t carchive_plain_seek(struct archive *archive, void *context, la_int64_t offset, int whence) {
    (void)archive;
    carchive_reader *reader = context;
    int64_t position = reader->source.seek(reader->source.context, (int64_t)offset, whence);
    return position < 0 ? ARCHIVE_FATAL : (la_int64_t)position;
}

carchive_reader *carchive_open(carchive_source source, int gzip, size_t block_size) {
    struct archive *archive = archive_read_new();
    if (archive == NULL) return NULL;
    archive_read_support_filter_gzip(archive);
    archive_read_support_filter_bzip2(archive);
    archive_read_support_filter_xz(archive);
    archive_read_support_format_zip(archive);
    archive_read_support_format_tar(archive);
    archive_read_support_format_gnutar(archive);
    archive_read_support_format_cpio(archive);
    archive_read_support_format_7zip(archive);
    // A tar after another's end-of-archive blocks (`cat a.tar.gz b.tar.gz`, a tool that appends)
    // is read on, as `tar --ignore-zeros` would: a plain `tar -x` stops at the first end and
    // leaves the rest unseen, and evidence hidden there is evidence all the same.
    archive_read_set_format_option(archive, "tar", "read_concatenated_archives", "1");
    carchive_reader *reader = calloc(1, sizeof(carchive_reader));
    if (reader == NULL) {
        archive_read_free(archive);
        return NULL;
    }
    reader->archive = archive;
    reader->source = source;
    reader->buffer_size = block_size < 4096 ? 4096 : block_size;
    // A gzip file is inflated by ISA-L on a thread of its own (CArchiveInflater.h says why);
    // libarchive then reads the tar (or whatever the gzip holds) from its buffers. Where the
    // inflater cannot start, libarchive's own gzip filter reads the file.
    reader->inflater = gzip ? carchive_inflater_start(source.read, source.context, block_size) : NULL;
    int opened;
    if (reader->inflater != NULL) {
        opened = archive_read_open2(archive, reader, NULL, carchive_inflated_read, NULL, NULL);
    } else {
        reader->buffer = malloc(reader->buffer_size);
        if (reader->buffer == NULL) {
            opened = ARCHIVE_FATAL;
        } else {
            // What archive_read_open_fd sets for a file, through the source instead of the fd.
            archive_read_set_seek_callback(archive, carchive_plain_seek);
            opened = archive_read_open2(archive, reader, NULL, carchive_plain_read, carchive_plain_skip, NULL);
        }
    }
    if (opened != ARCHIVE_OK) {
        carchive_close(reader);
        return NULL;
    }
    return reader;
}

static int carchive_next_in_utf8(carchive_reader *reader, carchive_member *member);

int carchive_next(carchive_reader *reader, carchive_member *member) {
    // The header is read and its name taken under the UTF-8 character type; the name stays
    // valid until the next header, whatever the locale then.
    locale_t previous = carchive_enter_utf8();
    int status = carchive_next_in_utf8(reader, member);
    carchive_leave_utf8(previous);
    return status;
}

static int carchive_is_ascii(const char *text) {
    for (const unsigned char *c = (const unsigned char *)text; *c != 0; c++) {
        if (*c >= 0x80) return 0;
    }
    return 1;
}

static int carchive_next_in_utf8(carchive_reader *reader, carchive_member *member) {
    struct archive_entry *entry = NULL;
    int status = archive_read_next_header(reader->archive, &entry);
    if (status == ARCHIVE_EOF) return 0;
    // ARCHIVE_WARN still gives a usable header (an unknown extension, say).
    if (status != ARCHIVE_OK && status != ARCHIVE_WARN) return -1;
    // UTF-8 when libarchive can say it (a pax path, a zip flagged UTF-8); otherwise the bytes as
    // the archive holds them, which Swift shows escaped where they are not UTF-8: a conversion
    // here would turn two different names into the same replacement characters.
    // A name held as it was read (a ustar header) that is plain ASCII is already its UTF-8: taken
    // as it is: asking for UTF-8 converts it through the locale's converter, about 3 % of a
    // 20,000-member .tar.gz scan (perf). libarchive's tar reader still converts each regular
    // file's name to wide characters itself (a trailing `/` makes it a folder): that cost stays.
    const char *name = archive_entry_pathname(entry);
    if (name == NULL || !carchive_is_ascii(name)) {
        name = archive_entry_pathname_utf8(entry);
        if (name == NULL) name = archive_entry_pathname(entry);
    }
    member->name = name != NULL ? name : "";
    if (archive_entry_hardlink(entry) != NULL) {
        member->kind = CARCHIVE_HARDLINK;
    } else {
        switch (archive_entry_filetype(entry)) {
        case AE_IFREG: member->kind = CARCHIVE_REGULAR; break;
        case AE_IFDIR: member->kind = CARCHIVE_DIRECTORY; break;
        case AE_IFLNK: member->kind = CARCHIVE_SYMLINK; break;
        default: member->kind = CARCHIVE_OTHER; break;
        }
    }
    member->size = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : -1;
    member->has_modified = archive_entry_mtime_is_set(entry);
    member->modified = member->has_modified ? (int64_t)archive_entry_mtime(entry) : 0;
    member->has_changed = archive_entry_ctime_is_set(entry);
    member->changed = member->has_changed ? (int64_t)archive_entry_ctime(entry) : 0;
    member->has_created = archive_entry_birthtime_is_set(entry);
    member->created = member->has_created ? (int64_t)archive_entry_birthtime(entry) : 0;
    member->mode = (uint32_t)archive_entry_mode(entry);
    return 1;
}

long carchive_read(carchive_reader *reader, void *buffer, size_t capacity) {
    la_ssize_t count = archive_read_data(reader->archive, buffer, capacity);
    if (count < 0) return -1;
    return (long)count;
}

const char *carchive_error(carchive_reader *reader) {
    const char *text = archive_error_string(reader->archive);
    return text != NULL ? text : "";
}

const char *carchive_format(carchive_reader *reader) {
    const char *name = archive_format_name(reader->archive);
    return name != NULL ? name : "";
}

int64_t carchive_compressed_position(carchive_reader *reader) {
    // With the own inflater libarchive only sees inflated bytes: the file's position is the
    // inflater's, as of the last buffer libarchive was given.
    if (reader->inflater != NULL) return carchive_inflater_compressed_position(reader->inflater);
    return (int64_t)archive_filter_bytes(reader->archive, -1);
}

void carchive_close(carchive_reader *reader) {
    if (reader == NULL) return;
    archive_read_free(reader->archive);
    carchive_inflater_stop(reader->inflater);
    free(reader->buffer);
    free(reader);
}

