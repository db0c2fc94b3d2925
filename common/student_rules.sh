#!/usr/bin/env bash
# student_rules.sh: what a student's files may define, call and include, checked on what the
# real build produced (its objects, its dependency files, the linked program), never on a
# separate compile. common/common.mk runs it; the grader runs `make forbidden`.
#
# THE LINK RULE (part of linking build/$(PROGRAM), the student's program; a refusal is an
# ordinary link failure, "SRC: error: ..." naming the symbol and where course code has it):
#   `link`: a student object may not define an external symbol that course code (the harness,
#   the references, the CPU reference, every member of libpmpp_common.a) defines, if the
#   student's copy is strong (T, D, B, R, ...): it would replace the course's. Nor may it define,
#   strong or weak, a symbol that course code uses without defining (cudaEventElapsedTime,
#   std::chrono::steady_clock::now(), operator new): it would replace the library's for the
#   course too. Except the exercise's student API (STUDENT_API: the functions its header
#   declares for the student, which the harness calls). Weak symbols that course code also
#   defines (inline functions, template instantiations such as std::vector<float>'s members)
#   are shared: common.mk links every course object and the whole common library before the
#   student's objects, so the course's copy is the one kept.
#   `interposition` (after the link): no symbol the student's objects define, and course code
#   does not, may be in the program's dynamic symbol table (nm -D): the linker puts it there
#   because a shared library uses it (malloc, clock_gettime), and the student's copy would
#   replace the library's everywhere.
#
# THE USE RULE and THE INCLUDE RULE (`forbidden`, i.e. `make forbidden`, run by `make run`):
#   (a) every symbol a student object uses and does not define must be allowed: see
#       common/student_symbols.txt (deny and allow lines, first match wins), then the
#       student's own files, STUDENT_MAY_CALL, and what the CUDA runtime, libc, libm,
#       libstdc++ and libgcc export. A reference variant, the CPU reference or pmpp:: internals
#       are none of these, so they are refused.
#   (b) every header of the object's dependency file (.d, written by the compile) that lies in
#       the course tree must be one of: the student's own files (STUDENT_SRCS), the exercise's
#       headers (STUDENT_MAY_INCLUDE), common/cuda_check.h, or a course header these include
#       (followed through their own #include "..." lines).
#   (c) FORBIDDEN_APIS (thrust, cub, cg-scan, cg-reduce, cublas, cudnn, curand): refused when the
#       .d lists one of the library's headers or the object defines or uses its symbols.
#   (d) the object's own bytes (code and data, not debug information or device code) may not
#       hold "/proc/" or "/dev/", nor its host code a syscall instruction.
#   A student file byte-identical to its reference answer (SOLUTION_SRCS, the same position)
#   is the course's own code in the student's slot (how the grader proves the reference
#   answers score full marks): it is not checked, and the check says so.
#   Output: one line per violation, "FORBIDDEN: SRC ...: SYMBOL-OR-HEADER [rule]"; else one line
#   "forbidden: clean (...)".
#
# Usage (from the exercise folder; PAIR is SRC=OBJECT, e.g. scan_student.cu=build/obj/scan_student.cu.o):
#   student_rules.sh course-symbols OUT ITEM...      ITEM: SRC=OBJECT or an archive (.a);
#                                                    writes the course's symbols (common.mk caches them)
#   student_rules.sh link --course-symbols FILE [--api 'NAME...'] PAIR...
#   student_rules.sh interposition --binary BIN --course-symbols FILE PAIR...
#   student_rules.sh forbidden --course-root DIR [--forbid LIST] [--may-include 'H...'] [--may-call 'NAME...']
#                    [--solution 'SRC...'] [--cuda-lib DIR] [--cxx CXX] PAIR...
# NAME: a qualified function name (merge_sort::sort_student); every overload and template
# instance of it matches.
# Exit status: 0 clean; 1 a link refused (link, interposition); 5 something forbidden
# (forbidden); 2 the check cannot run (usage, a missing object or dependency file, a missing tool).
set -u
export LC_ALL=C
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RULES_FILE="$HERE/student_symbols.txt"

