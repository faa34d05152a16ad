// Process calls Swift cannot make itself: prctl is variadic, the C library has no function for a fork with clone's
// flags, and the control messages that carry descriptors over a Unix socket are built with macros. Only the C
// library is used; nothing is linked beyond it.
#ifndef STOCKTAKE_CPROCESS_SHIM_H
#define STOCKTAKE_CPROCESS_SHIM_H

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

// The flags of clone(2), in case the C library's headers were read without _GNU_SOURCE.
#ifndef CLONE_PARENT
#define CLONE_PARENT 0x00008000
#endif
#ifndef CLONE_CHILD_SETTID
#define CLONE_CHILD_SETTID 0x01000000
#endif
#ifndef CLONE_CHILD_CLEARTID
#define CLONE_CHILD_CLEARTID 0x00200000
#endif

/// The most descriptors one message carries.
#define STOCKTAKE_MAXIMUM_DESCRIPTORS 4

/// Forks this process as its own parent's child (`clone` with CLONE_PARENT): the new process's parent is the
/// caller's, which is signalled when it ends and waits for it, as for a child it forked itself. Returns as `fork`
/// does: the new process's id in the caller, 0 in the new process, -1 with errno when it could not be made.
///
/// Only for a caller with one thread. The C library's `fork` is bypassed, so the handlers libraries registered
/// with `pthread_atfork` do not run in the new process; its thread records its own id as `fork` records it
/// (CLONE_CHILD_SETTID at the address the C library gave the kernel, PR_GET_TID_ADDRESS), when the kernel tells
/// that address.
static inline pid_t stocktake_fork_as_sibling(void) {
#if defined(__x86_64__) || defined(__aarch64__)
    int *threadIdentifier = NULL;
    unsigned long flags = CLONE_PARENT | SIGCHLD;
    if (prctl(PR_GET_TID_ADDRESS, &threadIdentifier, 0, 0, 0) == 0 && threadIdentifier != NULL) {
        flags |= CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID;
    }
    // clone(flags, stack, parent_tid, child_tid, tls): no stack of its own, so the new process goes on on a copy
    // of the caller's, as after `fork`.
    return (pid_t)syscall(SYS_clone, flags, NULL, NULL, threadIdentifier, 0UL);
#else
    errno = ENOSYS;
    return -1;
#endif
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
