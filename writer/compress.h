#ifndef PREC_WRITER_COMPRESS_H
#define PREC_WRITER_COMPRESS_H
/*
 * -z: ring data as a zstd stream cut into PERF_RECORD_COMPRESSED records
 * (each at most the u16 record size), flushed at the end of every span so
 * no record decompresses to more than one ring's worth, which is what
 * readers size their buffer by (HEADER_COMPRESSED's mmap_len).
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct compressor;

/* Largest payload of one COMPRESSED record, as perf. */
#define COMPRESSED_MAX_PAYLOAD (0xffff - 8 - 1)

/* A zstd stream at level (1..22). NULL on ENOMEM or a bad level. */
struct compressor *compressor__new(int level);

/* Frees c; accepts NULL. */
void compressor__delete(struct compressor *c);

/*
 * Compresses every span and hands each finished record (header included) to
 * emit. Returns 0, -EIO on a zstd error, or emit's negative errno.
 */
int compressor__push(struct compressor *c, const struct iovec *iov, int cnt,
		     int (*emit)(void *arg, const void *rec, size_t len), void *arg);

/* Bytes given to push, and bytes of records emitted (headers included). */
uint64_t compressor__in_bytes(const struct compressor *c);
uint64_t compressor__out_bytes(const struct compressor *c);

#endif
