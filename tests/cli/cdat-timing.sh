# cdat-timing.sh — the accounting-only timing model ([timing], line L19,
# docs/cdat-report.md): a golden run whose figures are derived by hand from
# the report's own counts, the identity busy + stall = instructions + the
# misses, upgrades and critical transactions times their cycles on random
# sets (every processor, phase and the whole run), the estimated time, the
# report without [timing] unchanged, --jobs, and the bad configurations.
D=$CLI_DIR/cdat-check

smait asm "$CLI_DIR/../../examples/producer-consumer.txt" pc
cp "$CLI_DIR/cdat/timing-2x2.ini" t.ini
cdat -q pc.4 t.ini
# Processor 1 in phase 2 (R2T1): L01 data: 2 misses, both local_cache (L02),
# 1 upgrade; L03/L04 instr: 1 miss from local_memory; L10: 4 requests with
# avg_latency 2.5, so 10 critical transactions. Stall: 2 x 60 + 1 x 100 +
# 1 x 40 + 10 x 20 = 460; busy = L14 active 5; busy_and_stall 465; idle =
# L14 idle 19. The phase's estimated time is its slowest processor's busy +
# stall: R2T2's busy 5 + 100 (an instruction miss from local memory) + 300
# and 250 (data misses from remote memory and a remote cache) + 7 critical
# transactions x 20 = 795, the largest of 494, 465, 795 and 706 (R2T0-R2T3).
# Tx sums the four lines; the run's estimate adds the phases' (summary).
check "golden: producer-consumer on 2x2, phase 2" grep -E '^R2T(1|x)L19:' pc.4.cdat_report <<'EOF'
R2T1L19: time busy 5 stall 460 local_memory 100 local_cache 120 remote_memory 0 remote_cache 0 upgrade 40 network 200 busy_and_stall 465 idle 19
R2TxL19: time busy 30 stall 2430 local_memory 400 local_cache 180 remote_memory 900 remote_cache 250 upgrade 80 network 620 busy_and_stall 2460 idle 66 estimated_time 795
--- exit 0
EOF
check "golden: the header states the model, the summary the run's estimate" grep -E '^# (timing|summary: estimated)' pc.4.cdat_report <<'EOF'
# summary: estimated_time 1388 busy 33 stall 3020
# timing: accounting local_memory 100 local_cache 60 remote_memory 300 remote_cache 250 upgrade 40 hop 20
--- exit 0
EOF

# The identity, for every L19 line: stall = Σ misses by source x cycles
# (data L02 and instructions L04) + upgrades (L01, L03) x upgrade + the
# critical transactions x hop; busy = L14 active. The report gives the
# critical transactions only as L10's requests x avg_latency (4 decimals), so
# the network part is checked within that rounding, and the stall as the
# exact sum of its parts.
cat >identity.awk <<'AWK'
function key(tag) { return substr(tag, 1, index(tag, "L") - 1) }
$2 == "data" || $2 == "instr" { up[key($1)] += $12 }
$2 == "data_miss_src" || $2 == "instr_miss_src" {
    k = key($1); lm[k] += $10; lc[k] += $13; rm[k] += $16; rc[k] += $19 }
