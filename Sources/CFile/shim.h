// File calls Swift cannot make itself, or not on every system: the C library declares sync_file_range only for
// _GNU_SOURCE, which Swift's Glibc module does not define, and Darwin has no posix_fadvise. Only the C library is
// used; nothing is linked beyond it.
#ifndef STOCKTAKE_CFILE_SHIM_H
#define STOCKTAKE_CFILE_SHIM_H

#include <sys/types.h>
#if defined(__linux__)
#include <fcntl.h>

// As glibc's <fcntl.h> declares it under _GNU_SOURCE.
extern int sync_file_range(int fd, __off64_t offset, __off64_t count, unsigned int flags);
#endif

/// Starts writing the `length` bytes of `descriptor` from `offset` out to disk, without waiting for them: a large
/// output's bytes then go to disk while the rest of it is still being made, and the flush that ends it waits for
/// little. 0, or -1 with errno; a hint only (where the call does not exist, it does nothing and returns 0).
static inline int stocktake_start_writeback(int descriptor, long long offset, long long length) {
#if defined(__linux__)
    // SYNC_FILE_RANGE_WRITE: start writing the dirty pages of the range, wait for nothing.
    return sync_file_range(descriptor, offset, length, 2);
#else
    (void)descriptor;
    (void)offset;
    (void)length;
    return 0;
#endif
}

/// Drops the cached pages of `descriptor`'s file that are already on disk, so that their memory goes back to the
/// system at once instead of staying in the page cache until something else needs it. 0, or an errno; a hint only
/// (pages not yet on disk stay, and where the call does not exist it does nothing).
static inline int stocktake_release_cached(int descriptor) {
#if defined(__linux__)
    // Offset 0 and length 0: the whole file.
    return posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED);
#else
    (void)descriptor;
    return 0;
#endif
}

#endif