die() { echo "student_rules: $*" >&2; exit 2; }
for tool in nm c++filt readelf objdump strings realpath awk cmp; do
    command -v "$tool" >/dev/null 2>&1 || die "cannot run: '$tool' is not installed (binutils, coreutils)"
done
tmp=$(mktemp -d) || die "cannot make a temporary folder"
trap 'rm -rf "$tmp"' EXIT

# Symbol types of nm: external definitions are A B C D G R S T V W, u (GNU unique) and i (indirect
# function); of these V, W and u are weak. U, w and v are uses without a definition.
EXTERNAL_DEF='^([ABCDGRSTVW]|u|i)$'
WEAK_DEF='^(V|W|u)$'
UNDEFINED='^(U|w|v)$'

# "NAME..." -> an awk regular expression matching the demangled names of those functions: an
# optional return type (no parenthesis or angle bracket in it), the exact qualified name, then
# its template arguments or parameters.
api_regex() {
    local names=() n
    read -ra names <<<"${1:-}"
    [ ${#names[@]} -eq 0 ] && { echo '^$.'; return; }
    local alt=""
    for n in "${names[@]}"; do alt+="${alt:+|}${n//./\\.}"; done
    echo "^([^(<]* )?($alt)(<|\\(|\$)"
}

# Splits the PAIR arguments into the arrays srcs and objs.
srcs=() objs=()
split_pairs() {
    local p
    for p in "$@"; do
        case "$p" in *=*) srcs+=("${p%%=*}"); objs+=("${p#*=}") ;; *) die "expected SRC=OBJECT, got '$p'" ;; esac
    done
}

# nm -P of one object -> "name<TAB>type" lines, external definitions and uses only.
object_symbols() {
    nm -P "$1" 2>/dev/null | awk -v def="$EXTERNAL_DEF" -v undef="$UNDEFINED" \
        '$2 ~ def || $2 ~ undef { print $1 "\t" $2 }'
}

# Appends the demangled name as a last column to tab-separated lines whose first column is a
# mangled name (c++filt keeps the order of its lines).
with_demangled() {
    local in="$1"
    cut -f1 "$in" | c++filt >"$in.dem"
    paste "$in" "$in.dem"
}

# ---- course-symbols ----------------------------------------------------------------------------
# Writes "D<TAB>mangled<TAB>where" for every external symbol course code defines and
# "U<TAB>mangled" for every one it uses without defining.
course_symbols() {
    local out="$1"; shift
    : >"$tmp/course.raw"
    local item
    for item in "$@"; do
        case "$item" in
            *=*) local src="${item%%=*}" obj="${item#*=}"
                 [ -r "$obj" ] || die "cannot read the course object '$obj'"
                 nm -P "$obj" | awk -v w="$src" '{ print w "\t" $1 "\t" $2 }' >>"$tmp/course.raw" ;;
            *.a) [ -r "$item" ] || die "cannot read the course library '$item'"
                 # Members named after their source (stats.cpp.o); say where the source is.
                 local srcdir; srcdir=$(dirname "$(dirname "$item")")
                 nm -P -A "$item" | awk -v lib="$item" -v dir="$srcdir" '{
                     member = $1; sub(/^.*\[/, "", member); sub(/\]:$/, "", member)
                     src = member; sub(/\.o$/, "", src)
                     print dir "/" src ", in " lib "\t" $2 "\t" $3 }' >>"$tmp/course.raw" ;;
            *) die "course item '$item': expected SRC=OBJECT or an archive" ;;
        esac
    done
    awk -F'\t' -v def="$EXTERNAL_DEF" -v undef="$UNDEFINED" '
        $3 ~ def { if (!($2 in where)) where[$2] = $1; next }
        $3 ~ undef { used[$2] = 1 }
        END {
            for (s in where) print "D\t" s "\t" where[s]
            for (s in used) if (!(s in where)) print "U\t" s
        }' "$tmp/course.raw" | sort >"$out.tmp" && mv "$out.tmp" "$out"
}

