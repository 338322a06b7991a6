/* A streaming JSON writer: commas and indentation are its business, not the caller's. */
#ifndef ZC_JSON_H
#define ZC_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
	FILE *out;
	int depth;
	bool need_comma[64];
	bool after_key;
} Json;

void json_init(Json *j, FILE *out);
void json_object_begin(Json *j);
void json_object_end(Json *j);
void json_array_begin(Json *j);
void json_array_end(Json *j);
void json_key(Json *j, const char *key);
void json_string(Json *j, const char *s); /* NULL writes null */
void json_uint(Json *j, uint64_t v);
void json_bool(Json *j, bool v);
void json_null(Json *j);
void json_raw(Json *j, const char *text); /* a value written elsewhere, as it is */
void json_field_string(Json *j, const char *key, const char *s);
void json_field_uint(Json *j, const char *key, uint64_t v);
void json_field_bool(Json *j, const char *key, bool v);
void json_finish(Json *j);

#endif
