/* SPDX-License-Identifier: MIT */
/*
 * The ring collectives written as an MPI program for SimGrid's SMPI, an
 * implementation independent of dlasim's plugins (test/cli/coll_smpi.sh):
 *   smpi_ring RINGS BYTES BIDIR PHASES
 * runs PHASES x (N-1) steps (2: all-reduce, 1: all-gather); in every step
 * each rank sends BYTES / (RINGS N) to its successor on each of RINGS
 * rings (tags), or with BIDIR = 1 half of it to each neighbour.  Ranks
 * are the hostfile's hosts in ring order.  Each rank prints its time; no
 * collective of MPI's own is used (the platforms route only ring hops).
 */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, n, rings, bidir, phases;
	double bytes, chunk, t0;
	MPI_Request *rq;
	char *buf;

	MPI_Init(&argc, &argv);
	if (argc != 5) {
		fprintf(stderr, "usage: smpi_ring RINGS BYTES BIDIR PHASES\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	rings = atoi(argv[1]);
	bytes = atof(argv[2]);
	bidir = atoi(argv[3]);
	phases = atoi(argv[4]);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	chunk = bytes / rings / n / (bidir ? 2 : 1);
	buf = SMPI_SHARED_MALLOC((size_t)chunk + 1);
	rq = malloc(4 * (size_t)rings * sizeof(*rq));
	t0 = MPI_Wtime();
	for (int s = 0; s < phases * (n - 1); s++) {
		int k = 0;

		for (int r = 0; r < rings; r++) {
			for (int d = 0; d <= bidir; d++) {
				int next = (rank + 1) % n, prev = (rank + n - 1) % n;

				MPI_Irecv(buf, (int)chunk, MPI_BYTE, d ? next : prev, 2 * r + d,
					  MPI_COMM_WORLD, &rq[k++]);
				MPI_Isend(buf, (int)chunk, MPI_BYTE, d ? prev : next, 2 * r + d,
					  MPI_COMM_WORLD, &rq[k++]);
			}
		}
		MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
	}
	printf("rank %d %.12g\n", rank, MPI_Wtime() - t0);
	free(rq);
	SMPI_SHARED_FREE(buf);
	MPI_Finalize();
	return 0;
}
