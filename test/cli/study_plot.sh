#!/bin/sh
# dlasim study mcdla --plot DIR: Figures 11-14 as PNG and SVG.  The images
# are checked for being whole (PNG signature, IHDR of the size
# docs/figures.md gives, IEND last; SVG closed) and non-trivial (every
# drawn bar in the SVG, the axes' labels with units, the paper's mark);
# the numbers drawn are checked against means computed here from the CSV
# of the same runs.  Reduced input: data-parallel, DC-DLA and MC-DLA(B),
# which is what Figure 14's batch sweep runs anyway.
. test/lib.sh

F=$TMP/fig
expect_ok plot $DLASIM study mcdla --parallel data --designs 'MC-DLA(B)' --csv --plot $F
cp $TMP/out $TMP/s.csv
holds "without --batch, Figure 14's five batch sizes: 80 runs" \
	"$(grep -c '^data,' $TMP/s.csv) == 80 && $(grep -c '^data,MC-DLA(B),.*,2048$' $TMP/s.csv) == 8"

# png NAME: whole, 1100 x 620, and more than an empty frame (~3 KB).
png() {
	f=$F/$1.png
	sig=$(od -A n -t x1 -N 24 "$f" 2>/dev/null | tr -d ' \n')
	end=$(tail -c 8 "$f" 2>/dev/null | head -c 4)
	size=$(wc -c < "$f" 2>/dev/null || echo 0)
	holds "$1.png: PNG of 1100 x 620, IEND last, $size bytes" \
		"\"$sig\" == \"89504e470d0a1a0a0000000d494844520000044c0000026c\" && \"$end\" == \"IEND\" && $size > 10000"
}
# svg NAME COLOUR BARS TEXT...: closed, with at least BARS shapes in
# COLOUR (a series' bars, lines or points), and every TEXT.
svg() {
	f=$F/$1.svg; name=$1; colour=$2; bars=$3; shift 3
	n=$(grep -o "$colour" "$f" 2>/dev/null | wc -l)
	missing=0
	for t in "$@"; do grep -qF -- "$t" "$f" || { missing=1; echo "    $name.svg lacks '$t'"; }; done
	holds "$name.svg: closed, $n shapes of the series (>= $bars), labels" \
		"$(grep -c '^<svg' "$f") == 1 && $(tail -n 3 "$f" | grep -c '</svg>') == 1 && $n >= $bars && $missing == 0"
}
ORANGE='rgb(230, 159,   0)'
for f in fig11-data fig12 fig13-data fig14-data; do
	png $f
done
# Figure 11: 16 stacks (8 benchmarks x 2 designs), synchronization second;
# each bar's design under it, the benchmarks under their groups.
svg fig11-data "$ORANGE" 16 "Figure 11" "(fraction)" ">vgg-e<" ">MC-DLA(B)<" "memory virtualization"
# Figure 12: DC-DLA's 8 bars (MC-DLA(B)'s are 0 high, said under the plot,
# with the paper's 0 GB/s marked on them, Section V-A).
svg fig12 "rgb(  0, 114, 178)" 8 "Figure 12" "(GB/s)" "paper" "MC-DLA(B): 0 at every point"
svg fig13-data "$ORANGE" 9 "Figure 13" "speedup over DC-DLA (x)" "HarMean" "paper"
svg fig14-data "$ORANGE" 5 "Figure 14" "(samples)" "speedup over DC-DLA (x)" "paper"
holds "no model-parallel figures for a data-parallel study" "$(ls $F | grep -c model) == 0"

# The numbers drawn: harmonic means from the CSV (the program's own
# columns, T(DC-DLA) / T(MC-DLA(B)) per benchmark) at batch B, within the
# CSV's 9 significant digits.
hm() {
	awk -F, -v n="$1" '$16 == n && $2 == "DC-DLA" { s[$3] = $4 }
		$16 == n && $2 == "MC-DLA(B)" { f[$3] = $4 }
		END { for (w in f) { k++; x += f[w] / s[w] }; printf "%.9g", k / x }' $TMP/s.csv
}
# dat NAME SERIES X: the y of point X of series SERIES in NAME.dat.
dat() {
	awk -v s="# series $2:" -v x="$3" 'index($0, s) == 1 { on = 1; next }
		/^#/ { on = 0 } on && $1 == x { print $2 }' $F/$1.dat
}
close "Figure 13: MC-DLA(B)'s harmonic mean bar" "$(dat fig13-data 1 25)" "$(hm 512)" 1e-7
close "Figure 14: the harmonic mean at batch 2048" "$(dat fig14-data 8 2048)" "$(hm 2048)" 1e-7
close "Figure 14: the harmonic mean at batch 128" "$(dat fig14-data 8 128)" "$(hm 128)" 1e-7
# The paper's batch-512 mean (3.5x, Section V-B) marked on Figure 13's bar.
holds "Figure 13: the paper's 3.5x on the HarMean bar" \
	"$(sed -n '/^# paper/,$p' $F/fig13-data.dat | grep -c '^25 3.5$') == 1"

# Figures 11-13 at 512 among explicit batch sizes; no Figure 14 at one.
expect_ok plot-one-batch $DLASIM study mcdla --parallel model --designs 'MC-DLA(B)' --batch 256 --plot $TMP/one
holds "one batch: Figures 11-13, no Figure 14" \
	"$(ls $TMP/one | grep -c '^fig1[123].*\.png$') == 3 && $(ls $TMP/one | grep -c fig14) == 0 && $(grep -c 'batch 256' $TMP/one/fig13-model.gp) -ge 1"

expect_error plot-bad-dir "--plot '/proc/version/x'" $DLASIM study mcdla --plot /proc/version/x
