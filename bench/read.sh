#!/bin/sh
# bench/read.sh - the reading section of `make bench` (bench/run.sh), or
# alone: how fast kpca reads your own data, measured in one run on this
# machine against numpy.loadtxt (and pandas.read_csv), the whole read and
# `cat`.  Prints the rows of the targets table ("| ... |" lines), then the
# section's note.
#
#  - the whole read (bench/bench_read.c: kpca_dataset_read alone, what fit
#    reads) of a ~190 MB CSV against numpy.loadtxt, and of the same values
#    as a ~160 MB .npy against `cat FILE >/dev/null` from the page cache;
#  - the streamed read (bench_read --rows: a block of 1024 rows at a time
#    through kpca_rowsrc, what `kpca transform` and the Nystrom fit's passes
#    read, at bounded memory) of the CSV and of the same values as ESL text,
#    against their whole reads, in wall and CPU time;
#  - `kpca transform` of the CSV, the ESL text and the .npy (a 1-component
#    linear model), against numpy.loadtxt, the whole read and `cat`;
#  - `kpca fit --solver nystrom`: the most any of its passes spent reading
#    (-v), against the whole read, over CSV, ESL and LIBSVM text, on one
#    process and on kpca-mpi's 2 ranks (where build/kpca-mpi is built).
#
# usage: bench/read.sh [WORKDIR]   (default build/bench/read; make bench
# builds build/kpca and build/bench/bench_read first)
set -eu
cd "$(dirname "$0")/.."
KPCA=${KPCA:-build/kpca}
. scripts/lib.sh # say
rd=${1:-build/bench/read}
mkdir -p "$rd"
now() { date +%s.%N; }
since() { echo "$(now) $1" | awk -v f="%.${2:-1}f" '{ printf f, $1 - $2 }'; } # since T [DECIMALS]
medn() { # medn A B C ...: the median (an odd count), then all of them
    printf '%s\n' "$@" | sort -g | awk -v all="$*" '{ v[NR] = $1 } END { m = v[(NR + 1) / 2]; gsub(/ /, ", ", all); printf "%s (%s)\n", m, all }'
}
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }
say "== reading your own data: CSV against numpy.loadtxt, .npy against cat"
read_rows=""
read_note=""
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    mkdir -p "$rd"
    [ -f "$rd/data.npy" ] || /usr/bin/python3 bench/read_bench.py make "$rd/data.csv" "$rd/data.npy"
    cat "$rd/data.csv" "$rd/data.npy" >/dev/null # both in the page cache
    # five runs of each, interleaved, so that the machine's state is shared
    csv_k="" csv_np="" csv_pd="" npy_k="" npy_cat=""
    pandas=0
    /usr/bin/python3 -c 'import pandas' 2>/dev/null && pandas=1
    for i in 1 2 3 4 5; do
        set -- $(build/bench/bench_read "$rd/data.csv" first)
        csv_k="$csv_k $1" csv_hash=$4 csv_shape="$2 x $3"
        set -- $(/usr/bin/python3 bench/read_bench.py loadtxt "$rd/data.csv")
        csv_np="$csv_np $1"
        if [ $pandas = 1 ]; then
            set -- $(/usr/bin/python3 bench/read_bench.py pandas "$rd/data.csv")
            csv_pd="$csv_pd $1"
        fi
    done
    # the .npy: seven interleaved runs of each, as a read into fresh memory
    # varies from run to run (on a virtual machine, pages the host took back
    # cost up to 10x more to touch first); the median decides
    for i in 1 2 3 4 5 6 7; do
        set -- $(build/bench/bench_read "$rd/data.npy")
        npy_k="$npy_k $1" npy_hash=$4
        t=$(now)
        cat "$rd/data.npy" >/dev/null
        npy_cat="$npy_cat $(since "$t" 3)"
    done
    csv_k=$(medn $csv_k) csv_np=$(medn $csv_np) npy_k=$(medn $npy_k) npy_cat=$(medn $npy_cat)
    csv_mb=$(du -m "$rd/data.csv" | cut -f1) npy_mb=$(du -m "$rd/data.npy" | cut -f1)
    same="the same doubles (hash $csv_hash)"
    [ "$csv_hash" = "$npy_hash" ] || same="DIFFERENT doubles (hashes $csv_hash, $npy_hash)"
    read_rows="| reading a $csv_mb MB CSV ($csv_shape values + a label column): \`numpy.loadtxt\` $csv_np s against kpca | ${csv_k%% *} s | $(ratio "${csv_np%% *}" "${csv_k%% *}")× faster | ≥ 3× |
