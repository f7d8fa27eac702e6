/* SPDX-License-Identifier: MIT */
/*
 * A JSON result read back as flat pairs: the members of the top-level
 * object, those of nested objects as "outer.inner"; arrays are skipped.
 * Numbers keep their text, strings are unescaped, true/false stay words,
 * null is empty.
 */
#ifndef DL_JSONFLAT_H
#define DL_JSONFLAT_H

struct jf_pair {
	char *key;
	char *value;
	int is_string;
};

struct jf_doc {
	struct jf_pair *pair;
	int n, cap;
};

/* Parse `text`; on error one message naming `file` and the byte. */
int jf_parse(struct jf_doc *d, const char *text, const char *file);
void jf_free(struct jf_doc *d);
const char *jf_get(const struct jf_doc *d, const char *key);

#endif
