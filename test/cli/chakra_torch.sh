# Host operators recorded from PyTorch, timed from their tensors
# (docs/chakra.md, "Operators timed from their tensors"), on the device of
# Table II: peak 1024 x 125 MACs x 1 GHz, HBM 900 GB/s, 100 ns per pass.
# The closed forms are computed here, in Python, from the traces' own
# bytes: each operator nest counted once, views and wrappers nothing.
. test/lib.sh
P=platforms/mc-ring-8.xml
PEAK=1.28e14
HBM=9e11
LAT=1e-7
t() {	# PLATFORM WORKLOAD
	"$DLASIM" train --platform "$1" --workload "$2" --json > "$TMP/r.json" 2> "$TMP/err" &&
		json_num "$TMP/r.json" iteration_time_s || echo "failed: $(cat $TMP/err)"
}

# et.py: protobuf wire format by hand (no protobuf module needed).
cat > $TMP/et.py <<'PY'
import re, sys
PEAK, HBM, LAT = 1.28e14, 9e11, 1e-7

def varint(b, i):
    r = s = 0
    while True:
        c = b[i]; i += 1; r |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return r, i

def fields(b):
    i, out = 0, []
    while i < len(b):
        k, i = varint(b, i)
        f, w = k >> 3, k & 7
        if w == 0: v, i = varint(b, i)
        elif w == 2: l, i = varint(b, i); v = b[i:i + l]; i += l
        elif w == 1: v = b[i:i + 8]; i += 8
        else: v = b[i:i + 4]; i += 4
        out.append((f, v))
    return out

def read(path):
    d, at, msgs = open(path, 'rb').read(), 0, []
    while at < len(d):
        l, at = varint(d, at); msgs.append(d[at:at + l]); at += l
    ops = []
    for m in msgs[1:]:
        n = {'attr': {}, 'in': ['', '', ''], 'out': ['', '', ''], 'dur': 0}
        for f, v in fields(m):
            if f == 1: n['id'] = v
            elif f == 2: n['name'] = v.decode()
            elif f == 7: n['dur'] = v
            elif f in (8, 9):
                for g, s in fields(v): n['in' if f == 8 else 'out'][g - 1] = s.decode()
            elif f == 10:
                a = dict(fields(v)); n['attr'][a[1].decode()] = [x for k, x in a.items() if k != 1]
        ops.append(n)
    return ops

TENSOR = re.compile(r"\[(\d+), (\d+), (\d+), (\d+), (\d+), '")
NOWORK = set('''as_strided view _reshape_alias reshape _unsafe_view t transpose expand
 expand_as select slice narrow split split_with_sizes chunk unbind resolve_conj
 resolve_neg alias squeeze unsqueeze permute contiguous detach view_as flatten
 unflatten diagonal empty empty_like empty_strided resize_ to lift_fresh numpy_T
 unfold _has_compatible_shallow_copy_type set_ is_same_size'''.split())
GEMM = {'mm': 0, 'addmm': 1, 'bmm': 0, 'baddbmm': 1, 'addbmm': 1, 'matmul': 0, 'linear': 0}

def tensors(s):
    return [(int(a[1]), int(a[3]), int(a[3]) * int(a[4] or 4)) for a in TENSOR.findall(s)]

def closed_form(path):
    ops = [n for n in read(path) if 'rf_id' in n['attr'] and n['dur'] == 0]
    for n in ops:
        n['rf'] = n['attr']['rf_id'][0]
        n['tid'] = n['attr'].get('tid', [0])[0]
        op = n['name'][6:] if n['name'].startswith('aten::') else None
        n['work'] = op is not None and op not in NOWORK
        n['gemm'] = n['work'] and op in GEMM
        n['init'] = op in ('fill_', 'zero_')
        n['outs'] = tensors(n['out'][0])
        n['ins'] = tensors(n['in'][0])
    ops.sort(key=lambda n: (n['tid'], n['rf']))
    stack = []
    for n in ops:		# entered after, left before: inside
        while stack and (stack[-1]['tid'] != n['tid'] or stack[-1]['id'] < n['id']):
            stack.pop()
        n['parent'] = stack[-1] if stack else None
        stack.append(n)
    for n in ops:
        n['delegated'] = False
    for d in ops:
        if not d['work'] or d['init']:
            continue
        p = d['parent']
        while p:
            if p['work'] and (d['gemm'] if p['gemm'] else
                              {s for s, _, _ in d['outs']} & {s for s, _, _ in p['outs']}):
                p['delegated'] = True
            p = p['parent']
    total = gemm_flops = all_bytes = 0.0
    timed = gemms = 0
    for n in ops:
        p = n['parent']
        n['timed'] = bool(p and p['timed'])
        if n['timed'] or not n['work'] or n['delegated']:
            continue
        n['timed'] = True
        elems = sum(e for _, e, _ in n['outs'])
        byts = sum(b for _, _, b in n['ins'] + n['outs'])
        flops = elems
        if n['gemm']:
            a = eval(n['in'][1])[GEMM[n['name'][6:]]]
            flops = 2 * elems * a[-1]
            gemm_flops += flops; gemms += 1
        if flops or byts:
            total += max(flops / 2 / PEAK, byts / HBM) + LAT
            timed += 1
        all_bytes += byts
    print('%.12g %.12g %.12g %d %d' % (total, gemm_flops, all_bytes, timed, gemms))

