#!/bin/sh
# bundle.sh KPCA OUT.tar.xz - kpca with the shared libraries it needs that
# a machine without Debian's packages lacks (a GPU machine lent for minutes:
# no apt, no OpenBLAS, HDF5, libmatio, LIBSVM...), in one compressed archive.
#
# The archive holds kpca-bundle/bin/kpca, kpca-bundle/lib/ (every library
# `ldd` names, dereferenced, but the C library's own and the C++ runtime,
# which every Linux has and CUDA's libraries need in the host's newer
# version) and kpca-bundle/kpca, a wrapper that runs bin/kpca with lib/ on
# LD_LIBRARY_PATH.  Unpack anywhere: `tar xJf OUT.tar.xz; kpca-bundle/kpca`.
# tests/scripts/bundle.bats checks it runs with nothing else on the path and
# stays under 60 MiB.
set -eu
[ $# -eq 2 ] || { echo "usage: bundle.sh KPCA OUT.tar.xz" >&2; exit 2; }
kpca=$1 out=$2
[ -x "$kpca" ] || { echo "bundle.sh: no executable '$kpca' (make first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
b=$work/kpca-bundle
mkdir -p "$b/bin" "$b/lib"
cp "$kpca" "$b/bin/kpca"
# the host's own: glibc's libraries, the dynamic loader, the C++ runtime
host='^(linux-vdso|ld-linux|libc|libm|libpthread|libdl|librt|libresolv|libutil|libstdc\+\+|libgcc_s)\.'
ldd "$kpca" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | while read -r name path; do
    printf '%s\n' "$name" | grep -Eq "$host" && continue
    cp -L "$path" "$b/lib/$name"
done
cat >"$b/kpca" <<'SH'
#!/bin/sh
# kpca from this bundle: its own libraries first (scripts/bundle.sh)
here=$(dirname "$(readlink -f "$0")")
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/bin/kpca" "$@"
SH
chmod +x "$b/kpca"
# xz -1 on every core: 21 MB in 5 s where -6 takes 25 s for 15.7 MB (on 2
# cores); both far under the 64 MiB a lent machine takes
tar -C "$work" -cf - kpca-bundle | xz -T0 -1 >"$out.tmp"
mv "$out.tmp" "$out"
echo "bundle.sh: $out, $(du -k "$out" | cut -f1) KiB, $(ls "$b/lib" | wc -l) libraries"
