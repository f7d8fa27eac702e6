# dlasim-expect: seq '4294967296': out of range \(1 to 16777216\)
# (int)seq was undefined behaviour for large values.
# BERT-Large (Devlin et al. 2018, "BERT: Pre-training of Deep Bidirectional
# Transformers for Language Understanding", Section 3: L=24, H=1024, A=16,
# 340M parameters; feed-forward 4H; WordPiece vocabulary of 30,000 tokens,
# 30,522 in the released model).  Sequence, batch and parallelism:
# TM-Training Table 3.  Format: docs/tier.md.
name            bert-large
params          340e6
layers          24
d_model         1024
heads           16
head_dim        64
d_ff            4096
vocab           30522
seq             4294967296
batch           256
pods            1
model_parallel  1
data_parallel   4
