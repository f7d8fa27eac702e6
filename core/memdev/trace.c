/* SPDX-License-Identifier: MIT */
#include "trace.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/pool.h"
#include "chan.h"

#define TRACE_LINE_MAX 1024
/* The largest CYCLE a trace may give (2^61, docs/memdev.md). */
#define TRACE_CYCLE_MAX ((uint64_t)INT64_MAX / 4)

/* ---- replay ---- */

/* The replay's completion callback: the request goes back to the pool. */
static void give_back(void *arg, struct memdev_req *r)
{
	dl_pool_put(arg, r);
}

/*
 * The replay goes in cycles throughout (md_enqueue_cycle, md_run_all,
 * md_next_all).  Converting to seconds and back, as a caller working in
 * seconds does, gives the cycle itself only below about 2^30 cycles;
 * beyond some 10^10 the rounding exceeds the conversions' margin, a cycle
 * is lost, and the replay never reached its target (a request at cycle
 * 2.5e10 hung).
 */
int memdev_replay(struct memdev *d, memdev_source_fn next, void *arg, int64_t stop,
		  int64_t *end)
{
	struct dl_pool pool;
	struct memdev_req *head = NULL;
	struct memdev_addr a;
	int64_t at = 0, now = 0, target;	/* cycles before `now` are done */
	const char *why;
	int ret = 0, got;
	bool room;

	/* Requests in flight come from a pool: memory follows the queues, not
	 * the length of the stream. */
	dl_pool_init(&pool, sizeof(*head));
	for (;;) {
		if (!head) {
			head = dl_pool_get(&pool);
			if (!head) {
				ret = dl_err("out of memory");
				break;
			}
			*head = (struct memdev_req){ 0 };	/* the source fills what it needs */
			got = next(arg, head, &at);
			if (got <= 0) {
				dl_pool_put(&pool, head);
				head = NULL;
				if (got < 0) {
					ret = -1;
					break;
				}
			} else if ((why = memdev_place(d, head, &a))) {
				/* A source that did not check: say so rather
				 * than drop the request. */
				ret = dl_err("request at %#llx: %s", (unsigned long long)head->addr,
					     why);
				dl_pool_put(&pool, head);
				head = NULL;
				break;
			}
		}
		/* Where it goes does not change while it waits: only whether
		 * its queue has room. */
		room = head && memdev_room(d, &a, head->write);
		if (room && at <= now) {
			/* Handed over at `now`; the next one waits a cycle. */
			if (stop > 0 && now >= stop)
				break;
			md_enqueue_cycle(d, head, &a, now);
			head = NULL;
			md_run_all(d, now, give_back, &pool);
			now++;
			continue;
		}
		if (room) {
			target = at - 1;	/* hand it over at its cycle */
		} else {
			target = md_next_all(d);
			if (target == MD_NEVER)
				break;
		}
		if (stop > 0 && target >= stop)
			break;
		md_run_all(d, target, give_back, &pool);
		now = target + 1;
	}
	if (stop > 0 && now < stop) {
		md_run_all(d, stop - 1, give_back, &pool);
		now = stop;
	}
	*end = now;	/* cycles 0 .. now - 1 are done */
	dl_pool_free(&pool);
	return ret;
}

/* ---- trace files ---- */

/* The file is read in blocks of this size; a line is parsed where it lies
 * in the block, without copying it character by character. */
#define TRACE_BLOCK (64 * 1024)

int memdev_trace_open(struct memdev_trace *t, const char *path, const struct memdev *d)
{
	memset(t, 0, sizeof(*t));
	t->path = path;
	t->d = d;
	/* One byte more: a last line without '\n' is ended with a NUL there. */
	t->buf = malloc(TRACE_BLOCK + 1);
	if (!t->buf)
		return dl_err("out of memory");
	t->f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!t->f) {
		free(t->buf);
		t->buf = NULL;
		return dl_err("%s: cannot open trace: %s", path, strerror(errno));
	}
	return 0;
}

void memdev_trace_close(struct memdev_trace *t)
{
	if (t->f && t->f != stdin)
		fclose(t->f);
	t->f = NULL;
	free(t->buf);
	t->buf = NULL;
}

static int trace_fail(struct memdev_trace *t, const char *what, const char *text)
{
	char s[128];

	dl_printable(s, sizeof(s), text);
	return dl_err("%s:%ld: %s '%s'", t->path, t->line, what, s);
}

/* Keep the unread text at the start of the buffer and append what the
 * file gives; a short read is the end of the file (or an error). */
static void fill(struct memdev_trace *t)
{
	size_t want, got;

	if (t->pos) {
		memmove(t->buf, t->buf + t->pos, t->len - t->pos);
		t->len -= t->pos;
		t->pos = 0;
	}
	want = TRACE_BLOCK - t->len;
	errno = 0;
	got = fread(t->buf + t->len, 1, want, t->f);
	t->len += got;
	if (got < want) {
		t->eof = true;
		t->err = ferror(t->f) ? (errno ? errno : EIO) : 0;
	}
}

