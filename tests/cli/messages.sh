# messages.sh — what the tools say to a user who gets an operand wrong
# (README, "Exit status and messages"): an extra operand named as such (cdat:
# one more configuration, looked for by name), a
# set's file given for the set ("did you mean pc.4?"), the text form given
# where a binary trace belongs (a hint to smait asm), an empty trace (the same
# warning from every tool, and a valid report), and smait --help's --set.
printf 'thread 0\nload 4 0x100\nthread 1\nstore 4 0x100\n' > pc.txt
smait asm pc.txt pc
: > empty.1.0

# cdat takes any number of configurations after the set: an operand past
# them is one more configuration, and one that is neither a file nor a
# shipped name says where it was looked for (the places depend on the build).
check "cdat pc.2 4x4 extra: extra is looked for as a configuration" \
    bash -c 'cdat -p pc.2 4x4 extra 2>&1 | sed "s| in .*| in DIRS|"; echo "exit ${PIPESTATUS[0]}"' <<'EOF2'
cdat: extra: no such configuration file, nor extra.ini in DIRS
exit 2
--- exit 0
EOF2
check "ciat pc.2 extra: an extra operand" ciat -p pc.2 extra <<'EOF2'
--- stderr
ciat: extra operand 'extra'
ciat: try 'ciat --help'
--- exit 1
EOF2
check "cdat -t list 4x4 pc.2: a set after the configurations is refused" bash -c 'echo pc.2.0 > l; cdat -t l 4x4 pc.2' <<'EOF2'
--- stderr
cdat: with -t, give no trace prefix ('pc.2')
cdat: try 'cdat --help'
--- exit 1
EOF2
check "ciat pc.2.0: did you mean pc.2?" ciat pc.2.0 <<'EOF2'
--- stderr
ciat: 'pc.2.0' is a file of a trace set; give the set: did you mean pc.2?
ciat: try 'ciat --help'
--- exit 1
EOF2
check "cdat pc.2.1 4x4 (pc.2.1 is also a set's name, with no files): did you mean pc.2?" cdat pc.2.1 4x4 <<'EOF2'
--- stderr
cdat: 'pc.2.1' is a file of a trace set; give the set: did you mean pc.2?
cdat: try 'cdat --help'
--- exit 1
EOF2
check "smait dump --set pc.2.1.gz: did you mean pc.2?" smait dump --set pc.2.1.gz <<'EOF2'
--- stderr
smait: 'pc.2.1.gz' is a file of a trace set; give the set: did you mean pc.2?
smait: try 'smait --help'
--- exit 1
EOF2
check "ciat pc.2 pc.2.1 (a set file as the traces of a call set): did you mean pc.2?" ciat pc.2 pc.2.1 <<'EOF2'
--- stderr
ciat: 'pc.2.1' is a file of a trace set; give the set: did you mean pc.2?
ciat: try 'ciat --help'
--- exit 1
EOF2

# The text form where a binary trace belongs.
cp pc.txt text.1.0
check "ciat on a text-form trace: a hint to smait asm" ciat text.1 <<'EOF2'
--- stderr
ciat: text.1.0: 0: record 0: invalid record kind: bytes 74687265 61642030 (f1 65726874 as little-endian) (this file is text: the SMAIT text form? 'smait asm TEXT OUT' converts it to a binary trace)
--- exit 2
EOF2
printf 'load 4 0x100\n' > text2.1.0      # 13 bytes: the size is wrong too
check "cdat on a text-form trace: a hint to smait asm" cdat text2.1 1x1 <<'EOF2'
--- stderr
cdat: text2.1.0: 0: record 0: invalid record kind: bytes 6c6f6164 20342030 (f1 64616f6c as little-endian) (this file is text: the SMAIT text form? 'smait asm TEXT OUT' converts it to a binary trace)
--- exit 2
EOF2
check "smait stat on a text-form trace: the same hint" smait stat text2.1.0 <<'EOF2'
--- stderr
smait: text2.1.0: 0: record 0: invalid record kind: bytes 6c6f6164 20342030 (f1 64616f6c as little-endian) (this file is text: the SMAIT text form? 'smait asm TEXT OUT' converts it to a binary trace)
--- exit 2
EOF2
printf 'x y\n' > short.1.0
check "a text of less than one record: the hint with the truncation" ciat short.1 <<'EOF2'
--- stderr
ciat: short.1.0: 0: record 0: truncated final record (file size is not a multiple of 8; 4 bytes left over) (this file is text: the SMAIT text form? 'smait asm TEXT OUT' converts it to a binary trace)
--- exit 2
EOF2
check "a binary trace with a bad record: no text hint" bash -c \
    'printf "\377\377\377\377\0\0\0\0" > bad.1.0; ciat bad.1 2>&1 | grep -c "text form"' <<'EOF2'
0
--- exit 1
EOF2

# An empty trace: the same warning from every tool, and a valid report.
check "ciat on an empty trace: a warning naming it, and a report" \
    bash -c 'ciat empty.1 && grep -E "^(instructions|loads|stores) " empty.1.ciat_report | head -3' <<'EOF2'
--- stderr
ciat: warning: empty.1.0: empty trace (no records)
--- exit 0
EOF2
check_true "ciat's report of the empty trace is there" test -s empty.1.ciat_report
check "cdat on an empty trace: the same warning, and a report" cdat empty.1 1x1 <<'EOF2'
--- stderr
cdat: warning: empty.1.0: empty trace (no records)
--- exit 0
EOF2
check_true "cdat's report of the empty trace is there" test -s empty.1.cdat_report
check "smait stat on an empty trace: the same warning, valid" bash -c 'smait stat empty.1.0 | grep -E "^(records|valid) "' <<'EOF2'
records 0
valid yes
--- stderr
smait: warning: empty.1.0: empty trace (no records)
--- exit 0
EOF2
check "one empty trace of a set: the warning names it" bash -c 'cp pc.2.0 mix.2.0; : > mix.2.1; ciat -p mix.2' <<'EOF2'
--- stderr
ciat: warning: mix.2.1: empty trace (no records)
--- exit 0
EOF2

check "smait --help: --set takes a set's name, e.g. pc.4" bash -c 'smait --help | grep -- "--set"' <<'EOF2'
  --set NAME.P                 dump/stat/convert the trace set NAME.P, e.g. --set pc.4 (files pc.4.0 ... pc.4.3, each also found as pc.4.k.gz or pc.4.k.zst)
--- exit 0
EOF2
