#!/bin/sh
# SCALE-Sim topology CSVs where a .dnn goes: AlexNet, ResNet-18 and a GEMM
# list (test/data/scalesim/, written from the published shapes) give `nna`
# and `train` the same results as the .dnn files that state the layers
# docs/workloads.md reads them as; rectangular kernels and GEMM layers run
# in both; a bad CSV is one line naming its file, line and column.
. test/lib.sh
D=test/data/scalesim
P=platforms/mc-ring-8.xml

# same NAME ARGS...: the command gives one JSON for NAME.csv and NAME.dnn
# (train's workload_format aside, which names each file's format).
same() {
	name=$1; shift
	label="$name.csv and $name.dnn: $(echo "$*" | sed "s|^$DLASIM ||")"
	for f in csv dnn; do
		"$@" --workload $D/$name.$f --json > "$TMP/$name.$f.raw" 2> "$TMP/err" ||
			echo "failed: $(cat $TMP/err)" > "$TMP/$name.$f.raw"
		grep -v '"workload_format"' "$TMP/$name.$f.raw" > "$TMP/$name.$f.json"
	done
	if [ -s "$TMP/$name.csv.json" ] && cmp -s "$TMP/$name.csv.json" "$TMP/$name.dnn.json" &&
	   ! grep -q failed "$TMP/$name.csv.json"; then
		ok "$label"
	else
		not_ok "$label" "$(diff "$TMP/$name.csv.json" "$TMP/$name.dnn.json" | head -c 400)"
	fi
}

# Reduced inputs for the NNA (its DRAM run is per tile): AlexNet's
# convolutions, ResNet-18 on a 64 x 64 array.
same alexnet-conv "$DLASIM" nna
same resnet18 "$DLASIM" nna --sa 64 --spm 8MiB
same gemm "$DLASIM" nna
for n in alexnet resnet18 gemm; do
	same $n "$DLASIM" train --platform $P --batch 64 --parallel data
done
same gemm "$DLASIM" train --platform $P --batch 64 --parallel model
holds "train names each file's format" \
	"$(grep -c '"workload_format": "scalesim-csv"' "$TMP/gemm.csv.raw") == 1 && $(grep -c '"workload_format": "dnn"' "$TMP/gemm.dnn.raw") == 1"

# Rectangular kernels: a 1x7 then 7x1 pair (a factorised 7x7) runs in both;
# it does 2/7 of the square 7x7's MACs, so it computes for less time.
printf 'input x channels=64 height=17 width=17\nconv a out=64 kernel=1x7 pad=0x3\nconv b out=64 kernel=7x1 pad=3x0\n' > "$TMP/rect.dnn"
printf 'input x channels=64 height=17 width=17\nconv a out=64 kernel=7 pad=3\n' > "$TMP/square.dnn"
expect_ok rect_nna "$DLASIM" nna --workload "$TMP/rect.dnn" --json
# By hand (1-byte elements, a 32 x 32 array): weights K C R S = 64 64 7 per
# layer; steps K/32 x C/32 x R x S x one band = 2 x 2 x 7 per layer.
holds "NNA weight bytes of the pair: 2 x 64 x 64 x 7" "$(json_num $TMP/out weight_bytes) == 57344"
holds "NNA steps of the pair: 2 x (2 x 2 x 7)" "$(json_num $TMP/out steps) == 56"
expect_ok rect_train "$DLASIM" train --platform $P --workload "$TMP/rect.dnn" --batch 64 --json
mv "$TMP/out" "$TMP/rect.json"
expect_ok square_train "$DLASIM" train --platform $P --workload "$TMP/square.dnn" --batch 64 --json
holds "a 1x7 and 7x1 pair computes less than one 7x7" \
	"$(json_num $TMP/rect.json compute_s) < $(json_num $TMP/out compute_s)"

# Bad CSVs: one line naming file:line and the column.
H='Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,'
bad() {	# NAME PATTERN ROW
	printf '%s\n%s\n' "$H" "$3" > "$TMP/$1.csv"
	expect_error "$1" "$1.csv:2: column $2" "$DLASIM" train --platform $P --workload "$TMP/$1.csv"
}
bad missing_column "8 \(Strides\): missing" "c1, 9, 9, 3, 3, 8, 16,"
bad non_numeric "3 \(IFMAP Width\): 'nine' is not an integer" "c1, 9, nine, 3, 3, 8, 16, 1,"
bad zero "6 \(Channels\): '0' is not an integer from 1" "c1, 9, 9, 3, 3, 0, 16, 1,"
bad negative "7 \(Num Filter\): '-16' is not an integer from 1" "c1, 9, 9, 3, 3, 8, -16, 1,"
bad kernel_too_large "5 \(Filter Width\): 11 is larger than the IFMAP Width 9" "c1, 9, 9, 3, 11, 8, 16, 1,"
printf 'Layer, M, N,\nx, 1, 2,\n' > "$TMP/header.csv"
expect_error header_column "header.csv:1: column 4 \(K\) is missing from the header" \
	"$DLASIM" nna --workload "$TMP/header.csv"
printf 'Layer, M, N, K\n' > "$TMP/empty.csv"
expect_error no_rows "empty.csv: a SCALE-Sim topology with a header and no layer rows" \
	"$DLASIM" nna --workload "$TMP/empty.csv"
printf 'Layer, M, N, K\nx, 1, 2, 3\nx, 4, 5, 6\n' > "$TMP/twice.csv"
expect_error name_twice "twice.csv:3: column 1 \(Layer name\): 'x' names an earlier layer too" \
	"$DLASIM" nna --workload "$TMP/twice.csv"