static int nul_byte(struct memdev_trace *t)
{
	return dl_err("%s:%ld: a NUL byte: not a text trace", t->path, t->line);
}

/* The next line, NUL-terminated in the buffer, in *line and its length in
 * *len: 1, 0 at the end, -1 on a line of 1024 bytes or more (or on its NUL
 * byte, which comes first).  NUL bytes in shorter lines are the caller's to
 * find (memdev_trace_next): most lines need no search for them. */
static int read_line(struct memdev_trace *t, char **line, size_t *len)
{
	size_t avail, n;
	char *s, *nl;

	t->line++;
	for (;;) {
		s = t->buf + t->pos;
		avail = t->len - t->pos;
		nl = memchr(s, '\n', avail < TRACE_LINE_MAX ? avail : TRACE_LINE_MAX);
		if (nl || avail >= TRACE_LINE_MAX || t->eof)
			break;
		fill(t);
	}
	if (!nl && avail == 0)
		return t->err ? dl_err("%s: cannot read: %s", t->path, strerror(t->err)) : 0;
	n = nl ? (size_t)(nl - s) : avail < TRACE_LINE_MAX ? avail : TRACE_LINE_MAX;
	if (!nl && avail >= TRACE_LINE_MAX) {
		if (memchr(s, '\0', n))
			return nul_byte(t);
		return dl_err("%s:%ld: line longer than %d bytes", t->path, t->line,
			      TRACE_LINE_MAX - 1);
	}
	s[n] = '\0';
	t->pos += nl ? n + 1 : n;
	*line = s;
	*len = n;
	return 1;
}

/* What a character is to a line, looked up rather than compared: every
 * character of a trace goes through these. */
enum { C_SEP = 1, C_END = 2 };	/* a separator; the end of a field */

static const unsigned char ctype[256] = {
	[' '] = C_SEP | C_END, ['\t'] = C_SEP | C_END, ['\r'] = C_SEP | C_END,
	[','] = C_SEP | C_END, ['#'] = C_END, ['\0'] = C_END,
};

/* A hexadecimal digit's value plus one; 0 for anything else. */
#define H10(c) [c] = c - '0' + 1
#define HAF(c, v) [c] = v + 1, [c + 32] = v + 1
static const unsigned char hexval1[256] = {
	H10('0'), H10('1'), H10('2'), H10('3'), H10('4'),
	H10('5'), H10('6'), H10('7'), H10('8'), H10('9'),
	HAF('A', 10), HAF('B', 11), HAF('C', 12), HAF('D', 13), HAF('E', 14), HAF('F', 15),
};

static inline bool separator(char c)
{
	return ctype[(unsigned char)c] & C_SEP;
}

/* Where a field ends: a field cut out by split() ends at its NUL. */
static inline bool field_end(char c)
{
	return ctype[(unsigned char)c] & C_END;
}

/* The usual spellings (decimal without a leading 0, 0x hexadecimal, short
 * enough not to overflow) read directly; anything else as strtoull reads
 * it, so that both accept the same text.  *after: the end of the field. */
static bool quick_u64(const char *s, const char **after, uint64_t *v)
{
	const char *start;
	uint64_t x = 0;
	unsigned h;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		start = s += 2;
		while (s - start < 15 && (h = hexval1[(unsigned char)*s])) {
			x = x << 4 | (h - 1);
			s++;
		}
	} else {
		start = s;
		if (s[0] == '0' && !field_end(s[1]))
			return false;
		while (s - start < 18 && (h = (unsigned char)*s - '0') < 10) {
			x = 10 * x + h;
			s++;
		}
	}
	if (s == start || !field_end(*s))
		return false;
	*v = x;
	*after = s;
	return true;
}

static int parse_u64(const char *s, uint64_t *v)
{
	const char *after;
	char *end;

	if (quick_u64(s, &after, v))
		return 0;
	errno = 0;
	if (*s == '-' || *s == '+')
		return -1;
	*v = strtoull(s, &end, 0);
	return end == s || *end || errno ? -1 : 0;
}

/* Cut `s` into at most `max` fields at separators, up to a '#'. */
static int split(char *s, char **f, int max)
{
	int n = 0;

	for (;;) {
		while (separator(*s))
			s++;
		if (!*s || *s == '#' || n == max)
			return n;
		f[n++] = s;
		while (*s && *s != '#' && !separator(*s))
			s++;
		if (*s != '#' && *s)
			*s++ = '\0';
		else if (*s == '#')
			*s = '\0';
	}
}

/* What a line asks for. */
struct trace_line {
	uint64_t addr, cyc, blocks;
	bool write;
};

/* The operation spelled at s (READ, WRITE, R or W in any case), followed
 * by the end of its field: its length, 0 if none. */
