/* MD2 message digest (RFC 1319), the hash under the INTEGRITY_CHECK table's HMAC. */
#ifndef ZC_MD2_H
#define ZC_MD2_H

#include <stddef.h>
#include <stdint.h>

enum { ZC_MD2_BLOCK = 16, ZC_MD2_DIGEST = 16 };

/* x[0..15] is the running digest; the bytes of the current block are written
 * into x[16..31] and x[32..47] as they arrive, so no separate block buffer is kept.
 * The fields are visible so a test can compare intermediate states. */
struct zc_md2 {
	uint8_t x[48];
	uint8_t checksum[16];
	uint8_t last;  /* the checksum byte written last (L in RFC 1319) */
	uint8_t used;  /* bytes of the current block absorbed so far */
};

void zc_md2_init(struct zc_md2 *md);
void zc_md2_absorb(struct zc_md2 *md, const void *data, size_t len);
void zc_md2_finish(struct zc_md2 *md, uint8_t digest[ZC_MD2_DIGEST]);

#endif
