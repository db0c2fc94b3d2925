#!/usr/bin/env bash
# .ci/cuda12.sh [DIR]: CUDA 12.4 for CI, from Debian 13 (trixie) non-free, without installing it.
#
# The packages are fetched with a private apt configuration (its own sources list, lists and
# cache under DIR/apt: no apt-get install, nothing in /etc/apt or /var/lib/apt changes) and
# unpacked with dpkg -x into DIR/deb. Debian spreads the toolkit over /usr/lib/nvidia-cuda-toolkit,
# /usr/include and /usr/lib/x86_64-linux-gnu, and its nvcc.profile names those absolute paths, so
# DIR/cuda is a CUDA_PATH-shaped tree of relative links into DIR/deb (bin/, include/, lib64/,
# nvvm/) with a copy of nvcc and an nvcc.profile of our own beside it: nvcc 12.4 finds its own
# cicc, ptxas, fatbinary, nvlink, headers, CCCL 2.3 (cub/, thrust/, cuda/) and libcudart, never
# the system's CUDA 13. The course then builds with
#   make test ARCH=sm_75 CUDA_PATH=DIR/cuda     (and LD_LIBRARY_PATH=DIR/cuda/lib64 to run the tests)
# The host compiler is the system's g++ (Debian 12: g++ 12, which CUDA 12.4 supports).
#
# DIR defaults to $HOME/.cache/pmpp-cuda12.4. A DIR already complete (DIR/.complete) that passes
# the self-test below is reused as it is, with no network; one that fails it is fetched again.
# The last line printed is CUDA_PATH=DIR/cuda.
set -euo pipefail

dir=${1:-${HOME:-/tmp}/.cache/pmpp-cuda12.4}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cuda=$dir/cuda
root=$dir/deb
stamp=$dir/.complete

# What nvcc 12.4 needs to compile .cu files and link them against libcudart (and libcublas:
# 01_saxpy's baseline): the compiler (nvcc, cicc, ptxas, fatbinary, nvlink, cudafe++, libdevice),
# the headers and link libraries (nvidia-cuda-dev), CCCL 2.3 and the runtime libraries the tests
# load. Not libnvvm4: Debian's cicc has NVVM built in (ldd cicc names no libnvvm).
packages=(nvidia-cuda-toolkit nvidia-cuda-dev libcudart12 libcu++-dev libcub-dev libthrust-dev libcublas12 libcublaslt12)
# nvidia-cuda-dev is 0.9 GB, 2.5 GB of it unpacked the static libraries of cuBLAS, cuFFT, cuSPARSE,
# cuSOLVER, cuRAND, NPP, NVRTC, nvJitLink, nvJPEG...: the course links none of them, so they stay
# in the package. libcudart_static.a, libcudadevrt.a and libculibos.a (nvcc's own defaults) stay.
unpack_excludes=('*/libcu[bfrs]*_static*.a' '*/libnpp*_static.a' '*/libnv*_static.a' '*/libmetis_static.a')

say() { echo "cuda12.sh: $*"; }
die() { echo "cuda12.sh: error: $*" >&2; exit 1; }

# One run at a time on one DIR.
exec 9>"$dir/.lock"
flock 9

