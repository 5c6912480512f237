# readme.sh — the README's examples are what the tools print: every fenced
# block of README.md with "$ " command lines is run, in order, in one shell
# (a later block uses what an earlier one made), and each command's output
# must be the lines the README shows under it, up to the next command or the
# end of the block. The commands run here, with /tmp/ put for this test's
# directory, examples/ and configs/ the source tree's, and the tools of the
# build; a heredoc's lines belong to its command. So the README's figures
# cannot drift from the tools (a README edit that changes no command keeps
# its block as it was).
root=$(cd "$CLI_DIR/../.." && pwd)
ln -s "$root/examples" examples
ln -s "$root/configs" configs
here=$PWD

# blocks README: "BLOCK N LINE" before each block, then "CMD TEXT" for each
# command line (heredoc lines too), "OUT TEXT" for each output line.
awk '
    /^```/ { if (inblock) { inblock = 0 } else { inblock = 1; n++; print "BLOCK " n " " NR }; next }
    !inblock { next }
    heredoc != "" { print "CMD " $0; if ($0 == heredoc) heredoc = ""; next }
    /^\$ / {
        cmd = substr($0, 3)
        print "CMD " cmd
        if (match(cmd, /<<.?[A-Za-z_]+.?/)) { h = substr(cmd, RSTART + 2, RLENGTH - 2); gsub(/[\x27"]/, "", h); heredoc = h }
        next
    }
    { print "OUT " $0 }
' "$root/README.md" >readme.parsed

# Run the blocks with commands; compare each command's output.
run_block() {    # N LINE: the commands and outputs of block N, in readme.parsed
    local n=$1 line=$2 k=0
    awk -v n="$n" '$1 == "BLOCK" { b = $2; next } b == n' readme.parsed >block.txt
    grep -q '^CMD ' block.txt || return 0
    : >cmds.txt
    # one command (with its heredoc) per file, its expected output beside it
    awk -v dir="$here" '
        function flush() { if (c) { close(cf); close(ef) } }
        /^CMD / {
            text = substr($0, 5)
            gsub(/\/tmp\//, dir "/", text)
            if (!inhd) { flush(); c++; cf = "cmd." c; ef = "exp." c; printf "" > ef }
            print text > cf
            if (inhd && text == hd) inhd = 0
            else if (!inhd && match(text, /<<.?[A-Za-z_]+.?/)) { hd = substr(text, RSTART + 2, RLENGTH - 2); gsub(/[\x27"]/, "", hd); inhd = 1 }
            next
        }
        /^OUT / { text = substr($0, 5); gsub(/\/tmp\//, dir "/", text); print text > ef }
        END { flush(); print c > "cmds.txt" }
    ' block.txt
    local count
    count=$(cat cmds.txt)
    for ((k = 1; k <= count; k++)); do
        bash -c "export PATH='$BIN':\"\$PATH\"; $(cat "cmd.$k")" >got.txt 2>&1
        check_true "README.md line $line, block $n, command $k: $(head -n 1 "cmd.$k" | cut -c1-60)" \
            diff "exp.$k" got.txt
    done
    rm -f cmd.* exp.*
}
while read -r tag n line; do
    run_block "$n" "$line"
done < <(grep '^BLOCK ' readme.parsed)
