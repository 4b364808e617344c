#!/usr/bin/env bash
# Optional (make test never runs it): issue 28's table for two builds of
# p4hls in one run, so that both see the same machine and load.
#
#   scripts/bench-compare.sh BEFORE BEFORE_ROOT AFTER > compare.txt
#
# BEFORE and AFTER are p4hls binaries; BEFORE_ROOT is the checkout BEFORE
# was built from (each binary compiles its own checkout's corpus: the
# corpus's register declarations changed form over time). Run it from the
# root of AFTER's checkout. Rows: allocation of generated switch programs
# (bench sweep) and of Table 5's programs (bench alloc), a recompile
# after an edit with --cache-dir, N copies of RCP on Banzai, the Tofino
# rows of Table 4, and `p4hls sim` of 1,000,000 packets: wall times and
# peak RSS (GNU time), synthesis times from report.json. Needs
# /usr/bin/time and python3. Against the build before issue 28's work:
#
#   git worktree add /tmp/before 2316d1a && (cd /tmp/before && go build -o /tmp/p4before ./cmd/p4hls)
#   go build -o /tmp/p4after ./cmd/p4hls
#   scripts/bench-compare.sh /tmp/p4before /tmp/before /tmp/p4after
set -u
B=$1; BR=$2; A=$3; AR=$(pwd)
root() { if [ "$1" = "$B" ]; then echo "$BR"; else echo "$AR"; fi; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# wall CMD...: its wall time and peak RSS (and its exit status when not 0).
wall() {
  /usr/bin/time -f "%e %M" -o "$T/time" "$@" >/dev/null 2>&1; local rc=$?; local l; l=$(tail -1 "$T/time")
  echo "$(echo "$l" | cut -d' ' -f1)s $(( $(echo "$l" | cut -d' ' -f2) / 1024 ))MB$([ $rc = 0 ] || echo " exit $rc")"
}
report() { python3 -c "import json,sys;r=json.load(open('$1/report.json'));print($2)" 2>/dev/null || echo "-"; }
synth() { report "$1" "'%.2f' % r['phases']['synth']"; }
stages() { report "$1" "r.get('stages', '-')"; }
name() { basename "$1"; }

echo "# $(date -u) $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "## allocation, generated chains (bench sweep --tables N)"
for b in $B $A; do echo "$(name $b) tables=100: $(timeout 320 $b bench sweep --tables 100 2>&1 | tail -2 | tr '\n' ' ')"; done
for n in 200:19 400:38; do # BEFORE's sweep may lack --stages, and 12 stages are too few for either
  echo "$(name $A) tables=${n%:*} stages=${n#*:}: $($A bench sweep --tables ${n%:*} --stages ${n#*:} 2>&1 | tail -2 | tr '\n' ' ')"
done
echo "## allocation, Table 5 (bench alloc)"
for b in $B $A; do echo "--- $(name $b)"; (cd "$(root $b)" && timeout 600 $b bench alloc 2>&1 | tail -40); done

echo "## recompile after an edit (--cache-dir): the whole compile's wall time, synthesis in brackets"
edit() { # FILE MACRO VALUE TARGET
  for b in $B $A; do
    local d; d=$(mktemp -d "$T/edit.XXXX"); mkdir -p "$d/ok"
    cp -r "$(root $b)/testdata/p4/include" "$d/"; cp "$(root $b)/testdata/p4/ok/$1" "$d/ok/p.p4"
    local args="--target $4 --cache-dir $d/cache -o $d/out $d/ok/p.p4"
    local c cs u us e es
    c=$(wall $b compile $args); cs=$(synth "$d/out")
    u=$(wall $b compile $args); us=$(synth "$d/out")
    sed -i "s/#define $2 .*/#define $2 $3/" "$d/ok/p.p4"
    e=$(wall $b compile $args); es=$(synth "$d/out")
    echo "$(name $b) $1 $4 $2=$3: cold $c [$cs] unchanged $u [$us] edited $e [$es] stages $(stages "$d/out")"
  done
}
edit blue_increase.p4 FREEZE_TIME 20 tofino
edit blue_increase.p4 DELTA 2 tofino
edit sampling.p4 N 40 tofino
edit snap_heavy_hitter.p4 THRESHOLD 2000 tofino
edit rcp.p4 MAX_ALLOWABLE_RTT 50 tofino

echo "## N copies of RCP, Banzai pred_raw (whole compile)"
mkdir -p "$T/ok"; cp -r testdata/p4/include "$T/"
for n in 8 16 32; do
  for b in $B $A; do # BEFORE reads register<T, I>, AFTER register<T> (v1model's default version)
    python3 scripts/rcp_copies.py $n "$T/ok/rcp$n.p4" $([ $b = $B ] && echo two)
    echo "$(name $b) N=$n: $(wall timeout 300 $b compile --target banzai --alu pred_raw -o $T/out $T/ok/rcp$n.p4) synth $(synth $T/out)s stages $(stages $T/out)"
  done
done

echo "## Tofino, CaT's Table 4 rows (whole compile, a fresh process each)"
for f in blue_increase blue_decrease flowlet marple_new_flow marple_tcp_nmo sampling rcp snap_heavy_hitter dns_ttl_change conga; do
  for b in $B $A; do
    echo "$(name $b) $f: $(wall $b compile --target tofino -o $T/out "$(root $b)/testdata/p4/ok/$f.p4") synth $(synth $T/out)s stages $(stages $T/out)"
  done
done

echo "## interpreter: p4hls sim, BLUE increase, 1,000,000 packets without expectations"
yes "$(grep '^packet' testdata/p4/ok/blue_increase.stf | head -1)" | head -1000000 > "$T/many.stf"
for b in $B $A; do echo "$(name $b): $(wall $b sim "$(root $b)/testdata/p4/ok/blue_increase.p4" "$T/many.stf")"; done
