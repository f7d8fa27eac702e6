/* SPDX-License-Identifier: MIT */
#include "xmlscan.h"

#include <stdbool.h>
#include <string.h>

struct scan {
	const char *b;
	size_t n, i;
	int line;
};

static bool at(const struct scan *s, const char *word)
{
	size_t len = strlen(word);

	return s->n - s->i >= len && memcmp(s->b + s->i, word, len) == 0;
}

static void step(struct scan *s)
{
	if (s->b[s->i++] == '\n')
		s->line++;
}

/* Past the next `end` (a comment's or a processing instruction's). */
static void skip_past(struct scan *s, const char *end)
{
	while (s->i < s->n && !at(s, end))
		step(s);
	for (size_t k = strlen(end); k && s->i < s->n; k--)
		step(s);
}

/* Past a tag's '>': what its quoted attribute values hold is checked. */
static const char *skip_tag(struct scan *s, bool doctype)
{
	char quote = 0;

	while (s->i < s->n) {
		char c = s->b[s->i];

		if (quote && c == quote) {
			quote = 0;
		} else if (quote && c == '&' && !doctype) {
			return "a reference (&...;) in an attribute value: write the character itself (SimGrid and libxml2 would read different names)";
		} else if (quote && (c == '\n' || c == '\r' || c == '\t') && !doctype) {
			return "a line break or tab inside an attribute value";
		} else if (!quote && (c == '"' || c == '\'')) {
			quote = c;
		} else if (!quote && c == '[' && doctype) {
			return "an internal DTD subset ([...] in <!DOCTYPE>): SimGrid reads none, and dlasim expands no entities";
		} else if (!quote && c == '>') {
			step(s);
			return NULL;
		}
		step(s);
	}
	return NULL;	/* unterminated: libxml2 says so */
}

const char *dl_xml_scan(const char *b, size_t n, int *line)
{
	struct scan s = { b, n, 0, 1 };
	const char *nul = memchr(b, '\0', n), *why = NULL;

	if (nul) {
		for (const char *c = b; c < nul; c++)
			s.line += *c == '\n';
		*line = s.line;
		return "a NUL byte: not a text file";
	}
	*line = 1;
	if (at(&s, "\xef\xbb\xbf"))
		return "a byte-order mark: SimGrid reads UTF-8 without one";
	if (at(&s, "\xfe\xff") || at(&s, "\xff\xfe"))
		return "UTF-16: dlasim reads UTF-8 platform files";
	while (s.i < n && !why) {
		char c = b[s.i];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			step(&s);
		} else if (c == '&') {
			why = "a reference (&...;) between elements: SimGrid reads only elements, comments and whitespace there";
		} else if (c != '<') {
			why = "text between elements: SimGrid reads only elements, comments and whitespace there";
		} else if (at(&s, "<!--")) {
			skip_past(&s, "-->");
		} else if (at(&s, "<![CDATA[")) {
			why = "a CDATA section: SimGrid reads only elements, comments and whitespace between elements";
		} else if (at(&s, "<?")) {
			skip_past(&s, "?>");
		} else {
			why = skip_tag(&s, at(&s, "<!DOCTYPE"));
		}
	}
	*line = s.line;
	return why;
}
