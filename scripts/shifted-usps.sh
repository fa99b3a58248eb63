#!/bin/sh
# shifted-usps.sh - USPS training digits with one-pixel shifted copies: data
# sets larger than USPS for the distributed measurements (make distributed).
#
#   x2: the 7291 training digits, then each shifted one pixel right (M = 14582)
#   x4: x2, then each digit shifted one pixel left, then one down (M = 29164)
#
# A shift moves the 16 x 16 image by one pixel and fills the uncovered row or
# column with the background value -1; labels are kept.  The files are ESL
# text like zip.train.gz (label, then 256 values), written atomically.
#
# usage: scripts/shifted-usps.sh [--copies 2|4] [--out FILE] [ZIP_TRAIN_GZ]
#   --copies N   2 (default) or 4
#   --out FILE   default: build/distributed/usps-xN.txt
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh
copies=2
out=
while [ $# -gt 0 ]; do
    case "$1" in
    --copies) copies=$(optval "$@"); shift ;;
    --out) out=$(optval "$@"); shift ;;
    -h|--help) usage; exit 0 ;;
    -*) bad_option "$1" ;;
    *) break ;;
    esac
    shift
done
src=${1:-data/zip.train.gz}
case "$copies" in 2|4) ;; *) echo "shifted-usps.sh: --copies must be 2 or 4, got '$copies'" >&2; exit 2 ;; esac
[ -r "$src" ] || { echo "shifted-usps.sh: cannot read '$src' (run make data)" >&2; exit 2; }
out=${out:-build/distributed/usps-x$copies.txt}
mkdir -p "$(dirname "$out")"
lib_tmp "$out"
lib_traps
# shift DX DY: every digit of $src moved DX pixels right and DY down
shift_digits() {
    gzip -dc "$src" | awk -v dx="$1" -v dy="$2" '
        NF != 257 { printf "shifted-usps.sh: %s line %d: %d fields, expected 257\n", FILENAME, NR, NF > "/dev/stderr"; exit 1 }
        { line = $1
          for (r = 0; r < 16; r++)
              for (c = 0; c < 16; c++) {
                  sr = r - dy; sc = c - dx
                  v = (sr >= 0 && sr < 16 && sc >= 0 && sc < 16) ? $(2 + sr * 16 + sc) : "-1.0000"
                  line = line " " v
              }
          print line }'
}
{
    shift_digits 0 0
    shift_digits 1 0
    if [ "$copies" = 4 ]; then
        shift_digits -1 0
        shift_digits 0 1
    fi
} >"$tmp"
n=$(wc -l <"$tmp")
mv "$tmp" "$out"
echo "shifted-usps.sh: $out: $n digits" >&2
