/* SPDX-License-Identifier: MIT */
/*
 * chakra_sum: totals of Chakra execution traces, for tests that check a
 * writer of traces against closed forms.  For each FILE.et one line:
 *
 *   FILE comp_nodes N typed N num_ops X allreduce B allgather B
 *        reducescatter B alltoall B send B recv B
 *
 * (typed: compute nodes with a dtype attribute; bytes are comm_size sums).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chakra_et.pb-c.h"

enum { COMP, TYPED, OPS, AR, AG, RS, A2A, SEND, RECV, SUMS };

static const char *const label[SUMS] = {
	"comp_nodes", "typed", "num_ops", "allreduce", "allgather", "reducescatter", "alltoall",
	"send", "recv",
};

static double number(const DlasimChakra__Node *n, const char *name, bool *found)
{
	for (size_t k = 0; k < n->n_attr; k++) {
		const DlasimChakra__AttributeProto *a = n->attr[k];

		if (strcmp(a->name, name))
			continue;
		*found = true;
		switch (a->value_case) {
		case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_INT64_VAL: return (double)a->int64_val;
		case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_UINT64_VAL: return (double)a->uint64_val;
		case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_INT32_VAL: return a->int32_val;
		case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_DOUBLE_VAL: return a->double_val;
		default: return 0;
		}
	}
	*found = false;
	return 0;
}

static void add(const DlasimChakra__Node *n, double *sum)
{
	static const int coll[] = { [0] = AR, [2] = AG, [6] = A2A, [7] = RS };
	bool found;
	double size = number(n, "comm_size", &found), type;

	switch (n->type) {
	case DLASIM_CHAKRA__NODE_TYPE__COMP_NODE:
		sum[COMP]++;
		sum[OPS] += number(n, "num_ops", &found);
		number(n, "dtype", &found);
		sum[TYPED] += found;
		break;
	case DLASIM_CHAKRA__NODE_TYPE__COMM_COLL_NODE:
		type = number(n, "comm_type", &found);
		if (type == 0 || type == 2 || type == 6 || type == 7)
			sum[coll[(int)type]] += size;
		break;
	case DLASIM_CHAKRA__NODE_TYPE__COMM_SEND_NODE: sum[SEND] += size; break;
	case DLASIM_CHAKRA__NODE_TYPE__COMM_RECV_NODE: sum[RECV] += size; break;
	default: break;
	}
}

static int sum_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	double sum[SUMS] = { 0 };
	uint8_t *buf = NULL;
	long k = 0;

	if (!f) {
		perror(path);
		return 1;
	}
	for (;;) {
		uint64_t len = 0;
		int c, shift = 0;

		while ((c = fgetc(f)) != EOF) {
			len |= (uint64_t)(c & 0x7f) << shift;
			shift += 7;
			if (!(c & 0x80))
				break;
		}
		if (c == EOF)
			break;
		if (!(buf = realloc(buf, len ? len : 1)) || fread(buf, 1, len, f) != len) {
			fprintf(stderr, "chakra_sum: %s: truncated\n", path);
			return 1;
		}
		if (k++) {
			DlasimChakra__Node *n = dlasim_chakra__node__unpack(NULL, len, buf);

			if (!n) {
				fprintf(stderr, "chakra_sum: %s: message %ld is no Node\n", path, k - 1);
				return 1;
			}
			add(n, sum);
			dlasim_chakra__node__free_unpacked(n, NULL);
		}
	}
	free(buf);
	fclose(f);
	printf("%s", path);
	for (int i = 0; i < SUMS; i++)
		printf(" %s %.17g", label[i], sum[i]);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0;

	for (int i = 1; i < argc; i++)
		bad |= sum_file(argv[i]);
	return bad;
}
