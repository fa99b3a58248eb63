#!/bin/sh
# get-data.sh FILE... - put USPS files into data/ (git-ignored).
# Copies them from ../shared/data when that exists (this workplace), else
# downloads them: the ESL text files from the Elements of Statistical
# Learning data site; usps.h5 is then built from them (needs python3-h5py).
# Every file is checked against its SHA-256 before it is used.
set -eu
cd "$(dirname "$0")/.."
mkdir -p data
[ $# -gt 0 ] || set -- zip.train.gz zip.test.gz usps.h5
shared=../shared/data
esl=https://hastie.su.domains/ElemStatLearn/datasets
sha() {
    case "$1" in
    zip.train.gz) echo a266e0ecf85d5990d5508828c21ba3d6c7109643f9922b68634fafaf6a52542b ;;
    zip.test.gz) echo 56d82dfa2d0d3a988f269f54d6781c6e1274d58be8cbdf6d9118aaec5b820024 ;;
    usps.h5) echo 734f88c541104a956d88be2c95d03b4a463ffd74ccc2ba9c80841fb98e3fcb36 ;;
    *) echo "get-data.sh: unknown file '$1'" >&2; exit 2 ;;
    esac
}
for f in "$@"; do
    want=$(sha "$f")
    [ -f "data/$f" ] && continue
    if [ -f "$shared/$f" ]; then
        cp "$shared/$f" "data/$f.part"
    elif [ "$f" = usps.h5 ]; then
        "$0" zip.train.gz zip.test.gz
        python3 scripts/make-usps-h5.py data/zip.train.gz data/zip.test.gz "data/$f.part"
        want=""   # rebuilt locally: byte layout differs from the published file
    else
        echo "get-data.sh: downloading $f" >&2
        if command -v curl >/dev/null; then curl -fsSL -o "data/$f.part" "$esl/$f"
        else wget -q -O "data/$f.part" "$esl/$f"; fi
    fi
    if [ -n "$want" ]; then
        got=$(sha256sum "data/$f.part" | cut -d' ' -f1)
        if [ "$got" != "$want" ]; then
            rm -f "data/$f.part"
            echo "get-data.sh: $f: SHA-256 mismatch (got $got)" >&2
            exit 1
        fi
    fi
    chmod 644 "data/$f.part"
    mv "data/$f.part" "data/$f"
done
