#!/usr/bin/env bash
# The benchmark matrix of docs/BENCHMARKS.md, run on a machine with a real GPU
# and no Vulkan loader installed (the device machine): unpacks the carried
# Debian packages (see tools/gpu_check.sh), then runs `isoscope bench` for
# each configuration of the chosen sets, one JSON file per configuration.
#   tools/bench_gpu.sh BIN_DIR DEB_DIR DATASETS_DIR OUT_DIR SET...
# Sets: block, block-sizes, scan, histopyramid, dual, scan-primitive and scan-items (`isoscope bench-scan`),
# raycast, raycast-noskip, raycast-real, raycast-real-noskip, dvr and dvr-bare (`isoscope
# bench-raycast`, view swept around y).
set -uo pipefail
bin=$1 debs=$2 data=$3 out=$4
shift 4
for f in "$debs"/*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p "$out"
"$bin/isoscope" info | tee "$out/info.txt"

run() {
  local name=$1
  shift
  echo "== $name: isoscope bench $*" | tee -a "$out/bench.log"
  timeout 120 "$bin/isoscope" bench "$@" --force -o "$out/$name.json" 2>&1 | tee -a "$out/bench.log"
}

run_raycast() {
  local name=$1
  shift
  echo "== $name: isoscope bench-raycast $*" | tee -a "$out/bench.log"
  timeout "${RAYCAST_TIMEOUT:-120}" "$bin/isoscope" bench-raycast "$@" --force -o "$out/$name.json" 2>&1 | tee -a "$out/bench.log"
}

run_scan() {
  local name=$1
  shift
  echo "== $name: isoscope bench-scan $*" | tee -a "$out/bench.log"
  timeout 120 "$bin/isoscope" bench-scan "$@" --force -o "$out/$name.json" 2>&1 | tee -a "$out/bench.log"
}

cayley=-0.012
for set in "$@"; do
  case $set in
  block)
    for n in 256 512 1024; do
      run "block-cayley$n-uint8" "cayley:$n" --iso $cayley --uint8 --method block
      run "block-cayley$n-float32" "cayley:$n" --iso $cayley --method block
    done
    # 4x4x8, the fastest block shape measured at 1024^3 (docs/BENCHMARKS.md)
    run block-cayley1024-uint8-4x4x8 cayley:1024 --iso $cayley --uint8 --method block --block 4x4x8
    run block-cayley1024-float32-4x4x8 cayley:1024 --iso $cayley --method block --block 4x4x8
    run block-cayley1024-uint8-static cayley:1024 --iso $cayley --uint8 --method block --static-volume
    run block-cayley1024-float32-static cayley:1024 --iso $cayley --method block --static-volume
    run block-cayley1024-uint8-unwelded cayley:1024 --iso $cayley --uint8 --method block --no-weld
    run block-cayley1024-float32-unwelded cayley:1024 --iso $cayley --method block --no-weld
    for n in 256 512 1024 2048; do
      run "block-cayley$n-analytic" "cayley:$n" --iso $cayley --analytic --method block
    done
    run block-cayley2048-analytic-unwelded cayley:2048 --iso $cayley --analytic --method block --no-weld
    run block-engine-60.5 "$data/engine_256x256x128_uint8.nhdr" --iso 60.5 --method block
    run block-engine-150.5 "$data/engine_256x256x128_uint8.nhdr" --iso 150.5 --method block
    run block-fmri-300.5 "$data/fmri_128x96x24_int16.nhdr" --iso 300.5 --method block
    ;;
  block-sizes)
    for b in 4x4x4 8x4x4 8x8x4 16x4x4 8x8x8 16x8x4 32x4x4 32x8x4; do
      run "block-cayley1024-uint8-$b" cayley:1024 --iso $cayley --uint8 --method block --block $b
    done
    ;;
  scan)
    for n in 256 512 1024; do
      run "scan-cayley$n-uint8" "cayley:$n" --iso $cayley --uint8 --method scan
      run "scan-cayley$n-uint8-soup" "cayley:$n" --iso $cayley --uint8 --method scan --no-weld
    done
    run scan-cayley1024-float32 cayley:1024 --iso $cayley --method scan
    run scan-engine-60.5 "$data/engine_256x256x128_uint8.nhdr" --iso 60.5 --method scan
    ;;
  histopyramid)
    for n in 256 512 1024; do
      run "histopyramid-cayley$n-uint8" "cayley:$n" --iso $cayley --uint8 --method histopyramid
    done
    run histopyramid-cayley1024-uint8-soup cayley:1024 --iso $cayley --uint8 --method histopyramid --no-weld
    for n in 256 512; do
      run "histopyramid-cayley$n-float32" "cayley:$n" --iso $cayley --method histopyramid
    done
    run histopyramid-engine-60.5 "$data/engine_256x256x128_uint8.nhdr" --iso 60.5 --method histopyramid
    run histopyramid-engine-150.5 "$data/engine_256x256x128_uint8.nhdr" --iso 150.5 --method histopyramid
    ;;
  dual)
    # Quad meshes; the second run of each adds the halfedges and colours.
    for n in 256 512 1024; do
      run "dual-cayley$n-uint8" "cayley:$n" --iso $cayley --uint8 --method dual
      run "dual-cayley$n-uint8-halfedges" "cayley:$n" --iso $cayley --uint8 --method dual --halfedges --colors
    done
    run dual-cayley512-float32 cayley:512 --iso $cayley --method dual
    for iso in 60.5 150.5; do
      run "dual-engine-$iso" "$data/engine_256x256x128_uint8.nhdr" --iso $iso --method dual
      run "dual-engine-$iso-halfedges" "$data/engine_256x256x128_uint8.nhdr" --iso $iso --method dual --halfedges --colors
    done
    run dual-fmri-300.5 "$data/fmri_128x96x24_int16.nhdr" --iso 300.5 --method dual --halfedges --colors
    ;;
  scan-primitive)
    # 135005697: the points of a 513^3 volume, what the scan method scans at cayley:512.
    for count in 1048576 16777216 135005697 1073741824; do
      for components in 1 2; do
        for algorithm in single-pass reduce-then-scan; do
          run_scan "scan-primitive-$count-x$components-$algorithm" --count $count --components $components \
            --algorithm $algorithm
        done
      done
    done
    ;;
  scan-items)
    # The single pass at several tile sizes (elements per invocation).
    for count in 16777216 135005697 1073741824; do
      for components in 1 2; do
        for items in 8 16 32; do
          run_scan "scan-items-$count-x$components-items$items" --count $count --components $components \
            --algorithm single-pass --items $items
        done
      done
    done
    ;;
  raycast)
    for n in 512 1024; do
      for type in uint8 float32; do
        flag=""; [ $type = uint8 ] && flag=--uint8
        run_raycast "raycast-cayley$n-$type-persp" "cayley:$n" --iso $cayley $flag --fov 45
        run_raycast "raycast-cayley$n-$type-ortho" "cayley:$n" --iso $cayley $flag --ortho
      done
    done
    ;;
  raycast-noskip)
    # Every sample marched, as the issue's bare probe did: the two mappings'
    # complementary cost by view direction, without skipping's share of it.
    run_raycast raycast-cayley1024-uint8-ortho-noskip cayley:1024 --iso $cayley --uint8 --ortho --no-skip
    run_raycast raycast-cayley1024-uint8-persp-noskip cayley:1024 --iso $cayley --uint8 --fov 45 --no-skip
    ;;
  raycast-real)
    # The real volumes upsampled to 512³ and 1024³: the engine CT (uint8) and
    # the two MRI volumes (int16, kept int16), at MANIFEST.md's isovalues.
    for n in 512 1024; do
      run_raycast "raycast-engine$n-uint8-persp" "$data/engine_256x256x128_uint8.nhdr" --iso 60.5 --resample $n --fov 45
      run_raycast "raycast-engine$n-uint8-ortho" "$data/engine_256x256x128_uint8.nhdr" --iso 60.5 --resample $n --ortho
      run_raycast "raycast-fmri$n-int16-persp" "$data/fmri_128x96x24_int16.nhdr" --iso 300.5 --resample $n --fov 45
      run_raycast "raycast-fmri$n-int16-ortho" "$data/fmri_128x96x24_int16.nhdr" --iso 300.5 --resample $n --ortho
      run_raycast "raycast-anatomical$n-int16-persp" "$data/anatomical_33x41x25_int16.nhdr" --iso 5000.5 --resample $n --fov 45
      run_raycast "raycast-anatomical$n-int16-ortho" "$data/anatomical_33x41x25_int16.nhdr" --iso 5000.5 --resample $n --ortho
    done
    ;;
  dvr|dvr-bare)
    # Direct volume rendering (issue 20), each mapping over the turn about y:
    # 1024³ uint8 Cayley (cayley preset) and the engine CT upsampled to 1024³
    # (ct preset), 1024×1024, perspective; dvr-bare without skipping and
    # early termination (the content-independent cost).
    bare=""; [ "$set" = dvr-bare ] && bare=--no-skip
    modes=dvr-standard,dvr-shaped,dvr-rotated,dvr-warp,dvr-auto
    run_raycast "dvr-cayley1024-uint8-persp${bare:+-bare}" cayley:1024 --uint8 --modes $modes --tf cayley --fov 45 $bare
    run_raycast "dvr-engine1024-uint8-persp${bare:+-bare}" "$data/engine_256x256x128_uint8.nhdr" --resample 1024 \
      --modes $modes --tf ct --fov 45 $bare
    ;;
  raycast-real-noskip)
    # The bare probe (no skipping) on the real volumes at 1024³:
    # how much their views' work differs before any skipping.
    run_raycast raycast-engine1024-uint8-ortho-noskip "$data/engine_256x256x128_uint8.nhdr" --iso 60.5 --resample 1024 --ortho --no-skip --sweep 15
    run_raycast raycast-fmri1024-int16-ortho-noskip "$data/fmri_128x96x24_int16.nhdr" --iso 300.5 --resample 1024 --ortho --no-skip --sweep 15
    run_raycast raycast-anatomical1024-int16-ortho-noskip "$data/anatomical_33x41x25_int16.nhdr" --iso 5000.5 --resample 1024 --ortho --no-skip --sweep 15
    ;;
  *) echo "unknown set $set" >&2; exit 2 ;;
  esac
done
# One archive: the device tool brings back only a few files.
tar -C "$out" -czf "$out.tar.gz" .
