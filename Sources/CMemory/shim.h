// Memory instructions Swift does not expose. Only the compiler's builtins are used; nothing is linked.
#ifndef STOCKTAKE_CMEMORY_SHIM_H
#define STOCKTAKE_CMEMORY_SHIM_H

/// Asks the processor to bring the cache line holding `address` closer, without waiting for it and without faulting:
/// a table of millions of entries is then read a few lookups ahead of its use, so that lookups wait for memory
/// together instead of one after another. A hint only; any address may be given.
static inline void stocktake_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
