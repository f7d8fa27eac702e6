# Variant of palm.tm toward Table 3's data per chip (docs/validation/tm.md, A):
# Table 3's data per iteration needs a chip to run each layer's GEMMs
# wider than model parallelism leaves them, so here model_parallel is 1
# (full-width GEMMs, the same sequences per chip); PaLM at full width
# needs 68.3 GiB at its peak, so 3, the widest split whose iteration
# fits the 32 GiB address space.
# The rest is palm.tm's:
# PaLM 540B (Chowdhery et al. 2022, "PaLM: Scaling Language Modeling with
# Pathways", Table 1: 118 layers, d_model 18432, 48 heads of 256,
# feed-forward 4 x d_model with SwiGLU (three d_model x d_ff matrices),
# multi-query attention (one key/value head); SentencePiece vocabulary of
# 256k).  Sequence, batch and parallelism (2 pods, 12-way model, 256-way
# data parallel per pod): TM-Training Table 3, after the PaLM paper's
# Section 4.
name            palm-wide
params          540e9
layers          118
d_model         18432
heads           48
kv_heads        1
head_dim        256
d_ff            73728
ff_matrices     3
vocab           256000
seq             2048
batch           2048
pods            2
model_parallel  3
data_parallel   256
