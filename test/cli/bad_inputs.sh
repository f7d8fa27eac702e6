#!/bin/sh
# Regression inputs: every file under test/data/bad/ is a bad input that
# once crashed, aborted SimGrid or was misread.  Its header says what
# dlasim must answer:
#   dlasim-expect: PATTERN      (grep -E) the one line on stderr
#   dlasim-run: ARGS            optional: the command, @ for the file
# (in a '#' comment for .dnn and .tm, in <!-- --> for .xml, where "--"
# cannot be written).  By default a platform is given to coll (NAME.tier.xml
# to tier), a .dnn to train and a .tm to tier.
. test/lib.sh

field() {	# field FILE KEY: the text after "dlasim-KEY: " on its line
	LC_ALL=C sed -n "s/^.*dlasim-$2: \\(.*\\)\$/\\1/p" "$1" | LC_ALL=C sed 's/ -->$//' | head -n 1
}

for f in test/data/bad/*; do
	name=bad/$(basename "$f")
	pattern=$(field "$f" expect)
	if [ -z "$pattern" ]; then
		not_ok "$name" "no dlasim-expect line"
		continue
	fi
	run=$(field "$f" run)
	if [ -z "$run" ]; then
		case $f in
		*.tier.xml) run="tier --workload workloads/tm/bert-large.tm --policy tm_training --platform @" ;;
		*.xml) run="coll --platform @ --op allreduce --bytes 1MB" ;;
		*.dnn) run="train --platform platforms/dc-8.xml --workload @" ;;
		*.tm) run="tier --workload @ --policy hbm_only" ;;
		*) not_ok "$name" "no dlasim-run line and no default for this kind of file"; continue ;;
		esac
	fi
	# shellcheck disable=SC2046 # the arguments are words without spaces
	expect_error "$name" "$pattern" "$DLASIM" $(echo "$run" | sed "s|@|$f|g")
done

# Inputs that cannot be files in the tree.
expect_error "platform that is a device" "/dev/null: not a regular file" \
	"$DLASIM" coll --platform /dev/null --op allreduce --bytes 1MB
expect_error "platform that is a directory" "test/data: not a regular file" \
	"$DLASIM" coll --platform test/data --op allreduce --bytes 1MB
expect_error "workload that is a directory" "workload test/data: is a directory" \
	"$DLASIM" tier --workload test/data --policy hbm_only
# A workload without line ends, endless: refused at its first NUL byte
# (it was read into memory until none was left).
expect_error "train workload /dev/zero" "/dev/zero:1: a NUL byte" \
	timeout 20 "$DLASIM" train --platform platforms/dc-8.xml --workload /dev/zero
expect_error "tier workload /dev/zero" "/dev/zero:1: a NUL byte" \
	timeout 20 "$DLASIM" tier --workload /dev/zero --policy hbm_only
# The bound counts the line without its CRLF: 1022 characters pass
# (test/data/bad/line-too-long.tm has 1023).
{ printf '#'; awk 'BEGIN { for (i = 0; i < 1021; i++) printf "1"; printf "\r\n" }'
  cat workloads/tm/bert-large.tm; } > "$TMP/bound.tm"
expect_ok "a .tm line at the bound, CRLF" "$DLASIM" tier --workload "$TMP/bound.tm" --policy hbm_only
expect_error "--bytes beyond one transfer" "coll: --bytes '1e30': more than the 2\\^62 bytes \\(4.6e18\\) a transfer can carry" \
	"$DLASIM" coll --platform platforms/dc-8.xml --op allreduce --bytes 1e30
