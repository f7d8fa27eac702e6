/* SPDX-License-Identifier: MIT */
/*
 * The reference for bench/dram_replay.sh: read a trace of `dlasim dram`
 * (ADDRESS OP CYCLE per line) with stdio and sscanf and sum its fields,
 * without any device model: the cost of merely reading the requests.
 *   plain_trace TRACE
 * prints the number of requests read.
 */
#include <stdio.h>

int main(int argc, char **argv)
{
	unsigned long long addr, cyc, sum = 0;
	char line[1024], op[16];
	long n = 0;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: plain_trace TRACE\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %15s %llu", &addr, op, &cyc) != 3)
			continue;
		sum += addr + cyc + (op[0] == 'W');
		n++;
	}
	fclose(f);
	printf("%ld %llu\n", n, sum);
	return 0;
}
