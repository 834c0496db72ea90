#!/usr/bin/env bash
# The streamed-extraction benchmark of docs/BENCHMARKS.md (issue 27), old
# and new binaries in one run on the device machine: a 2048³ uint8 file
# (8 GiB, generated on the machine's disk) at a 2 GiB device budget with the
# page cache dropped and warm, Cayley 2048³ float32 generated slab by slab
# at 2 GiB, and a 4096×4096×6144 uint8 sphere (96 GiB) at the GPU's budget.
# Each run measures the copy ceiling first (--measure-copy) and writes its
# stats JSON and `/usr/bin/time -v` output to OUT_DIR.
#   tools/bench_stream.sh OLD_BIN_DIR NEW_BIN_DIR DEB_DIR OUT_DIR [WORK_DIR]
# OLD_BIN_DIR may be "-" (new binary only). The 96 GiB run of the old binary
# runs only while less than OLD_SPHERE_BEFORE_S (default 150) seconds have passed.
set -uo pipefail
old=$1 new=$2 debs=$3 out=$4 work=${5:-/tmp/isoscope-stream-bench}
for f in "$debs"/*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p "$out" "$work"
start=$SECONDS
log="$out/stream.log"
"$new/isoscope" info >"$out/info.txt" 2>&1
nproc >>"$out/info.txt"; free -g >>"$out/info.txt"; lscpu | grep -i 'model name' >>"$out/info.txt"

timed() { # OUT_FILE COMMAND...: /usr/bin/time -v where the machine has it
  local file=$1
  shift
  if [ -x /usr/bin/time ]; then /usr/bin/time -v -o "$file" "$@"; else "$@"; fi
}

drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || echo "(could not drop the page cache)" | tee -a "$log"; }

run() { # NAME BIN_DIR ARGS...
  local name=$1 bin=$2
  shift 2
  echo "== $name ($((SECONDS - start)) s): isoscope $*" | tee -a "$log"
  timed "$out/$name.time" timeout "${RUN_TIMEOUT:-200}" "$bin/isoscope" "$@" --stats "$out/$name.json" --force \
    >>"$log" 2>"$out/$name.err"
  echo "rc $?" | tee -a "$log"
  tail -n 3 "$out/$name.err" >>"$log"
  rm -f "$work"/*.ply
}

file="$work/g2048_uint8.nhdr"
echo "== generating $file ($((SECONDS - start)) s)" | tee -a "$log"
timed "$out/convert.time" "$new/isoscope" convert gyroid:2048 --type uint8 -o "$file" --force >>"$log" 2>&1
echo "generated ($((SECONDS - start)) s)" | tee -a "$log"
common=(--method block --stream --measure-copy)
for version in old new; do
  bin=${!version}
  [ "$bin" = "-" ] && continue
  drop_caches
  run "$version-file2048-cold" "$bin" extract "$file" --iso 150 --device-budget 2GiB "${common[@]}" -o "$work/file2048.ply"
done
[ "$old" != "-" ] && run old-file2048-warm "$old" extract "$file" --iso 150 --device-budget 2GiB "${common[@]}" -o "$work/file2048.ply"
run new-file2048-warm "$new" extract "$file" --iso 150 --device-budget 2GiB "${common[@]}" -o "$work/file2048.ply"
run new-file2048-warm-nomesh "$new" extract "$file" --iso 150 --device-budget 2GiB "${common[@]}"
[ "$old" != "-" ] && run old-cayley2048 "$old" extract cayley:2048 --iso -0.012 --device-budget 2GiB "${common[@]}"
run new-cayley2048 "$new" extract cayley:2048 --iso -0.012 --device-budget 2GiB "${common[@]}"
run new-sphere96 "$new" extract sphere:4096x4096x6144 --type uint8 --iso 191 "${common[@]}"
if [ "$old" != "-" ] && [ $((SECONDS - start)) -lt "${OLD_SPHERE_BEFORE_S:-150}" ]; then
  run old-sphere96 "$old" extract sphere:4096x4096x6144 --type uint8 --iso 191 "${common[@]}"
fi
rm -rf "$work"
echo "done ($((SECONDS - start)) s)" | tee -a "$log"