def vint(v):
    out = b''
    while True:
        c = v & 0x7f; v >>= 7
        if v: out += bytes([c | 0x80])
        else: return out + bytes([c])

def fld(f, v):		# varint field or length-delimited field
    if isinstance(v, int): return vint(f << 3) + vint(v)
    v = v.encode() if isinstance(v, str) else v
    return vint(f << 3 | 2) + vint(len(v)) + v

def node(nid, name, rf, ins, outs, shapes):
    io = lambda vals, shp: fld(1, vals) + fld(2, shp) + fld(3, '')
    attrs = [fld(1, 'rf_id') + fld(9, rf), fld(1, 'tid') + fld(9, 1), fld(1, 'is_cpu_op') + fld(7, 1)]
    m = fld(1, nid) + fld(2, name) + fld(3, 4) + fld(8, io(ins, shapes)) + fld(9, io(outs, '[]'))
    return m + b''.join(fld(10, a) for a in attrs)

def write(path, m, k, n, elem):
    """a view, then an mm (A[m,k] B[k,n]) holding a resolve_conj, as
    PyTorch writes them: ids at exit, rf_id at entry"""
    A = "[1, 1, 0, %d, %d, 'cpu']" % (m * k, elem)
    V = "[2, 1, 0, %d, %d, 'cpu']" % (m * k, elem)
    B = "[3, 3, 0, %d, %d, 'cpu']" % (k * n, elem)
    C = "[4, 4, 0, %d, %d, 'cpu']" % (m * n, elem)
    msgs = [fld(1, '0.0.4'),
            node(1, 'aten::view', 1, '[' + A + ', [[], []]]', '[' + V + ']', '[[%d, %d], []]' % (m, k)),
            node(2, 'aten::resolve_conj', 3, '[' + V + ']', '[' + V + ']', '[[%d, %d]]' % (m, k)),
            node(3, 'aten::mm', 2, '[' + V + ', ' + B + ']', '[' + C + ']', '[[%d, %d], [%d, %d]]' % (m, k, k, n))]
    open(path, 'wb').write(b''.join(vint(len(x)) + x for x in msgs))

if sys.argv[1] == 'form':
    closed_form(sys.argv[2])
else:
    write(sys.argv[2], *map(int, sys.argv[3:]))
PY

# A view and an mm: the mm's roofline alone (compute-bound at 4096^3 fp32,
# memory-bound at 64 x 4096 x 64 in 2-byte elements).
python3 $TMP/et.py write $TMP/mm.et 4096 4096 4096 4
close "view + mm 4096^3: 2 M N K / 2 / peak + latency, the view nothing" "$(t $P $TMP/mm.et)" \
	"$(awk "BEGIN { printf \"%.12g\", 4096^3 / $PEAK + $LAT }")" 1e-9
python3 $TMP/et.py write $TMP/mm2.et 64 4096 64 2
close "view + mm 64x4096x64 bf16: (MK + KN + MN) 2 B / HBM + latency" "$(t $P $TMP/mm2.et)" \
	"$(awk "BEGIN { printf \"%.12g\", (64*4096 + 4096*64 + 64*64) * 2 / $HBM + $LAT }")" 1e-9

# PyTorch 1.13's transformer step (test/data/chakra/README.md).
gzip -dc test/data/chakra/pytorch-1.13/transformer_step.et.gz > $TMP/torch.et
set -- $(python3 $TMP/et.py form $TMP/torch.et)
FORM=$1 GFLOPS=$2 BYTES=$3 TIMED=$4 GEMMS=$5
v=$(t $P $TMP/torch.et)
holds "PyTorch step: 20 GEMMs (10 mm, 4 addmm, 6 bmm; linear and matmul hold them) among $TIMED timed operators" \
	"$GEMMS == 20 && $TIMED > 20"
holds "PyTorch step: GEMM flops / peak + latencies <= time ($v) <= that + all bytes / HBM" \
	"\"$v\" != \"\" && $v >= $GFLOPS / 2 / $PEAK + $TIMED * $LAT && $v <= $GFLOPS / 2 / $PEAK + $BYTES / $HBM + $TIMED * $LAT"
close "PyTorch step on mc-ring-8: the sum of the timed operators' rooflines" "$v" "$FORM" 0.01
"$DLASIM" platform --topology mc-ring --nodes 2 -o $TMP/mc2.xml > /dev/null 2>&1
close "PyTorch step on 2 system nodes: the same per device" "$(t $TMP/mc2.xml $TMP/torch.et)" "$FORM" 0.01

# Tensors too large to time: one line naming the file and the node.
python3 $TMP/et.py write $TMP/huge.et 1000000000 1000000000000 1000000000 4
expect_error "an mm of 2e30 flops: refused by name" "huge.et: node 3 'aten::mm': its tensors make .* flops .*at most 1e30" \
	"$DLASIM" train --platform $P --workload $TMP/huge.et
