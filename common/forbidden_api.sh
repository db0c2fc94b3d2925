#!/usr/bin/env bash
# forbidden_api.sh: does student code use a library the exercise forbids?
#
#   forbidden_api.sh --forbid NAME[,NAME...] [-I DIR]... FILE...
#
# NAME: thrust | cub | cg-scan | cg-reduce | cublas | cudnn | curand.
# Two independent looks, so neither a macro nor a helper header hides a use:
#  1. the preprocessor's dependency list (nvcc -M): every header the file really includes,
#     after macros are expanded and through any chain of helper headers;
#  2. the symbols of the compiled object (nm -C): template instantiations of thrust:: or cub::
#     code pasted into the file without its headers.
# Exit status: 0 clean, 5 a forbidden API is used (what and where is printed), 2 usage error
# or a file that does not compile.
set -u
NVCC=${NVCC:-nvcc}
forbid="" includes=() files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --forbid) forbid=${2:-}; shift 2 || { echo "forbidden_api: --forbid needs a list" >&2; exit 2; } ;;
        -I) includes+=("-I$2"); shift 2 ;;
        -I*) includes+=("$1"); shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        -*) echo "forbidden_api: unknown option '$1'" >&2; exit 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
[ -n "$forbid" ] && [ ${#files[@]} -gt 0 ] || { echo "usage: forbidden_api.sh --forbid NAME[,NAME] [-I DIR]... FILE..." >&2; exit 2; }

# Per library: a pattern for header paths and one for symbols.
declare -A header_re symbol_re
IFS=, read -ra names <<<"$forbid"
for name in "${names[@]}"; do
    case "$name" in
        thrust) header_re[$name]='/thrust/'; symbol_re[$name]='thrust::' ;;
        cub) header_re[$name]='/cub/'; symbol_re[$name]='(^|[^a-z_])cub::' ;;
        cg-scan) header_re[$name]='/cooperative_groups/(details/)?scan'; symbol_re[$name]='cooperative_groups::.*(inclusive_scan|exclusive_scan)' ;;
        cg-reduce) header_re[$name]='/cooperative_groups/(details/)?reduce'; symbol_re[$name]='cooperative_groups::.*reduce' ;;
        cublas) header_re[$name]='/cublas'; symbol_re[$name]='cublas' ;;
        cudnn) header_re[$name]='/cudnn'; symbol_re[$name]='cudnn' ;;
        curand) header_re[$name]='/curand'; symbol_re[$name]='curand' ;;
        *) echo "forbidden_api: unknown library '$name'" >&2; exit 2 ;;
    esac
done

status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "${files[@]}"; do
    [ -r "$f" ] || { echo "forbidden_api: cannot read '$f'" >&2; exit 2; }
    if ! "$NVCC" -std=c++17 -M "${includes[@]}" -x cu "$f" -o "$tmp/deps" 2>"$tmp/err"; then
        echo "forbidden_api: '$f' does not compile:" >&2; cat "$tmp/err" >&2; exit 2
    fi
    headers=$(tr ' \\' '\n\n' <"$tmp/deps" | grep -v '^$' | sort -u)
    syms=""
    if "$NVCC" -std=c++17 -c "${includes[@]}" -x cu "$f" -o "$tmp/obj.o" 2>"$tmp/err"; then
        syms=$(nm -C "$tmp/obj.o" 2>/dev/null)
    fi
    for name in "${names[@]}"; do
        hits=$(grep -E "${header_re[$name]}" <<<"$headers")
        if [ -n "$hits" ]; then
            echo "FORBIDDEN: $f uses $name: it includes $(wc -l <<<"$hits") of its headers (directly or through other headers), e.g."
            head -n 1 <<<"$hits" | sed 's/^/    /'
            status=5
        elif [ -n "$syms" ] && grep -qE "${symbol_re[$name]}" <<<"$syms"; then
            echo "FORBIDDEN: $f contains code of $name (its symbols, without its headers), e.g."
            grep -E "${symbol_re[$name]}" <<<"$syms" | head -n 2 | cut -c 1-160 | sed 's/^/    /'
            status=5
        fi
    done
done
[ $status -eq 0 ] && echo "forbidden_api: clean (${#files[@]} file(s); forbidden: $forbid)"
exit $status
