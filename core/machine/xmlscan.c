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

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Index just past the next `end` in b[i..n) (or n). */
static size_t past(const char *b, size_t n, size_t i, const char *end)
{
	size_t len = strlen(end);

	for (; i + len <= n; i++)
		if (b[i] == end[0] && memcmp(b + i, end, len) == 0)
			return i + len;
	return n;
}

/* Past the next `end` (a comment's or a processing instruction's). */
static void skip_past(struct scan *s, const char *end)
{
	size_t to = past(s->b, s->n, s->i, end);

	while (s->i < to)
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

		if (blank(c)) {
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

/* ---- the copy SimGrid reads ---- */

/* Index just past the '>' of the tag at i, quoted values skipped. */
static size_t tag_end(const char *b, size_t n, size_t i)
{
	char quote = 0;

	for (; i < n; i++) {
		if (quote) {
			if (b[i] == quote)
				quote = 0;
		} else if (b[i] == '"' || b[i] == '\'') {
			quote = b[i];
		} else if (b[i] == '>') {
			return i + 1;
		}
	}
	return n;
}

/* Does the <prop> start tag b[i..e) have an id starting with prefix? */
static bool prop_id_has(const char *b, size_t i, size_t e, const char *prefix)
{
	size_t plen = strlen(prefix);

	i += 5;				/* "<prop" */
	for (;;) {
		size_t name, name_len, val;
		char q;

		while (i < e && blank(b[i]))
			i++;
		if (i >= e || b[i] == '/' || b[i] == '>')
			return false;
		name = i;
		while (i < e && !blank(b[i]) && b[i] != '=')
			i++;
		name_len = i - name;
		while (i < e && (blank(b[i]) || b[i] == '='))
			i++;
		if (i >= e || (b[i] != '"' && b[i] != '\''))
			return false;
		q = b[i++];
		val = i;
		while (i < e && b[i] != q)
			i++;
		if (name_len == 2 && memcmp(b + name, "id", 2) == 0)
			return i - val >= plen && memcmp(b + val, prefix, plen) == 0;
		i++;
	}
}

/* End of the element whose start tag is b[i..e): e for an empty-element
 * tag, past "</prop>" if only blanks come before it, else 0 (kept). */
static size_t prop_end(const char *b, size_t n, size_t e)
{
	size_t j = e;

	if (e >= 2 && b[e - 2] == '/')
		return e;
	while (j < n && blank(b[j]))
		j++;
	if (n - j < 6 || memcmp(b + j, "</prop", 6) != 0)
		return 0;
	j += 6;
	while (j < n && blank(b[j]))
		j++;
	return j < n && b[j] == '>' ? j + 1 : 0;
}

size_t dl_xml_drop_props(char *b, size_t n, const char *prefix)
{
	size_t i = 0, o = 0, kept = 0;	/* b[kept..i) is still to be copied to o */

	for (;;) {
		const char *lt = memchr(b + i, '<', n - i);
		size_t e, end;

		if (!lt)
			break;
		i = (size_t)(lt - b);
		if (n - i >= 4 && memcmp(b + i, "<!--", 4) == 0) {
			i = past(b, n, i + 4, "-->");
			continue;
		}
		if (n - i >= 2 && b[i + 1] == '?') {
			i = past(b, n, i + 2, "?>");
			continue;
		}
		if (n - i < 6 || memcmp(b + i, "<prop", 5) != 0 ||
		    !(blank(b[i + 5]) || b[i + 5] == '/' || b[i + 5] == '>')) {
			i = i + 1 < n && b[i + 1] == '!' ? tag_end(b, n, i) : i + 1;
			continue;
		}
		e = tag_end(b, n, i);
		if (!prop_id_has(b, i, e, prefix) || !(end = prop_end(b, n, e))) {
			i = e;
			continue;
		}
		memmove(b + o, b + kept, i - kept);
		o += i - kept;
		/* the element's indentation goes with it; its line breaks stay */
		while (o > 0 && (b[o - 1] == ' ' || b[o - 1] == '\t'))
			o--;
		for (; i < end; i++)
			if (b[i] == '\n')
				b[o++] = '\n';
		kept = end;
	}
	memmove(b + o, b + kept, n - kept);
	return o + n - kept;
}

/* ---- start tags, for copies with additions ---- */

size_t dl_xml_next_start_tag(const char *b, size_t n, size_t i, size_t *end)
{
	for (;;) {
		const char *lt = i < n ? memchr(b + i, '<', n - i) : NULL;

		if (!lt)
			return *end = n;
		i = (size_t)(lt - b);
		if (n - i >= 4 && memcmp(b + i, "<!--", 4) == 0) {
			i = past(b, n, i + 4, "-->");
		} else if (n - i >= 2 && b[i + 1] == '?') {
			i = past(b, n, i + 2, "?>");
		} else if (n - i >= 2 && (b[i + 1] == '!' || b[i + 1] == '/')) {
			i = tag_end(b, n, i);
		} else {
			*end = tag_end(b, n, i);
			return i;
		}
	}
}

bool dl_xml_tag_is(const char *b, size_t start, size_t end, const char *name)
{
	size_t len = strlen(name);

	return end - start > len + 1 && memcmp(b + start + 1, name, len) == 0 &&
	       (blank(b[start + 1 + len]) || b[start + 1 + len] == '/' || b[start + 1 + len] == '>');
}
