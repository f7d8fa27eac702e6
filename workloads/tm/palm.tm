# PaLM 540B (Chowdhery et al. 2022, "PaLM: Scaling Language Modeling with
# Pathways", Table 1: 118 layers, d_model 18432, 48 heads of 256,
# feed-forward 4 x d_model with SwiGLU (three d_model x d_ff matrices),
# multi-query attention (one key/value head); SentencePiece vocabulary of
# 256k).  Sequence, batch and parallelism (2 pods, 12-way model, 256-way
# data parallel per pod): TM-Training Table 3, after the PaLM paper's
# Section 4.
name            palm
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
model_parallel  12
data_parallel   256