| reading the same values as a $npy_mb MB .npy (float64, C order) against \`cat FILE >/dev/null\` from the page cache ($npy_cat s) | ${npy_k%% *} s | $(ratio "${npy_k%% *}" "${npy_cat%% *}")× | ≤ 1.5× |
"
    if [ $pandas = 1 ]; then
        csv_pd=$(medn $csv_pd)
        read_rows="$read_rows| the same CSV: \`pandas.read_csv\` (C engine) $csv_pd s against kpca | ${csv_k%% *} s | $(ratio "${csv_pd%% *}" "${csv_k%% *}")× faster | |
"
        pd_line="pandas $(/usr/bin/python3 -c 'import pandas; print(pandas.__version__)'): read_csv(header=None, engine='c'), $csv_pd s."
    else
        pd_line="pandas: not measured, Debian's python3-pandas is not installed."
    fi
    read_note="The CSV: $csv_shape values uniform in [-1, 1] written with six decimals
(\`-0.211234\`), a label 0..9 first, no header; the .npy: the same values from
numpy.save (\`bench/read_bench.py make\`, seeded). kpca's time is kpca_dataset_read's
in \`bench/bench_read\` (the format found from the content, as the commands do; \`--label first\`), numpy's
is numpy.loadtxt's (delimiter=',') in process ($(/usr/bin/python3 -c 'import numpy; print("numpy " + numpy.__version__)')); \`cat\`'s
is its whole run. Medians of 5 runs for the CSV, of 7 for the .npy (a read into fresh memory varies
from run to run), the runs interleaved. kpca's reads of the two files
gave $same. $pd_line"

    # What the commands read: `kpca transform` and the Nystrom fit's passes
    # read DATA a block at a time (bench_read --rows), not whole.  The same
    # values as whitespace text (ESL: the label, then the values) too.
    say "== the streamed reads of transform and the Nystrom fit: CSV, ESL, .npy"
    [ -f "$rd/data.txt" ] || tr ',' ' ' <"$rd/data.csv" >"$rd/data.txt"
    "$KPCA" fit -q -d 1 -k 1 -m 1100 --sample first --label first "$rd/data.csv" -o "$rd/lin.model.tmp" &&
        mv "$rd/lin.model.tmp" "$rd/lin.model"
    cat "$rd/data.txt" >/dev/null
    s_csv_w="" s_csv_r="" s_csv_wc="" s_csv_rc="" s_csv_o="" s_esl_w="" s_esl_r="" s_esl_wc="" s_esl_rc=""
    t_csv="" t_esl="" t_npy="" t_cat="" t_start="" t_floor="" t_floor_nh="" s_npy_r=""
    for i in 1 2 3 4 5; do
        set -- $(build/bench/bench_read "$rd/data.csv" first)
        s_csv_w="$s_csv_w $1" s_csv_wc="$s_csv_wc $5" h_whole=$4
        set -- $(build/bench/bench_read --rows "$rd/data.csv" first)
        s_csv_r="$s_csv_r $1" s_csv_rc="$s_csv_rc $5" s_csv_o="$s_csv_o $6" h_rows=$4
        set -- $(build/bench/bench_read "$rd/data.txt")
        s_esl_w="$s_esl_w $1" s_esl_wc="$s_esl_wc $5"
        set -- $(build/bench/bench_read --rows "$rd/data.txt")
        s_esl_r="$s_esl_r $1" s_esl_rc="$s_esl_rc $5"
        t=$(now)
        "$KPCA" transform -q "$rd/lin.model" "$rd/data.csv" --label first -o "$rd/z.csv"
        t_csv="$t_csv $(since "$t" 3)"
        t=$(now)
        "$KPCA" transform -q "$rd/lin.model" "$rd/data.txt" -o "$rd/z.csv"
        t_esl="$t_esl $(since "$t" 3)"
        t=$(now)
        "$KPCA" transform -q "$rd/lin.model" "$rd/data.npy" -o "$rd/z.csv"
        t_npy="$t_npy $(since "$t" 3)"
        t=$(now)
        cat "$rd/data.npy" >/dev/null
        t_cat="$t_cat $(since "$t" 3)"
        set -- $(build/bench/bench_read --rows "$rd/data.npy")
        s_npy_r="$s_npy_r $1"
        t=$(now)
        "$KPCA" help >/dev/null # kpca's start alone: its shared libraries mapped and relocated
        t_start="$t_start $(since "$t" 3)"
        t=$(now) # the floor of any kpca process: its libraries loaded, nothing run
        build/bench/libs_floor
        t_floor="$t_floor $(since "$t" 3)"
        t=$(now)
        build/bench/libs_floor_nohdf5
        t_floor_nh="$t_floor_nh $(since "$t" 3)"
    done
    rm -f "$rd/z.csv"
    # six more pairs of the CSV's reads: the whole read's time varies with
    # the cost of its fresh memory, so its ratio takes eleven
    for i in 1 2 3 4 5 6; do
        set -- $(build/bench/bench_read "$rd/data.csv" first)
        s_csv_w="$s_csv_w $1" s_csv_wc="$s_csv_wc $5"
        set -- $(build/bench/bench_read --rows "$rd/data.csv" first)
        s_csv_r="$s_csv_r $1" s_csv_rc="$s_csv_rc $5" s_csv_o="$s_csv_o $6"
    done
    med() { medn "$@" | awk '{ print $1 }'; }
    # the Nystrom fit's passes (-v: each pass's reading apart), against the whole read
    nys_read() { # nys_read FILE [OPTIONS]: the most seconds any full pass spent reading (any rank's: $RUN)
        f=$1
        shift
        $RUN fit -q -v --solver nystrom -d 2 -k 10 --landmarks 100 "$@" "$f" -o "$rd/nys.model" 2>"$rd/nys.log" ||
            { cat "$rd/nys.log" >&2; return 1; }
        rm -f "$rd/nys.model"
        sed -n 's/^kpca fit.*: timing *\([0-9.]*\) s \(statistics\|accumulate\|signs\): read$/\1/p' "$rd/nys.log" |
            sort -g | tail -n 1
    }
    RUN=$KPCA
    # the same values as LIBSVM text (every value given, index:value), its
    # whole and streamed reads
    [ -f "$rd/data.svm" ] || awk -F, '{ printf "%s", $1; for (i = 2; i <= NF; i++) printf " %d:%s", i - 1, $i; print "" }' \
        "$rd/data.csv" >"$rd/data.svm"
    cat "$rd/data.svm" >/dev/null
    s_svm_w="" s_svm_r=""
    for i in 1 2 3; do
        set -- $(build/bench/bench_read "$rd/data.svm")
        s_svm_w="$s_svm_w $1"
        set -- $(build/bench/bench_read --rows "$rd/data.svm")
        s_svm_r="$s_svm_r $1"
    done
    nys_three() { # three runs over each file: their times into t3_csv, t3_esl, t3_svm, t3_npy
        t3_csv="" t3_esl="" t3_svm="" t3_npy=""
        for i in 1 2 3; do
            t3_csv="$t3_csv $(nys_read "$rd/data.csv" --label first)"
            t3_esl="$t3_esl $(nys_read "$rd/data.txt")"
            t3_svm="$t3_svm $(nys_read "$rd/data.svm")"
            t3_npy="$t3_npy $(nys_read "$rd/data.npy")"
        done
    }
    nys_three
    n_csv=$t3_csv n_esl=$t3_esl n_svm=$t3_svm n_npy=$t3_npy
    # kpca-mpi's ranks (2, one BLAS thread each): the most any rank's pass
    # spent reading its part, against the whole read of the file
    if [ -x build/kpca-mpi ] && command -v mpirun >/dev/null; then
        RUN="timeout 600 mpirun --oversubscribe -np 2 -x OPENBLAS_NUM_THREADS=1 build/kpca-mpi"
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        nys_three
        m_csv=$t3_csv m_esl=$t3_esl m_svm=$t3_svm m_npy=$t3_npy
    fi
    nlibs=$(ldd "$KPCA" 2>/dev/null | grep -c '=>' || true)
    cw=$(med $s_csv_w) cr=$(med $s_csv_r) cwc=$(med $s_csv_wc) crc=$(med $s_csv_rc)
    ew=$(med $s_esl_w) er=$(med $s_esl_r) ewc=$(med $s_esl_wc) erc=$(med $s_esl_rc)
    same_rows="the same doubles"
    [ "$h_whole" = "$h_rows" ] || same_rows="DIFFERENT doubles ($h_whole, $h_rows)"
    read_rows="$read_rows| \`kpca transform\` of that CSV (a 1-component linear model): \`numpy.loadtxt\` ${csv_np%% *} s against kpca | $(medn $t_csv) s | $(ratio "${csv_np%% *}" "$(med $t_csv)")× faster | ≥ 3× |
| the streamed read of that CSV (\`bench_read --rows\`, what transform and the Nyström passes read) against the whole read ($cw s wall, $cwc s CPU), eleven interleaved pairs | $cr s wall, $crc s CPU (the labels' pass at open: $(med $s_csv_o) s) | $(ratio "$cr" "$cw")× wall, $(ratio "$crc" "$cwc")× CPU | ≤ 1.1× |
| the same values as ESL text ($(du -m "$rd/data.txt" | cut -f1) MB): streamed against whole ($ew s wall, $ewc s CPU) | $er s wall, $erc s CPU | $(ratio "$er" "$ew")× wall, $(ratio "$erc" "$ewc")× CPU | ≤ 1.1× |
| \`kpca transform\` of the ESL text against the whole read of it ($ew s) | $(medn $t_esl) s | $(ratio "$(med $t_esl)" "$ew")× | |
| the streamed read of the .npy (\`bench_read --rows\`: what transform reads) against \`cat\` ($(med $t_cat) s) | $(medn $s_npy_r) s | $(ratio "$(med $s_npy_r)" "$(med $t_cat)")× | ≤ 1.5× |
| \`kpca transform\` of the .npy, the whole command, against the same \`cat\` | $(medn $t_npy) s | $(ratio "$(med $t_npy)" "$(med $t_cat)")× | (its start alone is over 1×: below) |
| \`kpca\`'s start alone (\`kpca help\`: its $nlibs shared libraries mapped and relocated), against the same \`cat\` | $(medn $t_start) s | $(ratio "$(med $t_start)" "$(med $t_cat)")× | |
| a process that only loads those libraries (\`bench/libs_floor.c\`: an empty \`main\`), against \`cat\`: the floor of any kpca command | $(medn $t_floor) s | $(ratio "$(med $t_floor)" "$(med $t_cat)")× | |
| the same without HDF5, libmatio and what they bring ($(($(ldd build/bench/libs_floor 2>/dev/null | grep -c '=>' || true) - $(ldd build/bench/libs_floor_nohdf5 2>/dev/null | grep -c '=>' || true))) of its $(ldd build/bench/libs_floor 2>/dev/null | grep -c '=>' || true) libraries; kpca's models are HDF5 files, so transform needs them) | $(medn $t_floor_nh) s | $(ratio "$(med $t_floor_nh)" "$(med $t_cat)")× | |
| the .npy transform less that start, against \`cat\` | $(echo "$(med $t_npy) $(med $t_start)" | awk '{ printf "%.3f", $1 - $2 }') s | $(echo "$(med $t_npy) $(med $t_start) $(med $t_cat)" | awk '{ printf "%.2f", ($1 - $2) / $3 }')× | |
| \`kpca fit --solver nystrom\`: the most a pass over the CSV spent reading (\`-v\`), against its whole read ($cw s) | $(medn $n_csv) s | $(ratio "$(med $n_csv)" "$cw")× | ≤ 1.1× |
| the same over the ESL text, against its whole read ($ew s) | $(medn $n_esl) s | $(ratio "$(med $n_esl)" "$ew")× | ≤ 1.1× |
| the same values as LIBSVM text ($(du -m "$rd/data.svm" | cut -f1) MB): streamed against whole ($(med $s_svm_w) s wall) | $(medn $s_svm_r) s | $(ratio "$(med $s_svm_r)" "$(med $s_svm_w)")× | ≤ 1.1× |
| \`kpca fit --solver nystrom\` over the LIBSVM text: the most a pass spent reading, against its whole read ($(med $s_svm_w) s) | $(medn $n_svm) s | $(ratio "$(med $n_svm)" "$(med $s_svm_w)")× | ≤ 1.1× |
| \`kpca fit --solver nystrom\` over the .npy: the most a pass spent reading, against \`cat\` ($(med $t_cat) s) | $(medn $n_npy) s | $(ratio "$(med $n_npy)" "$(med $t_cat)")× | ≤ 1.5× |
"
    if [ -n "${m_csv:-}" ]; then
        read_rows="$read_rows| \`kpca-mpi\` (2 ranks) \`fit --solver nystrom\`: the most a rank's pass over the CSV spent reading its part, against the whole read ($cw s) | $(medn $m_csv) s | $(ratio "$(med $m_csv)" "$cw")× | ≤ 1.1× |
| the same over the ESL text, against its whole read ($ew s) | $(medn $m_esl) s | $(ratio "$(med $m_esl)" "$ew")× | ≤ 1.1× |
| the same over the LIBSVM text, against its whole read ($(med $s_svm_w) s) | $(medn $m_svm) s | $(ratio "$(med $m_svm)" "$(med $s_svm_w)")× | ≤ 1.1× |
| the same over the .npy (each rank its half), against \`cat\` of the whole file ($(med $t_cat) s) | $(medn $m_npy) s | $(ratio "$(med $m_npy)" "$(med $t_cat)")× | |
"
    fi
    read_note="$read_note
The streamed rows: bench_read --rows reads the file through kpca_rowsrc a block of 1024 rows at a
time, at bounded memory (transform's and the Nyström passes' read); the whole read and it gave
$same_rows. The CSV's whole and streamed reads: medians of 11 interleaved pairs (the last figure is
the streamed read's pass at open, which decides the labels and counts the rows); the .npy's streamed
read: median of 5, interleaved with \`cat\`. The ESL text is the CSV with its commas made blanks. The transforms project onto a
1-component linear model (\`kpca fit -d 1 -k 1 -m 1100\` of the CSV: more fit points than values, so
that the projection takes its primal weights) and write CSV; medians of 5,
interleaved with the reads. The Nyström fit (\`-d 2 -k 10 --landmarks 100\`): the largest
\`read\` of its statistics, accumulate and signs passes under \`-v\`, median of 3; the LIBSVM text
is the CSV's values written index:value, every one given. kpca-mpi: 2 ranks on this machine, one
OpenBLAS thread each, each rank reading its part of the file (rowpart.h), the largest pass of either rank."
else
    read_note="Not measured: /usr/bin/python3 has no numpy (apt-get install python3-numpy)."
fi
printf '%s' "$read_rows"
printf '%s\n' "$read_note"
