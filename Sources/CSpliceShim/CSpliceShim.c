#define _GNU_SOURCE
#include "CSpliceShim.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#if defined(__linux__)

int csplice_available(void) { return 1; }

int csplice_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }

int csplice_set_pipe_size(int fd, int size) { return fcntl(fd, F_SETPIPE_SZ, size); }

ssize_t csplice_from_socket(int socket_fd, int pipe_fd, size_t count) {
    return splice(socket_fd, NULL, pipe_fd, NULL, count, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
}

ssize_t csplice_to_file(int pipe_fd, int file_fd, size_t count, int64_t offset) {
    loff_t position = (loff_t)offset;
    return splice(pipe_fd, NULL, file_fd, &position, count, SPLICE_F_MOVE);
}

ssize_t csplice_copy_range(int in_fd, int64_t in_offset, int out_fd, int64_t out_offset, size_t count) {
    loff_t from = (loff_t)in_offset, to = (loff_t)out_offset;
    return copy_file_range(in_fd, &from, out_fd, &to, count, 0);
}

#else

int csplice_available(void) { return 0; }

int csplice_pipe(int fds[2]) { (void)fds; errno = ENOSYS; return -1; }

int csplice_set_pipe_size(int fd, int size) { (void)fd; (void)size; errno = ENOSYS; return -1; }

ssize_t csplice_from_socket(int socket_fd, int pipe_fd, size_t count) {
    (void)socket_fd; (void)pipe_fd; (void)count;
    errno = ENOSYS;
    return -1;
}

ssize_t csplice_to_file(int pipe_fd, int file_fd, size_t count, int64_t offset) {
    (void)pipe_fd; (void)file_fd; (void)count; (void)offset;
    errno = ENOSYS;
    return -1;
}

ssize_t csplice_copy_range(int in_fd, int64_t in_offset, int out_fd, int64_t out_offset, size_t count) {
    (void)in_fd; (void)in_offset; (void)out_fd; (void)out_offset; (void)count;
    errno = ENOSYS;
    return -1;
}

#endif

int csplice_noatime_flag(void) {
#ifdef O_NOATIME
    return O_NOATIME;
#else
    return 0;
#endif
}
