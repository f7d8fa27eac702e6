/* SPDX-License-Identifier: MIT */
/*
 * One MPI_Alltoall under SimGrid's SMPI, to compare with `dlasim coll --op
 * alltoall` on the same platform file (bench/smpi_alltoall.sh).  Every
 * rank holds S bytes, S/N for each rank (dlasim's S); buffers are shared
 * (SMPI_SHARED_MALLOC): only sizes matter.  Prints the slowest rank's
 * time in seconds.
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <smpi/smpi.h>

int main(int argc, char **argv)
{
	double t, slowest;
	long bytes;
	int n, rank;
	char *in, *out;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	bytes = argc > 1 ? atol(argv[1]) : 1 << 26;
	in = SMPI_SHARED_MALLOC(bytes);
	out = SMPI_SHARED_MALLOC(bytes);
	MPI_Barrier(MPI_COMM_WORLD);
	t = MPI_Wtime();
	MPI_Alltoall(in, (int)(bytes / n), MPI_CHAR, out, (int)(bytes / n), MPI_CHAR, MPI_COMM_WORLD);
	t = MPI_Wtime() - t;
	MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%.9g\n", slowest);
	SMPI_SHARED_FREE(in);
	SMPI_SHARED_FREE(out);
	MPI_Finalize();
	return 0;
}
