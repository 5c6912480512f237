# smait-usage.sh — command-line mistakes are usage errors: exit status 1, the
# reason and a pointer to --help on stderr, nothing on stdout.
usage_error() {     # NAME MESSAGE ARGS...
    local name=$1 msg=$2
    shift 2
    check "$name" smait "$@" <<EOF
--- stderr
smait: $msg
smait: try 'smait --help'
--- exit 1
EOF
}

usage_error "no command" "missing command (dump, asm, stat, convert, schedule or diff)"
usage_error "unknown command" "unknown command 'frob' (dump, asm, stat, convert, schedule or diff)" frob x
usage_error "unknown option" "unknown option '--frob'" --frob dump x
usage_error "unknown short option" "unknown option '-x'" dump -x t
usage_error "unknown report-style option" "unknown option '-ciat_events'" dump -ciat_events t
usage_error "dump without a file" "dump needs a trace file" dump
usage_error "stat without a file" "stat needs a trace file" --lenient stat
usage_error "asm without OUT" "asm needs TEXT and OUT" asm x.txt
usage_error "asm with too many operands" "asm needs TEXT and OUT" asm a b c
usage_error "bad --byte-order value" "option --byte-order=middle: must be little, big or auto" \
    --byte-order=middle dump x
usage_error "bad -byte_order value" "option -byte_order: must be little, big or auto" \
    -byte_order BIG dump x
usage_error "--byte-order without a value" "option '--byte-order' needs a value (ORDER)" dump x --byte-order
usage_error "a flag given a value" "option '--lenient' takes no value" --lenient=yes dump x
usage_error "--set with file operands" "--set and file operands do not go together" --set t.2 dump x
usage_error "--set with asm" "--set and file operands do not go together" --set t.2 asm a b
usage_error "--set without .P" \
    "trace prefix 'trace' must end in '.P', P = the number of traces (1..65536), e.g. trace_level_3.4" \
    --set trace dump
usage_error "--set with P = 0" \
    "trace prefix 't.0' must end in '.P', P = the number of traces (1..65536), e.g. trace_level_3.4" \
    --set t.0 stat

# Not usage errors: "--" ends the options, and a missing trace is bad input (2).
printf 'load 4 0x10\n' >-x.txt
check "-- ends the options" bash -c 'smait asm -- -x.txt -x.bin && smait dump -- -x.bin' <<'EOF'
# smait dump of -x.bin
byteorder little
0: load 4 0x00000010
--- exit 0
EOF
check "--set names files that are missing" smait dump --set t.2 <<'EOF'
--- stderr
smait: t.2.0: cannot read trace: No such file or directory (tried t.2.0, t.2.0.gz and t.2.0.zst)
--- exit 2
EOF
check "--help exits 0 without stderr" bash -c 'smait --help >help.txt && test -s help.txt' <<'EOF'
--- exit 0
EOF
check "-h is --help" bash -c 'smait -h | cmp - help.txt' <<'EOF'
--- exit 0
EOF
