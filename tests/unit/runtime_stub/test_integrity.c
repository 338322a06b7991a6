/* The INTEGRITY_CHECK answer against every vector of the reference note
 * integrity-check.md (§3, §5), its intermediate values, and MD2 against RFC 1319. */
#include <stdio.h>
#include <string.h>

#include "integrity.h"
#include "md2.h"

static int failures;

static void
hex(char *s, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(s + 2 * i, "%02x", p[i]);
}

static void
check_bytes(const char *what, const uint8_t *got, size_t n, const char *want)
{
	char s[2 * 128 + 1];

	hex(s, got, n);
	if (strcmp(s, want) != 0) {
		printf("FAIL %s:\n  got  %s\n  want %s\n", what, s, want);
		failures++;
	}
}

static void
check_md2_rfc(void)
{
	static const struct { const char *text, *digest; } suite[] = {
		{ "", "8350e5a3e24c153df2275c9f80692773" },
		{ "a", "32ec01ec4a6dac72c0ab96fb34c0b5d1" },
		{ "abc", "da853b0d3f88d99b30283a69e6ded6bb" },
		{ "message digest", "ab4f496bfb2a530b219ff33031fe06b0" },
		{ "abcdefghijklmnopqrstuvwxyz", "4e8ddff3650292ab5a4108c3aa47940b" },
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		  "da33def2a42df13975352846c30338cd" },
		{ "1234567890123456789012345678901234567890"
		  "1234567890123456789012345678901234567890",
		  "d5976f79d83d3a0dc9806c3c66f3efd8" },
	};

	for (size_t i = 0; i < sizeof suite / sizeof suite[0]; i++) {
		struct zc_md2 md;
		uint8_t digest[ZC_MD2_DIGEST];
		char what[128];

		zc_md2_init(&md);
		zc_md2_absorb(&md, suite[i].text, strlen(suite[i].text));
		zc_md2_finish(&md, digest);
		snprintf(what, sizeof what, "MD2(\"%.20s\")", suite[i].text);
		check_bytes(what, digest, sizeof digest, suite[i].digest);
	}
}

/* §4.1: K; the test keeps its own copy so the library's is checked too. */
static const uint8_t key[16] = {
	0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
	0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f,
};

static void
absorb_ipad(struct zc_md2 *md)
{
	uint8_t block[16];

	for (unsigned i = 0; i < 16; i++)
		block[i] = key[i] ^ 0x36;
	zc_md2_init(md);
	zc_md2_absorb(md, block, sizeof block);
}

static void
check_ipad_state(void)
{
	struct zc_md2 md;

	absorb_ipad(&md);
	check_bytes("ipad state X[0..15]", md.x, 16, "8b219a49e86d1aeef237f9b54a8c3c75");
	check_bytes("ipad state C", md.checksum, 16, "57a110860e60441e705f67d1eb67a13d");
	if (md.last != 0x3d || md.used != 0) {
		printf("FAIL ipad state: L=%#x n=%u, want L=0x3d n=0\n", md.last, md.used);
		failures++;
	}
}

/* §5.1 */
static const struct zc_integrity_device device_a = {
	{ 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	  0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f },
	0, 3, 0,
};
static const struct zc_integrity_device device_b = {
	{ 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	  0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f },
	1, 0x41, 2,
};
static const struct zc_integrity_device device_z = { { 0 }, 1, 1, 1 };
static const struct zc_integrity_device devices_ab[] = { device_a, device_b };

static struct zc_integrity_inputs
common_inputs(uint32_t version, const struct zc_integrity_device *devices, size_t count)
{
	return (struct zc_integrity_inputs){
		.driver_version = 13000,
		.version = version,
		.pid = 4242,
		.thread = (uint32_t)0x7f0000001000u,
		.cudart_table = 0x1000,
		.integrity_table = 0x2000,
		.check_function = 0x3000,
		.unix_seconds = 1764000000,
		.devices = devices,
		.device_count = count,
	};
}

/* MD2((K xor ipad) || message): the HMAC's inner digest, from the records the library encodes. */
static void
check_inner(const char *what, const struct zc_integrity_inputs *in, const char *want)
{
	struct zc_md2 md;
	uint8_t rec[ZC_INTEGRITY_PROCESS_RECORD];
	uint8_t digest[ZC_MD2_DIGEST];

	absorb_ipad(&md);
	zc_integrity_process_record(in, rec);
	zc_md2_absorb(&md, rec, sizeof rec);
	for (size_t d = 0; d < in->device_count; d++) {
		zc_integrity_device_record(&in->devices[d], rec);
		zc_md2_absorb(&md, rec, ZC_INTEGRITY_DEVICE_RECORD);
	}
	zc_md2_finish(&md, digest);
	check_bytes(what, digest, sizeof digest, want);
}

