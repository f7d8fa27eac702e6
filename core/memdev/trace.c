/* SPDX-License-Identifier: MIT */
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/diag.h"

#define TRACE_LINE_MAX 1024

/* ---- replay ---- */

/* Requests in flight come from a pool: memory follows the queues, not
 * the length of the stream. */
struct pool {
	struct memdev_req *free;
	struct memdev_req **chunks;
	int nchunks;
};

static struct memdev_req *pool_get(struct pool *p)
{
	struct memdev_req *r = p->free, **grown, *chunk;

	if (r) {
		p->free = r->next;
		return r;
	}
	grown = realloc(p->chunks, (p->nchunks + 1) * sizeof(*grown));
	chunk = calloc(256, sizeof(*chunk));
	if (!grown || !chunk) {
		free(chunk);
		if (grown)
			p->chunks = grown;
		return NULL;
	}
	p->chunks = grown;
	p->chunks[p->nchunks++] = chunk;
	for (int i = 1; i < 256; i++) {
		chunk[i].next = p->free;
		p->free = &chunk[i];
	}
	return &chunk[0];
}

static void pool_put(void *arg, struct memdev_req *r)
{
	struct pool *p = arg;

	r->next = p->free;
	p->free = r;
}

static void pool_free(struct pool *p)
{
	for (int i = 0; i < p->nchunks; i++)
		free(p->chunks[i]);
	free(p->chunks);
}

int memdev_replay(struct memdev *d, memdev_source_fn next, void *arg, int64_t stop,
		  double *end_s)
{
	double cyc = memdev_config(d)->tCK_ns * 1e-9;
	struct pool pool = { 0 };
	struct memdev_req *head = NULL;
	int64_t at = 0, now = 0, target;	/* cycles before `now` are done */
	int ret = 0, got;
	bool room;

	for (;;) {
		if (!head) {
			head = pool_get(&pool);
			if (!head) {
				ret = dl_err("out of memory");
				break;
			}
			got = next(arg, head, &at);
			if (got <= 0) {
				pool_put(&pool, head);
				head = NULL;
				if (got < 0) {
					ret = -1;
					break;
				}
			}
		}
		room = head && memdev_can_accept(d, head);
		if (room && at <= now) {
			/* Handed over at `now`; the next one waits a cycle. */
			if (stop > 0 && now >= stop)
				break;
			memdev_enqueue(d, head, now * cyc);
			head = NULL;
			memdev_advance_all(d, (now + 0.5) * cyc, pool_put, &pool);
			now++;
			continue;
		}
		if (room) {
			target = at - 1;	/* hand it over at its cycle */
		} else {
			double t = memdev_next_event_all(d);

			if (isinf(t))
				break;
			target = (int64_t)llround(t / cyc - 0.5);
		}
		if (stop > 0 && target >= stop)
			break;
		memdev_advance_all(d, (target + 0.5) * cyc, pool_put, &pool);
		now = target + 1;
	}
	if (stop > 0 && now < stop) {
		memdev_advance_all(d, (stop - 0.5) * cyc, pool_put, &pool);
		now = stop;
	}
	*end_s = (now - 0.5) * cyc;	/* cycles 0 .. now - 1 are done */
	if (head)
		pool_put(&pool, head);
	pool_free(&pool);
	return ret;
}

/* ---- trace files ---- */

int memdev_trace_open(struct memdev_trace *t, const char *path, const struct memdev *d)
{
	memset(t, 0, sizeof(*t));
	t->path = path;
	t->d = d;
	t->f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!t->f)
		return dl_err("%s: cannot open trace: %s", path, strerror(errno));
	return 0;
}

void memdev_trace_close(struct memdev_trace *t)
{
	if (t->f && t->f != stdin)
		fclose(t->f);
	t->f = NULL;
}

static int trace_fail(struct memdev_trace *t, const char *what, const char *text)
{
	char s[128];

	dl_printable(s, sizeof(s), text);
	return dl_err("%s:%ld: %s '%s'", t->path, t->line, what, s);
}

