# The bench/ scripts that are validation runs, not speed figures: make
# validate runs them (bench/validate.sh), make bench does not
# (bench/run.sh).  The studies' cost scripts (bench/*_study.sh) stay in
# make bench: they time the studies that make validate runs for their
# numbers.
VALIDATION_SCRIPTS="llm_megatron.sh tm_choices.sh chakra_mcdla.sh tm_choices_history.sh"