# Every external definition of the student's objects: "src<TAB>mangled<TAB>type<TAB>demangled".
student_definitions() {
    local i
    : >"$tmp/student.defs"
    for i in "${!objs[@]}"; do
        [ -r "${objs[$i]}" ] || die "cannot check ${srcs[$i]}: its object ${objs[$i]} is missing (build it first)"
        object_symbols "${objs[$i]}" | awk -F'\t' -v src="${srcs[$i]}" -v def="$EXTERNAL_DEF" \
            '$2 ~ def { print $1 "\t" src "\t" $2 }' >>"$tmp/student.defs"
    done
    with_demangled "$tmp/student.defs" | awk -F'\t' '{ print $2 "\t" $1 "\t" $3 "\t" $4 }'
}

# ---- link ------------------------------------------------------------------------------------
cmd_link() {
    local course="" api=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --course-symbols) course=$2; shift 2 ;;
            --api) api=$2; shift 2 ;;
            -*) die "link: unknown option '$1'" ;;
            *) break ;;
        esac
    done
    [ -r "$course" ] || die "link: no course symbol list (--course-symbols)"
    split_pairs "$@"
    student_definitions >"$tmp/student.tsv"
    awk -F'\t' -v weak="$WEAK_DEF" -v api="$(api_regex "$api")" '
        FILENAME == ARGV[1] { if ($1 == "D") where[$2] = $3; else used[$2] = 1; next }
        {
            src = $1; sym = $2; type = $3; name = $4
            if ((sym in where) && type !~ weak)
                why = "which course code defines (" where[sym] "): a student file may not replace course code"
            else if ((sym in used) && !(sym in where) && name !~ api)
                why = "which course code uses and a library provides: the student copy would replace the library'"'"'s for the course too"
            else next
            if (++count[src] <= 12) print src ": error: defines " name ", " why " [link rule]"
            refused++
        }
        END {
            for (s in count) if (count[s] > 12) print s ": error: ... and " count[s] - 12 " more symbols of course code defined here [link rule]"
            if (refused) {
                print "error: link refused: the student'"'"'s files define " refused " symbol(s) of course code; only the exercise'"'"'s own functions (STUDENT_API) may be defined [link rule]"
                exit 1
            }
        }' "$course" "$tmp/student.tsv"
}

# ---- interposition -----------------------------------------------------------------------------
cmd_interposition() {
    local course="" bin=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --course-symbols) course=$2; shift 2 ;;
            --binary) bin=$2; shift 2 ;;
            -*) die "interposition: unknown option '$1'" ;;
            *) break ;;
        esac
    done
    [ -r "$course" ] || die "interposition: no course symbol list (--course-symbols)"
    [ -r "$bin" ] || die "interposition: no program '$bin'"
    split_pairs "$@"
    student_definitions >"$tmp/student.tsv"
    nm -D --defined-only -P "$bin" | awk '{ s = $1; sub(/@.*/, "", s); print s }' >"$tmp/dynamic"
    awk -F'\t' -v bin="$bin" '
        FILENAME == ARGV[1] { if ($1 == "D") course[$2] = 1; next }
        FILENAME == ARGV[2] { dynamic[$1] = 1; next }
        !($2 in course) && ($2 in dynamic) {
            print $1 ": error: defines " $4 ", which a shared library the program loads uses: the student copy would replace the library'"'"'s everywhere (interposition) [link rule]"
            refused++
        }
        END { if (refused) { print "error: " bin " removed: the student'"'"'s files interpose " refused " symbol(s) of a shared library [link rule]"; exit 1 } }
    ' "$course" "$tmp/dynamic" "$tmp/student.tsv"
}

# ---- forbidden -------------------------------------------------------------------------------
# The names the allowed libraries export, one a line (mangled, no version).
library_exports() {
    local cxx="$1" cudalib="$2" lib path
    for lib in libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1; do
        path=$("$cxx" -print-file-name="$lib" 2>/dev/null)
        [ -r "$path" ] && [ "$path" != "$lib" ] || die "cannot run: $cxx does not find $lib (the C and C++ libraries the use rule allows)"
        nm -D --defined-only -P "$path"
    done
    path=$("$cxx" -print-libgcc-file-name 2>/dev/null)
    [ -r "$path" ] && nm --defined-only -P "$path" 2>/dev/null | awk '$2 ~ /^[ABCDGRSTVW]$/'
    path="$cudalib/libcudart.so"
    [ -r "$path" ] || die "cannot run: no CUDA runtime at $path (--cuda-lib)"
    nm -D --defined-only -P "$path"
}

# The dependencies of the first rule of a .d file, one a line.
dependencies() {
    awk '{ line = $0; more = sub(/\\$/, "", line); rule = rule " " line; if (!more) { print rule; exit } }' "$1" |
        sed -e 's/^[^:]*: //' | tr ' ' '\n' | grep -v '^$'
}

# The course headers a student may include: the listed ones and, through their own
# #include "..." lines, every course header they include.
allowed_includes() {
    local root="$1"; shift
    local queue=("$@") seen=() file inc dir cand
    while [ ${#queue[@]} -gt 0 ]; do
        file=${queue[0]}; queue=("${queue[@]:1}")
        [ -f "$file" ] || continue
        file=$(realpath "$file")
        case " ${seen[*]-} " in *" $file "*) continue ;; esac
        seen+=("$file")
        dir=$(dirname "$file")
        while IFS= read -r inc; do
            for cand in "$dir/$inc" "$PWD/$inc" "$root/$inc"; do
                [ -f "$cand" ] && { queue+=("$cand"); break; }
            done
        done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
    done
    printf '%s\n' "${seen[@]}"
}

# Per library of FORBIDDEN_APIS: a pattern for its header paths and one for its symbols.
library_patterns() {
    case "$1" in
        thrust) echo '/thrust/' 'thrust::' ;;
        cub) echo '/cub/' '(^|[^a-z_])cub::' ;;
        cg-scan) echo '/cooperative_groups/(details/)?scan' 'cooperative_groups::.*(inclusive_scan|exclusive_scan)' ;;
        cg-reduce) echo '/cooperative_groups/(details/)?reduce' 'cooperative_groups::.*reduce' ;;
        cublas) echo '/cublas' 'cublas' ;;
        cudnn) echo '/cudnn' 'cudnn' ;;
        curand) echo '/curand' 'curand' ;;
        *) return 1 ;;
    esac
}