/* Reads one line into buf; 0 at the end, -1 on a bad line. */
static int read_line(struct memdev_trace *t, char *buf, size_t len)
{
	size_t n = 0;
	int ch;

	t->line++;
	while ((ch = getc_unlocked(t->f)) != EOF && ch != '\n') {
		if (ch == '\0')
			return dl_err("%s:%ld: a NUL byte: not a text trace", t->path, t->line);
		if (n + 1 >= len)
			return dl_err("%s:%ld: line longer than %zu bytes", t->path, t->line, len - 1);
		buf[n++] = (char)ch;
	}
	buf[n] = '\0';
	if (ch == EOF && n == 0)
		return ferror(t->f) ? dl_err("%s: read error", t->path) : 0;
	return 1;
}

/* The usual spellings (decimal without a leading 0, 0x hexadecimal, short
 * enough not to overflow) read directly; anything else as strtoull reads
 * it, so that both accept the same text. */
static bool quick_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	int n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (s += 2; n < 15; s++, n++) {
			unsigned c = (unsigned char)*s, h;

			if (c - '0' < 10)
				h = c - '0';
			else if ((c | 0x20) - 'a' < 6)
				h = (c | 0x20) - 'a' + 10;
			else
				break;
			x = x << 4 | h;
		}
	} else if (s[0] != '0' || !s[1]) {
		for (; n < 18 && (unsigned)(*s - '0') < 10; s++, n++)
			x = 10 * x + (uint64_t)(*s - '0');
	}
	if (!n || *s)
		return false;
	*v = x;
	return true;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (quick_u64(s, v))
		return 0;
	errno = 0;
	if (*s == '-' || *s == '+')
		return -1;
	*v = strtoull(s, &end, 0);
	return end == s || *end || errno ? -1 : 0;
}

static bool separator(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == ',';
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

int memdev_trace_next(void *arg, struct memdev_req *r, int64_t *cycle)
{
	struct memdev_trace *t = arg;
	char buf[TRACE_LINE_MAX], *f[5];
	const char *why;
	uint64_t addr, cyc, blocks = 1;
	int n, got;

	for (;;) {
		got = read_line(t, buf, sizeof(buf));
		if (got <= 0)
			return got;
		n = split(buf, f, 5);
		if (n)
			break;
	}
	if (n < 3 || n > 4)
		return dl_err("%s:%ld: expected ADDRESS OP CYCLE [BLOCKS], got %d fields",
			      t->path, t->line, n);
	if (parse_u64(f[0], &addr))
		return trace_fail(t, "address is not a number:", f[0]);
	if (!strcasecmp(f[1], "READ") || !strcasecmp(f[1], "R"))
		r->write = false;
	else if (!strcasecmp(f[1], "WRITE") || !strcasecmp(f[1], "W"))
		r->write = true;
	else
		return trace_fail(t, "operation is not READ or WRITE:", f[1]);
	if (parse_u64(f[2], &cyc) || cyc > (uint64_t)INT64_MAX / 4)
		return trace_fail(t, "cycle is not a whole number of cycles:", f[2]);
	if (n == 4 && (parse_u64(f[3], &blocks) || blocks < 1 || blocks > 4096))
		return trace_fail(t, "blocks is not a count from 1 to 4096:", f[3]);
	if ((int64_t)cyc < t->last)
		return dl_err("%s:%ld: cycle %llu is before the previous line's %lld (a trace is in time order)",
			      t->path, t->line, (unsigned long long)cyc, (long long)t->last);
	t->last = (int64_t)cyc;
	r->addr = addr;
	r->blocks = (unsigned)blocks;
	r->tag = NULL;
	why = memdev_check(t->d, r);
	if (why)
		return dl_err("%s:%ld: request at %#llx: %s", t->path, t->line,
			      (unsigned long long)addr, why);
	*cycle = (int64_t)cyc;
	return 1;
}