static void
check_messages(void)
{
	struct zc_integrity_inputs v2 = common_inputs(13002, &device_a, 1);
	uint8_t rec[ZC_INTEGRITY_PROCESS_RECORD];

	zc_integrity_process_record(&v2, rec);
	check_bytes("V2 process record", rec, ZC_INTEGRITY_PROCESS_RECORD,
	            "c8320000ca3200009210000000100000"
	            "0010000000000000002000000000000000300000000000000081246900000000");
	zc_integrity_device_record(&device_a, rec);
	check_bytes("device A record", rec, ZC_INTEGRITY_DEVICE_RECORD,
	            "000102030405060708090a0b0c0d0e0f000000000300000000000000");
	zc_integrity_device_record(&device_b, rec);
	check_bytes("device B record", rec, ZC_INTEGRITY_DEVICE_RECORD,
	            "101112131415161718191a1b1c1d1e1f010000004100000002000000");
	zc_integrity_device_record(&device_z, rec);
	check_bytes("device Z record", rec, ZC_INTEGRITY_DEVICE_RECORD,
	            "00000000000000000000000000000000010000000100000001000000");

	check_inner("V2 inner digest", &v2, "a1bac6bdbc2a0827a9987e2cc3c5bd5b");
	struct zc_integrity_inputs v3 = common_inputs(13002, devices_ab, 2);
	check_inner("V3 inner digest", &v3, "352035a0f584733df488851a46efce26");
	struct zc_integrity_inputs v4 = common_inputs(13002, 0, 0);
	check_inner("V4 inner digest", &v4, "fe8228301608d0da5079a9ffe775fca5");
}

struct vector {
	const char *name;
	struct zc_integrity_inputs in;
	uint64_t out[2];
	const char *memory;  /* the 16 bytes as cudart reads them */
};

static void
check_answer(const struct vector *v)
{
	uint64_t out[2] = { 0, 0 };
	uint8_t memory[16];

	zc_integrity_answer(&v->in, out);
	if (out[0] != v->out[0] || out[1] != v->out[1]) {
		printf("FAIL %s: got {%#018llx, %#018llx}, want {%#018llx, %#018llx}\n", v->name,
		       (unsigned long long)out[0], (unsigned long long)out[1],
		       (unsigned long long)v->out[0], (unsigned long long)v->out[1]);
		failures++;
	}
	memcpy(memory, out, sizeof memory);
	check_bytes(v->name, memory, sizeof memory, v->memory);
}

static void
check_vectors(void)
{
	const struct vector vectors[] = {
		{ "V0", common_inputs(13000, &device_a, 1),
		  { 0x3341181C03CB675Cu, 0x8ED383AA1F4CD1E8u }, "5c67cb031c184133e8d14c1faa83d38e" },
		{ "V1", common_inputs(13001, &device_a, 1),
		  { 0x1841181C03CB675Cu, 0x8ED383AA1F4CD1E8u }, "5c67cb031c184118e8d14c1faa83d38e" },
		{ "V2", common_inputs(13002, &device_a, 1),
		  { 0xD73C1E1A71F40F06u, 0x4EC0FE426C36CA40u }, "060ff4711a1e3cd740ca366c42fec04e" },
		{ "V3", common_inputs(13002, devices_ab, 2),
		  { 0xE13F207C0190B0F9u, 0xED25292B15753EBAu }, "f9b090017c203fe1ba3e75152b2925ed" },
		{ "V4", common_inputs(13002, 0, 0),
		  { 0x27F6ACECEAF255D0u, 0x04EDFC1957830372u }, "d055f2eaecacf6277203835719fced04" },
		{ "V5", common_inputs(13002, &device_z, 1),
		  { 0xC1189BE433442B37u, 0xD15432063EBCD0C7u }, "372b4433e49b18c1c7d0bc3e063254d1" },
		{ "V6", common_inputs(13005, &device_a, 1),
		  { 0x5570F995139411FBu, 0x2BF822414DA77766u }, "fb11941395f970556677a74d4122f82b" },
		{ "V7", {
			.driver_version = 12080,
			.version = 12082,
			.pid = 0x002FA423,
			.thread = (uint32_t)0x7ffff79c1000u,
			.cudart_table = 0x7ffff6958240u,
			.integrity_table = 0x7ffff6958220u,
			.check_function = 0x7ffff2aaf4a0u,
			.unix_seconds = 0x682B9CEE,
			.devices = &device_a,
			.device_count = 1,
		  },
		  { 0x24B6C421323EF7C1u, 0x89E2494363FDBC38u }, "c1f73e3221c4b62438bcfd634349e289" },
		/* §3: the constants depend on the last decimal digit only, whatever the other inputs. */
		{ "12080 (ends in 0)", common_inputs(12080, devices_ab, 2),
		  { 0x3341181C03CB675Cu, 0x8ED383AA1F4CD1E8u }, "5c67cb031c184133e8d14c1faa83d38e" },
		{ "12081 (ends in 1)", common_inputs(12081, 0, 0),
		  { 0x1841181C03CB675Cu, 0x8ED383AA1F4CD1E8u }, "5c67cb031c184118e8d14c1faa83d38e" },
	};

	for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++)
		check_answer(&vectors[i]);
}

int
main(void)
{
	check_md2_rfc();
	check_ipad_state();
	check_messages();
	check_vectors();
	if (failures) {
		printf("%d check(s) failed\n", failures);
		return 1;
	}
	printf("integrity: all checks passed\n");
	return 0;
}
