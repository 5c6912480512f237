# program-locks.sh — ciat --locks on a real program built with smait-cc in
# three ways (-O1; -O2 -g as the demo builds it; -O3 -mavx2): examples/hot_lock.c,
# 4 workers that take one hot lock (totals_lock) for each of their 256 items
# and their own cold bucket lock every 32nd item. Under --sync=simulated the
# replay orders the lock's hand-overs by the pseudo clock, so what must not
# change with the compiler or the tracing machine: totals_lock ranks first,
# named through the map; 1024 acquisitions and holds; the workers run in
# lockstep, so nearly every acquisition waits and hands the lock to another
# thread (more than 900 of each); each cold lock: 8 acquisitions by one
# thread, no wait, no hand-off.
collector_setup || return 0

cat >top.awk <<'AWK'
$1 == "RxTxL52:" {
    for (i = 2; i < NF; i += 2) f[$i] = $(i + 1)
    if (f["rank"] == 1)
        print "rank 1:", f["name"], "acquisitions", f["acquisitions"], "holds", f["holds"],
              "waits>900", (f["waits"] > 900), "handoffs>900", (f["handoffs"] > 900)
    else
        print "rank", f["rank"] ":", f["name"], "acquisitions", f["acquisitions"], "waits", f["waits"],
              "handoffs", f["handoffs"]
}
AWK
# (L52's fields are "key value" pairs after the tag; "lock" is its name.)
for flags in "-O1" "-O2 -g -fno-vectorize -fno-slp-vectorize" "-O3 -mavx2"; do
    check "hot_lock $flags: ciat --locks --sync=simulated ranks the hot lock first" bash -c '
        smait-cc $1 -pthread "$0" -o hl && rm -f hl.5.* && TRACE_FILE_NAME=hl SMAIT_QUIET=1 ./hl &&
        ciat -q --locks=3 --sync=simulated hl.5 2>/dev/null && sed "s/ lock rank / rank /" hl.5.ciat_report | awk -f top.awk' \
        "$CLI_DIR/../../examples/hot_lock.c" "$flags" <<'EOF'
hot_lock: 1024 items
rank 1: totals_lock acquisitions 1024 holds 1024 waits>900 1 handoffs>900 1
rank 2: bucket_locks acquisitions 8 waits 0 handoffs 0
rank 3: bucket_locks acquisitions 8 waits 0 handoffs 0
--- exit 0
EOF
    # The critical path (L59, L60): the workers' items hand totals_lock
    # round, so the chain runs through it (over 90% of the span); the
    # parallelism is at most the 4 workers' (about 1.5 at -O2 and -O3, 3.8 at
    # -O1, whose private work takes 2.7 times the instructions).
    check "hot_lock $flags: ciat --critical-path: the chain runs through the hot lock" bash -c '
        ciat -q --critical-path=1 --sync=simulated hl.5 2>/dev/null && awk "
            \$1 == \"RxTxL59:\" { print \"parallelism<=4\", (\$8 <= 4), \"span<=work\", (\$6 <= \$4) }
            \$1 == \"RxTxL60:\" && \$6 == \"object\" { for (i = 3; i < NF; i += 2) f[\$i] = \$(i + 1)
                sub(/%/, \"\", f[\"share\"]); print f[\"name\"], \"share>90\", (f[\"share\"] > 90) }" hl.5.ciat_report' <<'EOF'
parallelism<=4 1 span<=work 1
totals_lock share>90 1
--- exit 0
EOF
done