static int quick_op(const char *s, bool *write)
{
	unsigned c = (unsigned char)s[0] | 0x20;

	if (c != 'r' && c != 'w')
		return 0;
	*write = c == 'w';
	if (field_end(s[1]))
		return 1;
	if (c == 'r' && (s[1] | 0x20) == 'e' && (s[2] | 0x20) == 'a' && (s[3] | 0x20) == 'd' &&
	    field_end(s[4]))
		return 4;
	if (c == 'w' && (s[1] | 0x20) == 'r' && (s[2] | 0x20) == 'i' && (s[3] | 0x20) == 't' &&
	    (s[4] | 0x20) == 'e' && field_end(s[5]))
		return 5;
	return 0;
}

static const char *skip_separators(const char *s)
{
	while (separator(*s))
		s++;
	return s;
}

/* A line in the usual spellings, read in one pass: 1, 0 for a blank line,
 * -1 for anything else, which parse_line() then reads (and explains).
 * *stop: where it stopped, at a NUL or a '#'; no character before it is a
 * NUL (each was read as a separator, a digit or a letter). */
static int quick_line(const char *s, struct trace_line *v, const char **stop)
{
	int n;

	s = skip_separators(s);
	*stop = s;
	if (field_end(*s))
		return 0;
	if (!quick_u64(s, &s, &v->addr))
		return -1;
	s = skip_separators(s);
	n = quick_op(s, &v->write);
	if (!n)
		return -1;
	s = skip_separators(s + n);
	if (!quick_u64(s, &s, &v->cyc) || v->cyc > TRACE_CYCLE_MAX)
		return -1;
	s = skip_separators(s);
	v->blocks = 1;
	if (!field_end(*s)) {
		if (!quick_u64(s, &s, &v->blocks) || v->blocks < 1 || v->blocks > 4096)
			return -1;
		s = skip_separators(s);
	}
	*stop = s;
	return !*s || *s == '#' ? 1 : -1;
}

/* Whether the line of n bytes has a NUL byte, quick_line() having read it
 * up to `stop`. */
static bool nul_after(const char *line, size_t n, const char *stop)
{
	return stop < line + n && (!*stop || memchr(stop, '\0', line + n - stop));
}

/* Any line: 1, 0 for a blank line, -1 after a message. */
static int parse_line(struct memdev_trace *t, char *s, struct trace_line *v)
{
	char *f[5];
	int n = split(s, f, 5);

	if (!n)
		return 0;
	if (n < 3 || n > 4)
		return dl_err("%s:%ld: expected ADDRESS OP CYCLE [BLOCKS], got %d fields",
			      t->path, t->line, n);
	if (parse_u64(f[0], &v->addr))
		return trace_fail(t, "address is not a number:", f[0]);
	if (!strcasecmp(f[1], "READ") || !strcasecmp(f[1], "R"))
		v->write = false;
	else if (!strcasecmp(f[1], "WRITE") || !strcasecmp(f[1], "W"))
		v->write = true;
	else
		return trace_fail(t, "operation is not READ or WRITE:", f[1]);
	if (parse_u64(f[2], &v->cyc))
		return trace_fail(t, "cycle is not a whole number of cycles:", f[2]);
	if (v->cyc > TRACE_CYCLE_MAX)
		return trace_fail(t, "cycle is beyond 2^61:", f[2]);
	v->blocks = 1;
	if (n == 4 && (parse_u64(f[3], &v->blocks) || v->blocks < 1 || v->blocks > 4096))
		return trace_fail(t, "blocks is not a count from 1 to 4096:", f[3]);
	return 1;
}

int memdev_trace_next(void *arg, struct memdev_req *r, int64_t *cycle)
{
	struct memdev_trace *t = arg;
	struct trace_line v;
	const char *why, *stop;
	char *line = NULL;
	size_t n = 0;
	int got;

	for (;;) {
		got = read_line(t, &line, &n);
		if (got <= 0)
			return got;
		got = quick_line(line, &v, &stop);
		if (got < 0 || nul_after(line, n, stop)) {
			if (memchr(line, '\0', n))
				return nul_byte(t);
			got = parse_line(t, line, &v);
		}
		if (got < 0)
			return -1;
		if (got)
			break;
	}
	if ((int64_t)v.cyc < t->last)
		return dl_err("%s:%ld: cycle %llu is before the previous line's %lld (a trace is in time order)",
			      t->path, t->line, (unsigned long long)v.cyc, (long long)t->last);
	t->last = (int64_t)v.cyc;
	r->addr = v.addr;
	r->blocks = (unsigned)v.blocks;
	r->write = v.write;
	r->tag = NULL;
	why = memdev_check(t->d, r);
	if (why)
		return dl_err("%s:%ld: request at %#llx: %s", t->path, t->line,
			      (unsigned long long)v.addr, why);
	*cycle = (int64_t)v.cyc;
	return 1;
}