cmd_forbidden() {
    local root="" forbid="" may_include="" may_call="" solution="" cudalib="" cxx=${CXX:-g++}
    while [ $# -gt 0 ]; do
        case "$1" in
            --course-root) root=$2; shift 2 ;;
            --forbid) forbid=$2; shift 2 ;;
            --may-include) may_include=$2; shift 2 ;;
            --may-call) may_call=$2; shift 2 ;;
            --solution) solution=$2; shift 2 ;;
            --cuda-lib) cudalib=$2; shift 2 ;;
            --cxx) cxx=$2; shift 2 ;;
            -*) die "forbidden: unknown option '$1'" ;;
            *) break ;;
        esac
    done
    [ -d "$root" ] || die "forbidden: --course-root DIR is required"
    root=$(realpath "$root")
    [ -n "$cudalib" ] || cudalib="$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")/lib64"
    split_pairs "$@"
    [ ${#objs[@]} -gt 0 ] || die "forbidden: no student file given"
    local names=() name
    IFS=', ' read -ra names <<<"$forbid"
    for name in ${names[@]+"${names[@]}"}; do library_patterns "$name" >/dev/null || die "forbidden: unknown library '$name'"; done
    local header
    for header in $may_include; do [ -f "$header" ] || die "forbidden: STUDENT_MAY_INCLUDE names '$header', which is not here"; done

    local i obj dep
    for i in "${!objs[@]}"; do
        obj=${objs[$i]} dep=${objs[$i]%.o}.d
        [ -r "$obj" ] || die "cannot check ${srcs[$i]}: its object $obj is missing (build it first: make $obj)"
        [ -r "$dep" ] || die "cannot check ${srcs[$i]}: its dependency file $dep is missing (rebuild: rm $obj; make $obj)"
    done

    # The reference answer in the student's slot is course code: not checked (see the top).
    local solutions=() checked=()
    read -ra solutions <<<"$solution"
    for i in "${!objs[@]}"; do
        if [ -n "${solutions[$i]:-}" ] && [ -f "${solutions[$i]}" ] && cmp -s "${srcs[$i]}" "${solutions[$i]}"; then
            echo "forbidden: ${srcs[$i]} is the course's reference answer (identical to ${solutions[$i]}): not checked"
        else
            checked+=("$i")
        fi
    done

    library_exports "$cxx" "$cudalib" >"$tmp/exports" || exit 2
    awk '{ s = $1; sub(/@.*/, "", s); print s }' "$tmp/exports" | sort -u >"$tmp/libraries"
    # Every symbol any student file defines (their own helpers may be called across files).
    for i in "${!objs[@]}"; do
        object_symbols "${objs[$i]}" | awk -F'\t' -v def="$EXTERNAL_DEF" '$2 ~ def { print $1 }'
    done | sort -u >"$tmp/own"
    # The student's own files, and the listed course headers with every course header they include.
    { realpath -m "${srcs[@]}"; allowed_includes "$root" $may_include "$root/common/cuda_check.h"; } >"$tmp/may_include"

    local found=0 src out
    for i in ${checked[@]+"${checked[@]}"}; do
        src=${srcs[$i]} obj=${objs[$i]} dep=${objs[$i]%.o}.d
        out="$tmp/found.$i"
        : >"$out"

        # (a) symbols used and not defined.
        object_symbols "$obj" | awk -F'\t' -v undef="$UNDEFINED" '$2 ~ undef { print $1 }' >"$tmp/uses"
        with_demangled "$tmp/uses" >"$tmp/uses.tsv"
        # nvcc's registration code calls atexit once per object it compiles.
        local atexit_calls atexit_allowed=0
        atexit_calls=$(readelf -rW "$obj" | awk '$5 == "atexit"' | wc -l)
        grep -qx '__cudaRegisterFatBinary' "$tmp/uses" && atexit_allowed=1
        awk -F'\t' -v src="$src" -v may_call="$(api_regex "$may_call")" \
            -v atexit_calls="$atexit_calls" -v atexit_allowed="$atexit_allowed" '
            FILENAME == ARGV[1] {
                if ($0 ~ /^#/ || NF < 3) next
                kind[++rules] = $1; pattern[rules] = $2; why[rules] = $3; next
            }
            FILENAME == ARGV[2] { own[$1] = 1; next }
            FILENAME == ARGV[3] { library[$1] = 1; next }
            {
                sym = $1; name = $2; verdict = ""
                for (r = 1; r <= rules; r++) if (name ~ pattern[r]) { verdict = kind[r]; reason = why[r]; break }
                if (verdict == "deny" && sym == "atexit" && atexit_calls <= atexit_allowed) verdict = "allow"
                if (verdict == "deny") {
                    extra = sym == "atexit" ? " (beyond the one call of nvcc'"'"'s registration code)" : ""
                    print "FORBIDDEN: " src " calls " name extra " [use rule: " reason "]"
                } else if (verdict == "" && !(sym in own) && name !~ may_call && !(sym in library)) {
                    print "FORBIDDEN: " src " calls " name " [use rule: student code may use only the CUDA runtime, the C and C++ standard libraries, common/cuda_check.h, its own files and STUDENT_MAY_CALL; not course code such as a reference variant or the CPU reference, nor another library]"
                }
            }' "$RULES_FILE" "$tmp/own" "$tmp/libraries" "$tmp/uses.tsv" >>"$out"

        # (b) course files included.
        dependencies "$dep" >"$tmp/deps"
        xargs -r realpath -m <"$tmp/deps" >"$tmp/deps.real"
        paste "$tmp/deps" "$tmp/deps.real" | awk -F'\t' -v src="$src" -v root="$root/" '
            FILENAME == ARGV[1] { allowed[$1] = 1; next }
            index($2, root) == 1 && !($2 in allowed) {
                if (++count <= 4) print "FORBIDDEN: " src " includes " substr($2, length(root) + 1) " [include rule: of the course'"'"'s files, student code may include only the exercise'"'"'s headers (STUDENT_MAY_INCLUDE), common/cuda_check.h and the student'"'"'s own files]"
            }
            END { if (count > 4) print "FORBIDDEN: " src " includes " count - 4 " more course files (through the ones above) [include rule]" }' "$tmp/may_include" - >>"$out"

        # (c) the libraries this exercise forbids: their headers, then their symbols.
        if [ ${#names[@]} -gt 0 ]; then
            nm -P "$obj" | cut -d' ' -f1 | c++filt >"$tmp/all_symbols"
            local header_re symbol_re hits
            for name in "${names[@]}"; do
                read -r header_re symbol_re < <(library_patterns "$name")
                hits=$(grep -E "$header_re" "$tmp/deps")
                if [ -n "$hits" ]; then
                    echo "FORBIDDEN: $src includes $(head -n 1 <<<"$hits")$( [ "$(wc -l <<<"$hits")" -gt 1 ] && echo " and $(( $(wc -l <<<"$hits") - 1 )) more headers") of $name [forbidden library: this exercise forbids $forbid]" >>"$out"
                elif hits=$(grep -m 1 -E "$symbol_re" "$tmp/all_symbols"); then
                    echo "FORBIDDEN: $src holds code of $name, e.g. $(cut -c 1-160 <<<"$hits") [forbidden library: this exercise forbids $forbid]" >>"$out"
                fi
            done
        fi

        # (d) paths into /proc or /dev in the object's code and data; syscall instructions.
        check_bytes "$src" "$obj" "$root" "$cudalib" >>"$out"

        if [ -s "$out" ]; then cat "$out"; found=$((found + $(wc -l <"$out"))); fi
    done

    if [ $found -gt 0 ]; then
        echo "forbidden: $found violation(s) in the student's files (rules: common/student_rules.sh)"
        return 5
    fi
    echo "forbidden: clean (${#checked[@]} of ${#objs[@]} student file(s) checked: symbols, includes, strings${forbid:+; forbidden libraries: $forbid})"
}

# Strings "/proc/" or "/dev/" in an object's own sections (not debug information, not the
# device code, not the symbol tables), and syscall instructions in its host code. Paths of the
# toolchain or the course tree (assert messages of headers) are not the student's.
check_bytes() {
    local src="$1" obj="$2" root="$3" cudalib="$4"
    local cuda; cuda=$(realpath -m "$cudalib/..")
    readelf -SW "$obj" | awk '
        function hex(h,   v, k) { v = 0; h = tolower(h); for (k = 1; k <= length(h); k++) v = v * 16 + index("0123456789abcdef", substr(h, k, 1)) - 1; return v }
        /^ *\[ *[1-9][0-9]*\]/ {
            sub(/^ *\[ *[0-9]+\] */, "")
            name = $1; type = $2; off = hex($4); size = hex($5)
            if (type == "NOBITS" || type == "SYMTAB" || type == "STRTAB" || type == "RELA" || type == "REL" || type == "GROUP" || type == "NULL") next
            if (name ~ /^\.(debug|nv_fatbin|nvFatBinSegment|note|comment|gnu\.|eh_frame)/ || name ~ /fatbin/) next
            print off, off + size, name
        }' >"$tmp/sections"
    strings -a -t d "$obj" | grep -E '/(proc|dev)/' | while read -r offset text; do
        local section; section=$(awk -v o="$offset" '$1 <= o && o < $2 { print $3; exit }' "$tmp/sections")
        [ -n "$section" ] || continue
        local rest="$text" prefix
        for prefix in "$cuda" "$cudalib" "$root" /usr/include /usr/lib /usr/local/include; do rest=${rest//"$prefix"/}; done
        grep -qE '/(proc|dev)/' <<<"$rest" &&
            echo "FORBIDDEN: $src holds the path \"$(cut -c 1-80 <<<"$text")\" (in $section) [use rule: /proc and /dev are not for student code]"
    done
    objdump -d --no-show-raw-insn "$obj" 2>/dev/null | grep -qE '[[:space:]](syscall|sysenter)([[:space:]]|$)|[[:space:]]int[[:space:]]+\$0x80' &&
        echo "FORBIDDEN: $src makes system calls itself: a syscall instruction in its host code [use rule: raw system access]"
    return 0
}

case "${1:-}" in
    course-symbols) shift; [ $# -ge 2 ] || die "usage: course-symbols OUT ITEM..."; course_symbols "$@" ;;
    link) shift; cmd_link "$@" ;;
    interposition) shift; cmd_interposition "$@" ;;
    forbidden) shift; cmd_forbidden "$@" ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d'; exit 0 ;;
    *) die "usage: student_rules.sh course-symbols|link|interposition|forbidden ... (--help)" ;;
esac
