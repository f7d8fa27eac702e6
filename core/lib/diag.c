/* SPDX-License-Identifier: MIT */
#include "diag.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG_MAX 4096

const char *dl_progname = "dlasim";
int dl_verbose;

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;

	if (!len || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

void dl_printable(char *dst, size_t len, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t n = strlen(src), o = 0;

	for (size_t i = 0; i < n && o + 5 < len;) {
		size_t u = s[i] >= 0x80 ? utf8_len(s + i, n - i) : 0;

		if (u) {
			memcpy(dst + o, s + i, u);
			o += u;
			i += u;
		} else if (s[i] >= 0x20 && s[i] < 0x7f) {
			dst[o++] = (char)s[i++];
		} else {
			o += (size_t)snprintf(dst + o, len - o, "\\x%02x", s[i++]);
		}
	}
	if (len)
		dst[o < len ? o : len - 1] = '\0';
}

/* A reason held back (dl_hold_reason()): who gave it, the line it would
 * have been, and where its text starts in that line. */
static char held_from[128], held[MSG_MAX];
static size_t held_text;

static void print_line(const char *prefix, const char *out)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s%s\n", dl_progname, prefix, out);
}

/* A held reason that no failure took is printed as it was given. */
void dl_flush_held_reason(void)
{
	if (!held[0])
		return;
	print_line("", held);
	held[0] = '\0';
}

void dl_vmessage(const char *prefix, const char *fmt, va_list ap)
{
	char raw[MSG_MAX], out[MSG_MAX];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	dl_printable(out, sizeof(out), raw);
	dl_flush_held_reason();
	print_line(prefix, out);
}

void dl_hold_reason(const char *from, const char *prefix, const char *fmt, va_list ap)
{
	static bool registered;
	char raw[MSG_MAX];

	dl_flush_held_reason();
	if (!registered)
		registered = atexit(dl_flush_held_reason) == 0;
	vsnprintf(raw, sizeof(raw), fmt, ap);
	snprintf(held_from, sizeof(held_from), "%s", from);
	dl_printable(held, sizeof(held), prefix);
	held_text = strlen(held);
	dl_printable(held + held_text, sizeof(held) - held_text, raw);
}

bool dl_take_reason(const char *from, char *buf, size_t len)
{
	if (!held[0] || strcmp(from, held_from) != 0)
		return false;
	snprintf(buf, len, "%s", held + held_text);
	held[0] = '\0';
	return true;
}

void dl_verr(const char *fmt, va_list ap)
{
	dl_vmessage("", fmt, ap);
}

int dl_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dl_verr(fmt, ap);
	va_end(ap);
	return -1;
}

void dl_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dl_vmessage("warning: ", fmt, ap);
	va_end(ap);
}
