# PaLM 540B (Chowdhery et al. 2022, "PaLM: Scaling Language Modeling with
# Pathways", Table 1: 118 layers, d_model 18432, 48 heads of 256,
# feed-forward 4 x d_model, multi-query attention (one key/value head);
# SentencePiece vocabulary of 256k).  Sequence, batch and parallelism (2
# pods, 12-way model, 256-way data parallel per pod): TM-Training Table 3,
# after the PaLM paper's Section 4.
# The feed-forward is simulated as TM-Training does, two GEMMs (its Table 4
# labels Feed Forward 1 and 2) with a d_ff-wide hidden activation (its 9 GB
# per layer forward): PaLM's SwiGLU gate, a third d_model x d_ff matrix, is
# not simulated (375e9 of the 540e9 parameters; docs/tier.md).
name            palm
params          540e9
layers          118
d_model         18432
heads           48
kv_heads        1
head_dim        256
d_ff            73728
ff_matrices     2
vocab           256000
seq             2048
batch           2048
pods            2
model_parallel  12
data_parallel   256
