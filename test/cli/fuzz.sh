#!/bin/sh
# Every libFuzzer target for a few seconds (FUZZ_SECONDS, default 4) on
# its kept corpus: no crash, no sanitizer report, no input over 10 s.
# `make fuzz` runs them longer (docs/fuzzing.md).
FUZZ_SECONDS=${FUZZ_SECONDS:-4} sh test/fuzz/run.sh
