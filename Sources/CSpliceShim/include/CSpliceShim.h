#ifndef CSPLICESHIM_H
#define CSPLICESHIM_H

/*
 * splice(2) and the pipe calls around it, which Swift's Glibc module does not show (they need
 * _GNU_SOURCE). The transfer engine moves a plain-http body from the socket into the partial
 * file through a pipe with them, so the bytes are copied once (pipe to page cache) instead of
 * twice (socket to user, user to page cache). On systems without splice every call fails with
 * ENOSYS and the engine keeps its other paths.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* O_NOATIME where the system has it (also _GNU_SOURCE only), else 0: evidence is read without
 * giving its files a new access time. */
int csplice_noatime_flag(void);

/* Whether this system has splice(2). */
int csplice_available(void);

/* pipe2(fds, O_CLOEXEC | O_NONBLOCK); returns 0 or -1 with errno set. */
int csplice_pipe(int fds[2]);

/* fcntl(fd, F_SETPIPE_SZ, size): the pipe's capacity in bytes, or -1 with errno set. */
int csplice_set_pipe_size(int fd, int size);

/* splice(in, NULL, out, NULL, count, SPLICE_F_MOVE | SPLICE_F_NONBLOCK): socket to pipe. */
ssize_t csplice_from_socket(int socket_fd, int pipe_fd, size_t count);

/* splice(pipe, NULL, file, &offset, count, SPLICE_F_MOVE): pipe to a file at an offset. */
ssize_t csplice_to_file(int pipe_fd, int file_fd, size_t count, int64_t offset);

/* copy_file_range(in, &in_offset, out, &out_offset, count, 0): bytes of one file copied into
 * another inside the kernel (a reflink where the file system shares extents). Returns the count
 * copied, 0 at the end of `in`, or -1 with errno set (ENOSYS where the system has no such call). */
ssize_t csplice_copy_range(int in_fd, int64_t in_offset, int out_fd, int64_t out_offset, size_t count);

#endif
