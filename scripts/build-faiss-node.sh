#!/usr/bin/env bash
# Builds a faiss-node 0.5.1 prebuild against Debian's libfaiss-dev (1.7.3), because faiss-node's own
# install downloads from GitHub. Needs root (apt) and the npm registry; about 20 s after apt.
# Output: vendor/prebuilds/faiss-node-v0.5.1-napi-v8-linux-x64.tar.gz (13 MB: OpenBLAS, gfortran and
# gomp bundled, RUNPATH=$ORIGIN), which `npm install`'s postinstall (scripts/install-faiss-prebuild.mjs)
# unpacks into node_modules/faiss-node. Not committed: .ci/run builds it on a fresh machine.
# Without it, everything runs on the exact in-process vector index (identical results).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$ROOT/vendor/prebuilds/faiss-node-v0.5.1-napi-v8-linux-x64.tar.gz"
if [ "$(id -u)" != "0" ]; then echo "build-faiss-node.sh: needs root for apt-get (libfaiss-dev)" >&2; exit 1; fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq libfaiss-dev libopenblas-dev patchelf cmake g++ >/dev/null \
  || { apt-get update -qq >/dev/null && apt-get install -y -qq libfaiss-dev libopenblas-dev patchelf cmake g++ >/dev/null; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
echo '{"name":"faiss-build","version":"1.0.0","private":true}' > package.json
npm install --no-audit --no-fund --ignore-scripts faiss-node@0.5.1 cmake-js@7 node-api-headers >/dev/null
cd node_modules/faiss-node
mkdir -p deps/faiss
# faiss 1.7.3 only has Index::idx_t; faiss-node 0.5.1 expects faiss::idx_t
printf '#pragma once\n#include <cstdint>\nnamespace faiss { using idx_t = int64_t; }\n' > deps/faiss/idx_shim.h
cat > deps/faiss/CMakeLists.txt <<'C'
find_package(OpenMP REQUIRED)
find_package(BLAS REQUIRED)
find_package(LAPACK REQUIRED)
add_library(faiss INTERFACE)
target_link_libraries(faiss INTERFACE /usr/lib/x86_64-linux-gnu/libfaiss.a OpenMP::OpenMP_CXX ${BLAS_LIBRARIES} ${LAPACK_LIBRARIES})
target_compile_options(faiss INTERFACE -include ${CMAKE_CURRENT_SOURCE_DIR}/idx_shim.h)
C
npx cmake-js compile >/dev/null   # cmake-js 7 takes headers from node-api-headers: no download
# CMake mangles -rpath,$ORIGIN; set it afterwards so the bundled libraries load from build/Release
patchelf --set-rpath '$ORIGIN' build/Release/faiss-node.node
for lib in libgomp.so.1 libopenblas.so.0 libgfortran.so.5 libquadmath.so.0; do
  if [ ! -f "build/Release/$lib" ]; then
    src=$(ldd build/Release/faiss-node.node | awk -v l="$lib" '$1==l {print $3}')
    if [ -z "$src" ]; then src=$(ldconfig -p | awk -v l="$lib" '$1==l {print $NF; exit}'); fi
    if [ -n "$src" ]; then cp -L "$src" "build/Release/$lib"; patchelf --set-rpath '$ORIGIN' "build/Release/$lib" || true; fi
  fi
done
mkdir -p "$(dirname "$OUT")"
tar czf "$OUT" build/Release/faiss-node.node $(cd build/Release && ls libgomp.so.1 libopenblas.so.0 libgfortran.so.5 libquadmath.so.0 2>/dev/null | sed 's#^#build/Release/#')
echo "build-faiss-node.sh: wrote $OUT"