$2 == "traffic" { crit[key($1)] += $6 * $8; req[key($1)] += $6 }
$2 == "cpu" { act[key($1)] = $4 }
$2 == "time" {
    k = key($1); n++
    net = $18 / 20 - crit[k]; if (net < 0) net = -net
    if ($8 != lm[k] * 100 || $10 != lc[k] * 60 || $12 != rm[k] * 300 || $14 != rc[k] * 250 || $16 != up[k] * 40 ||
        $18 % 20 != 0 || net > req[k] * 0.00005 + 0.001 || $6 != $8 + $10 + $12 + $14 + $16 + $18 ||
        $4 != act[k] || $20 != $4 + $6) { bad++; print "wrong:", $0 }
}
END { print (n > 0 ? "lines 1" : "no lines"), "wrong", bad + 0 }
AWK
for spec in "41 4 2000 2 2" "42 8 3000 2 4" "43 16 1500 4 4"; do
    read -r seed threads len nodes ppn <<<"$spec"
    awk -v seed="$seed" -v threads="$threads" -v n="$len" -f "$D/randset.awk" >r.txt
    smait asm r.txt "r$seed"
    sed -e "s/^nodes = 2/nodes = $nodes/" -e "s/^procs_per_node = 2/procs_per_node = $ppn/" t.ini >m.ini
    printf '[interconnect_cache]\nsize = 1K\nassoc = 2\n[dcache]\nsize = 2K\nassoc = 2\n' >>m.ini
    check "random set $seed ($threads threads, ${nodes}x$ppn): busy + stall = instructions + counts x cycles" \
        bash -c "cdat -q -p r$seed.$threads m.ini && awk -f identity.awk r$seed.$threads.cdat_report" <<'EOF'
lines 1 wrong 0
--- exit 0
EOF
    # the run's estimate: the phases' slowest processors one after another
    check "random set $seed: estimated_time = the sum over phases of the slowest busy + stall" bash -c "
        awk '\$2 == \"time\" && \$1 ~ /^R[0-9]+T[0-9]+L19/ { p = substr(\$1, 2, index(\$1, \"T\") - 2); if (\$20 > m[p]) m[p] = \$20 }
             \$1 == \"RxTxL19:\" { est = \$24 }
             END { for (p in m) s += m[p]; print (s == est) }' r$seed.$threads.cdat_report" <<'EOF'
1
--- exit 0
EOF
    # Without [timing] the report is the old one: no L19, no timing lines.
    grep -v '^\[timing\]\|^local_\|^remote_\|^upgrade\|^hop' m.ini >plain.ini
    check "random set $seed: the report without [timing] is the one with it less its timing lines" bash -c "
        cdat -q -p --name plain r$seed.$threads plain.ini &&
        diff <(grep -v '^# \(command\|configuration\|timing\|summary: estimated\)\|^R[0-9x]*T[0-9x-]*L19:' r$seed.$threads.cdat_report) \
             <(grep -v '^# \(command\|configuration\)' r$seed.$threads.plain.cdat_report) && echo same" <<'EOF'
same
--- exit 0
EOF
    check "random set $seed: --jobs 2 gives the same timing" bash -c "
        mkdir -p j && cdat -q -p --jobs 2 -o j r$seed.$threads m.ini &&
        diff <(grep -v '^# command' r$seed.$threads.cdat_report) <(grep -v '^# command' j/r$seed.$threads.cdat_report) && echo same" <<'EOF'
same
--- exit 0
EOF
done

# ---- bad configurations ------------------------------------------------------------------------
check "[timing]: an unknown key" cdat -q --set timing.bus=3 pc.4 t.ini <<'EOF'
--- stderr
cdat: --set timing.bus=3: [timing]: unknown key 'bus' (local_memory, local_cache, remote_memory, remote_cache, upgrade, hop, l2_hit, local_l3, remote_l3, bank_busy, link_busy, mode)
cdat: try 'cdat --help'
--- exit 1
EOF
printf '[system]\nnodes = 2\n[timing]\nhop = lots\n' >bad.ini
check "[timing]: not a number, in a file" cdat -q pc.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:4: hop: 'lots' is not a whole number
--- exit 2
EOF
check "[timing]: out of range" cdat -q --set timing.upgrade=1000001 pc.4 t.ini <<'EOF'
--- stderr
cdat: --set timing.upgrade=1000001: upgrade: 1000001 is out of range (0..1000000)
cdat: try 'cdat --help'
--- exit 1
EOF
check "[timing] in slice mode" cdat -q -i 2 pc.4 t.ini <<'EOF'
--- stderr
cdat: [timing] in slice mode (-i): a process's stalls are not modelled there; run without -i or without [timing]
cdat: try 'cdat --help'
--- exit 1
EOF