fetch_and_unpack() {
    rm -rf "$root" "$cuda" "$dir/apt" "$stamp"
    local apt=$dir/apt
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$apt/empty"
    local keyring=/usr/share/keyrings/debian-archive-keyring.gpg signed=""
    [[ -r $keyring ]] && signed="[signed-by=$keyring] "
    echo "deb ${signed}http://deb.debian.org/debian trixie main contrib non-free" >"$apt/sources.list"
    local opts=(
        -o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/empty"
        -o "Dir::Etc::Preferences=$apt/empty/none" -o "Dir::Etc::PreferencesParts=$apt/empty"
        -o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=/dev/null"
        -o "Dir::Cache=$apt/cache" -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
        -o "APT::Architecture=amd64" -o "APT::Architectures::=amd64" -o "Acquire::Languages=none"
        -q
    )
    # As root, apt hands downloads to the _apt user, who may not write into $HOME: keep root.
    [[ $(id -u) -eq 0 ]] && opts+=(-o "APT::Sandbox::User=root")
    say "apt-get update (trixie main contrib non-free, private lists in $apt)"
    apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 || { cat "$apt/update.log" >&2; die "apt-get update failed"; }
    say "apt-get download ${packages[*]}"
    (cd "$apt/debs" && apt-get "${opts[@]}" download "${packages[@]}") >"$apt/download.log" 2>&1 ||
        { cat "$apt/download.log" >&2; die "apt-get download failed"; }
    local p deb total=0 size
    for p in "${packages[@]}"; do
        deb=$(compgen -G "$apt/debs/${p}_*.deb" | head -n 1) || die "no .deb for $p"
        size=$(stat -c %s "$deb")
        total=$((total + size))
        printf 'cuda12.sh:   %-22s %-26s %7.1f MB\n' "$p" "$(dpkg-deb -f "$deb" Version)" "$(awk -v b="$size" 'BEGIN { print b / 1e6 }')"
    done
    say "downloaded $(awk -v b="$total" 'BEGIN { printf "%.0f", b / 1e6 }') MB; unpacking into $root"
    mkdir -p "$root"
    local excludes=() pattern
    for pattern in "${unpack_excludes[@]}"; do excludes+=(--exclude="$pattern"); done
    for deb in "$apt/debs"/*.deb; do
        if [[ $(dpkg-deb -f "$deb" Package) == nvidia-cuda-dev ]]; then
            # dpkg -x less the static libraries named above (dpkg -x is this same tar).
            dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$root" --wildcards "${excludes[@]}"
        else
            dpkg -x "$deb" "$root"
        fi
    done

    # DIR/cuda: the layout nvcc and common/common.mk expect of a CUDA_PATH.
    local tk=$root/usr/lib/nvidia-cuda-toolkit
    [[ -x $tk/bin/nvcc && -x $tk/bin/cicc && -x $root/usr/bin/ptxas ]] || die "the toolkit is incomplete in $root"
    mkdir -p "$cuda/bin" "$cuda/nvvm/bin"
    # A real file, not a link: nvcc reads nvcc.profile beside its resolved executable.
    ln -f "$tk/bin/nvcc" "$cuda/bin/nvcc" 2>/dev/null || cp "$tk/bin/nvcc" "$cuda/bin/nvcc"
    local tool
    for tool in ptxas fatbinary nvlink cudafe++ bin2c cuobjdump nvdisasm nvprune cu++filt __nvcc_device_query compute-sanitizer; do
        [[ -e $root/usr/bin/$tool ]] && ln -sfn "../../deb/usr/bin/$tool" "$cuda/bin/$tool"
    done
    ln -sfn ../../deb/usr/lib/nvidia-cuda-toolkit/bin/crt "$cuda/bin/crt"
    ln -sfn ../../../deb/usr/lib/nvidia-cuda-toolkit/bin/cicc "$cuda/nvvm/bin/cicc"
    ln -sfn ../../deb/usr/lib/nvidia-cuda-toolkit/libdevice "$cuda/nvvm/libdevice"
    ln -sfn ../deb/usr/include "$cuda/include"
    ln -sfn ../deb/usr/lib/x86_64-linux-gnu "$cuda/lib64"
    # Debian's own profile points at /usr/lib/nvidia-cuda-toolkit and /usr/lib/x86_64-linux-gnu,
    # and puts its g++ wrapper first in PATH (it would pick a g++-13 if there were one): this one
    # is relative to nvcc (the layout of NVIDIA's), and leaves the host compiler to PATH.
    cat >"$cuda/bin/nvcc.profile" <<'EOF'
# Written by .ci/cuda12.sh: Debian's CUDA 12.4, laid out as a CUDA_PATH (links into ../deb).
TOP              = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
LD_LIBRARY_PATH += $(TOP)/lib64:
PATH            += $(TOP)/nvvm/bin:$(_HERE_):
INCLUDES        +=  "-I$(TOP)/include" $(_SPACE_)
LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/lib64/stubs" "-L$(TOP)/lib64"
CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
EOF
    # The lists and the .debs are no longer needed: the unpacked tree is the cache.
    rm -rf "$apt"
}

# Checks the tree: nvcc runs and is 12.4, then compiles and links a file that includes what the
# course includes (runtime, cooperative groups, libcu++, CUB, Thrust, NVTX), every header from DIR
# (or the host compiler's and the C library's, never /usr/local's CUDA 13), and the program loads
# DIR's libcudart 12.4. Says what is wrong and fails, without exiting.
check_tree() {
    local t=$dir/self-test
    version=$("$cuda/bin/nvcc" --version 2>&1) || { say "$cuda/bin/nvcc does not run: $version"; return 1; }
    grep -q 'release 12\.4' <<<"$version" || { say "$cuda/bin/nvcc is not CUDA 12.4: $version"; return 1; }
    rm -rf "$t" && mkdir -p "$t"
    cat >"$t/t.cu" <<'EOF'
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/merge.h>
#include <thrust/sort.h>
#include <nvtx3/nvToolsExt.h>
#include <cstdio>
__global__ void k(int* x) { cub::BlockReduce<int, 32> r; (void)r; cuda::atomic_ref<int, cuda::thread_scope_device>(*x).fetch_add(1); }
int main() {
    int v = 0;
    cudaRuntimeGetVersion(&v);
    std::printf("CUDART_VERSION %d CUB_VERSION %d THRUST_VERSION %d runtime %d\n", CUDART_VERSION, CUB_VERSION, THRUST_VERSION, v);
    if (false) k<<<1, 32>>>(nullptr);
    return v == CUDART_VERSION ? 0 : 1;
}
EOF
    "$cuda/bin/nvcc" -std=c++17 -arch=sm_75 -I"$cuda/include" -M "$t/t.cu" -o "$t/t.d" ||
        { say "self-test: nvcc -M failed"; return 1; }
    local stray
    stray=$(tr ' \\' '\n\n' <"$t/t.d" | grep '^/' | grep -v -e "^$dir/" -e '^/usr/include/' -e '^/usr/lib/gcc/' || true)
    [[ -z $stray ]] || { say "self-test: headers from outside $dir: $(sort -u <<<"$stray" | head -5 | tr '\n' ' ')"; return 1; }
    "$cuda/bin/nvcc" -std=c++17 -arch=sm_75 -I"$cuda/include" "$t/t.cu" -o "$t/t" -L"$cuda/lib64" -lcudart ||
        { say "self-test: nvcc could not build a program"; return 1; }
    local loaded
    loaded=$(LD_LIBRARY_PATH="$cuda/lib64" ldd "$t/t" | grep libcudart || true)
    [[ $loaded == *"$dir/"* ]] || { say "self-test: the program does not load DIR's libcudart: $loaded"; return 1; }
    LD_LIBRARY_PATH="$cuda/lib64" "$t/t" | sed 's/^/cuda12.sh: self-test: /' || { say "self-test: the program failed"; return 1; }
    rm -rf "$t"
}

version=""
if [[ -f $stamp ]] && check_tree; then
    say "reused $dir ($(cat "$stamp"))"
else
    [[ -f $stamp ]] && say "$dir is broken: fetching it again"
    fetch_and_unpack
    check_tree || die "the unpacked CUDA 12.4 in $dir does not work"
    echo "$(grep -o 'V12[0-9.]*' <<<"$version") from Debian trixie, unpacked $(date -u +%Y-%m-%d)" >"$stamp"
fi
echo "$version"
echo "CUDA_PATH=$cuda"
