# program-locks.sh — ciat --locks on a real program built with smait-cc in
# three ways (-O1 -g; -O2 -g as the demo builds it; -O3 -mavx2 -g; -g for
# the source lines of the map): examples/hot_lock.c,
# 4 workers that take one hot lock (totals_lock) for each of their 256 items
# and their own cold bucket lock every 32nd item. Under --sync=simulated the
# replay orders the lock's hand-overs by the pseudo clock, so what must not
# change with the compiler or the tracing machine: totals_lock ranks first,
# named through the map; 1024 acquisitions and holds; the workers run in
# lockstep, so nearly every acquisition waits and hands the lock to another
# thread (more than 900 of each); each cold lock: 8 acquisitions by one
# thread, no wait, no hand-off. The hot lock's top acquisition site (L61)
# is its pthread_mutex_lock line in every build, and which lock follows
# which (L62) is the program's order: per worker 256 items take
# totals_lock, every 32nd also the worker's bucket lock after it (worker w
# uses bucket w: 4 bucket locks): of the 1024 + 32 acquisitions all but the
# 4 workers' first follow a release: 992 totals_lock -> totals_lock, 8
# totals_lock -> each bucket lock, 7 each bucket lock -> totals_lock (a
# worker's last bucket is its last lock).
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
# L61 (rank $4, site $10): the first site of the first lock, its file:line
$1 == "RxTxL61:" && $4 == 1 && $10 == 1 {
    for (i = 2; i < NF; i++) if ($i == "where") w = $(i + 1)
    sub(/.*\//, "", w); print "rank 1 top site:", w }
# L62 (rank $4, from $6, to $10, count $14)
$1 == "RxTxL62:" { n++; sum += $14; if ($4 == 1) top = ($6 == $10) " " $14 }
END { if (n) print "follows: pairs", n, "sum", sum, "rank 1 same lock, count", top }
AWK
# (L52's fields are "key value" pairs after the tag; "lock" is its name.)
hot_line=$(grep -n 'pthread_mutex_lock(&totals_lock)' "$CLI_DIR/../../examples/hot_lock.c" | cut -d: -f1)
for flags in "-O1 -g" "-O2 -g -fno-vectorize -fno-slp-vectorize" "-O3 -mavx2 -g"; do
    check "hot_lock $flags: ciat --locks --sync=simulated ranks the hot lock first" bash -c '
        smait-cc $1 -pthread "$0" -o hl && rm -f hl.5.* && TRACE_FILE_NAME=hl SMAIT_QUIET=1 ./hl &&
        ciat -q --locks=3 --sync=simulated hl.5 2>/dev/null && sed "s/ lock rank / rank /" hl.5.ciat_report | awk -f top.awk |
        grep -v "^rank 1 top site:"' \
        "$CLI_DIR/../../examples/hot_lock.c" "$flags" <<'EOF'
hot_lock: 1024 items
rank 1: totals_lock acquisitions 1024 holds 1024 waits>900 1 handoffs>900 1
rank 2: bucket_locks acquisitions 8 waits 0 handoffs 0
rank 3: bucket_locks acquisitions 8 waits 0 handoffs 0
follows: pairs 3 sum 1008 rank 1 same lock, count 1 992
--- exit 0
EOF
    # L61's sites and L62's pairs, every lock and pair listed: the top site
    # of the hot lock is the pthread_mutex_lock line; the pairs sum to 1052
    # = 1056 - 4 (9 pairs: the hot lock to itself, and to and from each of
    # the 4 bucket locks)
    check "hot_lock $flags: the hot lock's top site is hot_lock.c:$hot_line; the follows pairs" bash -c '
        ciat -q --locks=100 --sync=simulated hl.5 2>/dev/null &&
        awk -f top.awk hl.5.ciat_report | grep -E "^(rank 1 top|follows)"' <<EOF
rank 1 top site: hot_lock.c:$hot_line
follows: pairs 9 sum 1052 rank 1 same lock, count 1 992
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
                sub(/%/, \"\", f[\"share\"]); print f[\"name\"], \"share>90\", (f[\"share\"] > 90) }
            \$1 == \"RxTxL63:\" { for (i = 3; i < NF; i += 2) g[\$i] = \$(i + 1)
                sub(/.*\\//, \"\", g[\"where\"]); sub(/%/, \"\", g[\"share\"])
                print \"top site\", g[\"where\"], \"share>90\", (g[\"share\"] > 90) }" hl.5.ciat_report' <<EOF
parallelism<=4 1 span<=work 1
totals_lock share>90 1
top site hot_lock.c:$hot_line share>90 1
--- exit 0
EOF
done
