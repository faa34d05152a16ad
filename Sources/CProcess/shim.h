// Process calls Swift cannot make itself: prctl is variadic, and the control messages that carry descriptors over a
// Unix socket are built with macros. Only the C library is used; nothing is linked beyond it.
#ifndef STOCKTAKE_CPROCESS_SHIM_H
#define STOCKTAKE_CPROCESS_SHIM_H

#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

/// The most descriptors one message carries.
#define STOCKTAKE_MAXIMUM_DESCRIPTORS 4

/// Makes this process adopt its orphaned descendants, so that a process started through the account launcher is
/// this process's child once the launcher's go-between has ended. 0, or -1 with errno.
static inline int stocktake_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

/// Sends `length` bytes with `count` descriptors (at most STOCKTAKE_MAXIMUM_DESCRIPTORS) on the Unix socket
/// `socket`, never raising SIGPIPE. The bytes sent, or -1 with errno.
static inline ssize_t stocktake_send_descriptors(
    int socket, const void *bytes, size_t length, const int *descriptors, int count) {
    if (count < 0 || count > STOCKTAKE_MAXIMUM_DESCRIPTORS) {
        errno = EINVAL;
        return -1;
    }
    union {
        char buffer[CMSG_SPACE(sizeof(int) * STOCKTAKE_MAXIMUM_DESCRIPTORS)];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof(control));
    struct iovec part = {.iov_base = (void *)bytes, .iov_len = length};
    struct msghdr message = {0};
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    if (count > 0) {
        message.msg_control = control.buffer;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * count);
        memcpy(CMSG_DATA(header), descriptors, sizeof(int) * count);
    }
    ssize_t sent;
    do {
        sent = sendmsg(socket, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent;
}

/// Receives up to `length` bytes on the Unix socket `socket`, and the descriptors sent with them into `descriptors`
/// (room for `capacity`; each received close-on-exec), their number in `*received`. The bytes received (0 at end of
/// file), or -1 with errno. Descriptors beyond `capacity` are closed, never leaked.
static inline ssize_t stocktake_receive_descriptors(
    int socket, void *bytes, size_t length, int *descriptors, int capacity, int *received) {
    union {
        char buffer[CMSG_SPACE(sizeof(int) * STOCKTAKE_MAXIMUM_DESCRIPTORS)];
        struct cmsghdr align;
    } control;
    struct iovec part = {.iov_base = bytes, .iov_len = length};
    struct msghdr message = {0};
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    message.msg_control = control.buffer;
    message.msg_controllen = sizeof(control.buffer);
    *received = 0;
    ssize_t count;
    do {
        count = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    } while (count < 0 && errno == EINTR);
    if (count < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        int total = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int *carried = (int *)CMSG_DATA(header);
        for (int index = 0; index < total; index++) {
            if (*received < capacity) {
                descriptors[(*received)++] = carried[index];
            } else {
                close(carried[index]);
            }
        }
    }
    return count;
}

#endif
