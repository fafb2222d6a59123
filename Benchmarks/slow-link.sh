#!/usr/bin/env bash
# livegrid on a real slow link (issue 28): two network namespaces joined by Benchmarks/slow-link/linkemu.py
# (server lgsrv 192.0.2.1, client lgcli 192.0.2.2; nothing leaves the machine), a throwaway sshd in the server's
# namespace, at 20 Mbit/s and 5 Mbit/s with 50 ms round trips.
#   1. sftp:// first screen: livegrid on the client side in a 160x48 tmux pane browsing sftp://192.0.2.1/...;
#      time to the first picture and to the whole first screen (LIVEGRID_TRACE: first-picture,
#      first-thumbnails, grid-complete), bytes that crossed the link (the client's TUN device, both ways).
#   2. Run on the server over `ssh -tt`: the terminal is a recording pty on the client side
#      (Benchmarks/fake-terminal.py, 10x20 px cells, answers as xterm with sixel); bytes of the first screen
#      per mode (--graphics symbols/sixels/kitty/iterm), and chafa and timg drawing the same photos at the same
#      cell size over the same link.
#   3. Playback over the link (PARTS=play): train.mov held in the viewer (a mouse press, released after 3 s) in
#      livegrid run on the server over `ssh -tt`, in symbols (160x48) and kitty and sixel modes (80x24): frames the movie has, frames
#      that reached the terminal (kitty/sixel images, symbol paints), bytes per frame, the player's own shown
#      and dropped counts, and when the last frame reached the terminal after the press (the movie is 1.23 s).
#      PLAY_BINARIES="before:/path/livegrid after:/path/livegrid" compares two builds in one run.
#   4. Keys while pictures are in flight (PARTS=keys): the run-on-server sixel first screen, Page Down twice
#      0.3 s apart as soon as its first picture (KEYS_AFTER_PICTURES: that many) reached the terminal: how long
#      after each key livegrid read it (the trace's next `loop-wake input`), what reached the terminal after the
#      second key (bytes, sixel images), and of that what came before the new screen's first label (queued for
#      the screens left) and when that label came. With and without the picture pacing (KEYS_PACING="0 1").
# Targets (issue 28): playback at 20 Mbit/s keeps the movie's timing with <= 10 % of frames dropped in symbols
# and kitty modes, and plays visibly in sixel mode. sftp first screen <= 8 s and <= 20 MB at 20 Mbit/s, <= 30 s at 5 Mbit/s; on the server,
# each mode's bytes <= the best peer's (sixel <= chafa, kitty <= timg --compress, iTerm2 <= 2x the JPEG floor,
# symbols <= timg).
# Needs root, /dev/net/tun, sshd, tmux, chafa, timg, ffmpeg, exiftool, jpegtran (make bench-deps).
#   (KEEP_RECORDINGS=DIR keeps what the terminal received per mode and rate)
#   Benchmarks/slow-link.sh        LIVEGRID=binary RATES="20000000 5000000" PARTS="sftp server play keys" CONFIG=release TIMEOUT=150
#                                  MODES="symbols sixels kitty iterm" (livegrid's modes run on the server)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
CONFIG=${CONFIG:-release}
BIN=${LIVEGRID:-$root/.build/$CONFIG/livegrid}
RATES=${RATES:-"20000000 5000000"}
PARTS=${PARTS-"sftp server play keys"}
TIMEOUT=${TIMEOUT:-150}
COLS=${COLS:-160}; LINES_=${LINES_:-48}
fixtures=$root/../shared/fixtures
[ "$(id -u)" = 0 ] || { echo "slow-link.sh: needs root (network namespaces); skipped"; exit 0; }
[ -c /dev/net/tun ] || { echo "slow-link.sh: /dev/net/tun missing; skipped"; exit 0; }
[ -d "$fixtures" ] || { echo "slow-link.sh: $fixtures missing (the shared Live Photo fixtures); skipped"; exit 0; }
for tool in tmux chafa timg ffmpeg exiftool jpegtran /usr/sbin/sshd; do
  command -v "$tool" >/dev/null || { echo "slow-link.sh: $tool missing (make bench-deps)"; exit 1; }
done
[ -x "$BIN" ] || swift build -c "$CONFIG" --product livegrid >/dev/null

work=$(mktemp -d /tmp/livegrid-slow-link.XXXXXX)
export STATE=$work/link
sock=livegrid-slow-link-$$
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  [ -n "${sshd_pid:-}" ] && kill -- "-$sshd_pid" 2>/dev/null
  # Only a link this run brought up is taken down: when up.sh refused (another run's namespaces exist), tearing
  # them down would break that run.
  [ -n "${link_up:-}" ] && "$root/Benchmarks/slow-link/down.sh"
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the library: the issue's kind, 60 photos -------------------------------------------------------------
# Phone photos from ../shared/fixtures (a Live Photo pair twice, HEICs with and without thumbnail items, Samsung
# and Google Motion Photos), 3:2 "DSLR" JPEGs with letterboxed 160x120 Exif thumbnails (made here), and 4:3
# 12 MP camera-like JPEGs with 160x120 thumbnails (Benchmarks/make-camera-jpegs.sh).
cameras=$root/.build/bench-camera-jpegs
"$root/Benchmarks/make-camera-jpegs.sh" "$cameras"
dslr=$root/.build/bench-dslr-jpegs
dslr_stamp="$dslr/.made-by-$(md5sum "$0" | cut -c1-12)"
if [ ! -f "$dslr_stamp" ]; then
  rm -rf "$dslr"; mkdir -p "$dslr/thumbs"
  # 6000x4000 with a 160x120 thumbnail of the whole frame letterboxed (160x107 and black bars), as Canon,
  # Nikon, Leica and Sigma write them.
  ffmpeg -v error -y -f lavfi -i "testsrc2=size=6000x4000:rate=1" -filter_complex \
    "[0]format=yuv420p,noise=alls=10:allf=t,split[a][b];[b]scale=160:107:flags=area,pad=160:120:0:6:black[t]" \
    -map "[a]" -frames:v 6 -q:v 3 "$dslr/DSC_%04d.jpg" -map "[t]" -frames:v 6 -q:v 5 "$dslr/thumbs/DSC_%04d.jpg"
  exiftool -q -overwrite_original -Make=Canon -Model="EOS 5D Mark IV" -Orientation=1 -n \
    '-ThumbnailImage<='"$dslr"'/thumbs/%f.jpg' "$dslr"/DSC_*.jpg
  rm -rf "$dslr/thumbs"; touch "$dslr_stamp"
fi
library=$work/library; screen=$work/screen
mkdir -p "$library" "$screen"
phone=(train.jpg train.mov IMG_2927.HEIC iphone-se-still.heic motion-photo.heic samsung-still.jpeg
       microvideo-v1.jpeg motion-photo-v1.jpeg)
for f in "${phone[@]}"; do cp "$fixtures/$f" "$library/$f"; done
cp "$fixtures/limitpoint/keyPhoto.jpg" "$library/IMG_0001.JPG"; cp "$fixtures/limitpoint/pairedVideo.mov" "$library/IMG_0001.MOV"
cp "$dslr"/DSC_*.jpg "$library/"
n=0; for f in "$cameras"/IMG_*.jpg; do n=$((n + 1)); [ $n -le 44 ] || break; cp "$f" "$library/"; done
photos=$(find "$library" -type f ! -iname '*.mov' | wc -l)
# The run-on-server part draws 28 photos: the first screen's worth, so the peers draw exactly that.
for f in "${phone[@]}"; do case $f in *.mov) ;; *) cp "$library/$f" "$screen/";; esac; done
cp "$library/train.mov" "$library/IMG_0001.JPG" "$library/IMG_0001.MOV" "$dslr"/DSC_*.jpg "$screen/"
n=0; for f in "$cameras"/IMG_*.jpg; do n=$((n + 1)); [ $n -le 14 ] || break; cp "$f" "$screen/"; done
echo "library: $photos photos, $(du -sh "$library" | cut -f1) ($(ls "$library" | wc -l) files); run-on-server screen: $(find "$screen" -type f ! -iname '*.mov' | wc -l) photos"

# --- the link, the server --------------------------------------------------------------------------------
if ip netns list | grep -qwE 'lgsrv|lgcli'; then
  echo "slow-link.sh: the link's namespaces exist (another run of this benchmark?): wait for it to end"; exit 1
fi
link_up=1
"$root/Benchmarks/slow-link/up.sh"
mkdir -p /run/sshd "$work/home"
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/client_key"
cp "$work/client_key.pub" "$work/authorized_keys"
echo "192.0.2.1 $(cut -d' ' -f1,2 "$work/host_key.pub")" > "$work/known_hosts"
cat > "$work/sshd_config" <<CONF
Port 22
ListenAddress 192.0.2.1
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
UsePAM no
PermitRootLogin prohibit-password
PidFile $work/sshd.pid
Subsystem sftp internal-sftp
CONF
cat > "$work/ssh_config" <<CONF
Host slowlink
  HostName 192.0.2.1
  User $(id -un)
  IdentityFile $work/client_key
  IdentitiesOnly yes
  UserKnownHostsFile $work/known_hosts
  StrictHostKeyChecking yes
  BatchMode yes
CONF
setsid timeout -s KILL 3600 ip netns exec lgsrv /usr/sbin/sshd -f "$work/sshd_config" -D -E "$work/sshd.log" &
sshd_pid=$!
for _ in $(seq 100); do ip netns exec lgcli bash -c 'exec 3<>/dev/tcp/192.0.2.1/22' 2>/dev/null && break; sleep 0.1; done
ip netns exec lgcli ssh -F "$work/ssh_config" slowlink true || { echo "slow-link.sh: ssh over the link failed"; cat "$work/sshd.log"; exit 1; }

link_bytes() { # both directions on the client's device
  ip -n lgcli -s -j link show lgc0 | python3 -c 'import json,sys; s=json.load(sys.stdin)[0]["stats64"]; print(s["rx"]["bytes"] + s["tx"]["bytes"])'
}
now() { python3 -c 'import time; print("%.6f" % time.monotonic())'; }
event() { awk -v e="$2" -v s="$3" '$2==e { printf "%.2f", $1 - s; exit }' "$1"; }
mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1e6 }'; }

# --- 1. sftp:// first screen -----------------------------------------------------------------------------
sftp_first_screen() { # rate
  local rate=$1 trace=$work/trace-sftp-$1 before start cached=""
  : > "$trace"
  rm -rf "$work/home/cache"
  before=$(link_bytes); start=$(now)
  ip netns exec lgcli tmux -L "$sock" -f /dev/null new-session -d -s sftp -x "$COLS" -y "$LINES_" \
    "env -u SSH_AUTH_SOCK HOME=$work/home XDG_CACHE_HOME=$work/home/cache XDG_CONFIG_HOME=$work/home/config \
     NETRC=/dev/null LIVEGRID_SSH_CONFIG=$work/ssh_config LIVEGRID_TRACE=$trace TERM=tmux-256color \
     $BIN --graphics symbols sftp://slowlink$library/"
  local deadline=$(( $(date +%s) + TIMEOUT )) screen_bytes=""
  while [ "$(date +%s)" -lt "$deadline" ]; do
    if [ -z "$screen_bytes" ] && grep -q ' first-thumbnails' "$trace"; then
      screen_bytes=$(( $(link_bytes) - before ))
      # What was in the download cache then: whole files by kind (previews from head ranges are preview.jpg).
      cached=$(find "$work/home/cache" -type f ! -name '*.part' -printf '%s %f\n' 2>/dev/null | awk '
        { n = split($2, p, "."); k = ($2 ~ /preview/) ? "preview" : tolower(p[n]); c[k]++; b[k] += $1 }
        END { for (k in c) if (b[k] > 20000) printf "%s %d (%.1f MB) ", k, c[k], b[k] / 1e6 }')
    fi
    grep -q ' grid-complete' "$trace" && break
    tmux -L "$sock" has-session -t sftp 2>/dev/null || { echo "slow-link.sh: livegrid ended early"; break; }
    sleep 0.1
  done
  [ -n "$screen_bytes" ] || screen_bytes=$(( $(link_bytes) - before ))
  local first=$(event "$trace" first-picture "$start") whole=$(event "$trace" first-thumbnails "$start") \
        complete=$(event "$trace" grid-complete "$start") count
  count=$(awk '$2=="screen-pictures" { print $3; exit }' "$trace")
  tmux -L "$sock" kill-session -t sftp 2>/dev/null || true
  [ -n "${KEEP_RECORDINGS:-}" ] && mkdir -p "$KEEP_RECORDINGS" && cp "$trace" "$KEEP_RECORDINGS/sftp-trace-$rate"
  printf 'BENCH sftp first screen %s Mbit/s: first picture %s s, whole first screen (%s pictures) %s s, grid complete %s s; %s crossed the link by the whole screen (target <= 8 s and <= 20 MB at 20 Mbit/s, <= 30 s at 5)\n' \
    "$((rate / 1000000))" "${first:-not in ${TIMEOUT}s}" "${count:-?}" "${whole:-not in ${TIMEOUT}s}" \
    "${complete:-not in ${TIMEOUT}s}" "$(mb "$screen_bytes")"
  echo "BENCH sftp first screen $((rate / 1000000)) Mbit/s: in the download cache by then: ${cached:-nothing}"
}

# --- 2. run on the server over ssh -tt --------------------------------------------------------------------
# The terminal (fake-terminal.py) runs in the client namespace; its recording is what the terminal received.
record() { # out command...   (ssh -tt to the server, the command run there)
  local out=$1; shift
  : > "$out"
  # LANG: ssh -F with our config sends no locale, and in the C locale livegrid (and chafa) draw ASCII symbols;
  # people browse in a UTF-8 locale.
  ip netns exec lgcli env TERM=xterm-256color python3 "$root/Benchmarks/fake-terminal.py" "$out" "$COLS" "$LINES_" \
    ssh -tt -F "$work/ssh_config" slowlink env LANG=C.UTF-8 "$@" < /dev/null
}
server_screen() { # rate
  local rate=$1 mode out trace before start pid last pictures cells
  lg_symbols=0; lg_sixels=0; lg_kitty=0; lg_iterm=0
  for mode in ${MODES:-symbols sixels kitty iterm}; do
    out=$work/server-$mode.bytes; trace=$work/trace-server-$mode; : > "$trace"
    before=$(link_bytes); start=$(now)
    record "$out" env TERM=xterm-256color COLORTERM=truecolor XDG_CACHE_HOME=$work/server-cache-$mode-$rate \
      LIVEGRID_TRACE=$trace "$BIN" --graphics "$mode" "$screen" &
    pid=$!
    for _ in $(seq $((TIMEOUT * 10))); do
      grep -q ' grid-complete' "$trace" && break
      kill -0 "$pid" 2>/dev/null || { echo "slow-link.sh: livegrid on the server ended early"; break; }
      sleep 0.1
    done
    # Everything written has arrived when the recording has been quiet for a second.
    last=-1; while [ "$(stat -c %s "$out")" != "$last" ]; do last=$(stat -c %s "$out"); sleep 1; done
    local bytes=$(stat -c %s "$out") wire=$(( $(link_bytes) - before ))
    local complete=$(event "$trace" grid-complete "$start") count=$(awk '$2=="screen-pictures" { print $3; exit }' "$trace")
    pkill -TERM -P "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
    pictures=$(python3 - "$out" "$mode" <<'PY'
import re, sys
b = open(sys.argv[1], 'rb').read()
pattern = {'symbols': None, 'sixels': rb'\x1bP[0-9;]*q', 'kitty': rb'\x1b_G[^;\x1b]*a=T', 'iterm': rb'\x1b\]1337;File='}[sys.argv[2]]
body = {'symbols': None, 'sixels': rb'\x1bP[0-9;]*q.*?\x1b\\', 'kitty': rb'\x1b_G.*?\x1b\\', 'iterm': rb'\x1b\]1337;.*?\x07'}[sys.argv[2]]
print(("%d (%d bytes in pictures)" % (len(re.findall(pattern, b)), sum(len(m) for m in re.findall(body, b, re.S)))) if pattern else '-')
PY
)
    printf 'BENCH on the server %s Mbit/s %-7s livegrid: %9d bytes to the terminal, %s images for %s pictures, grid complete %s s, %s on the link\n' \
      "$((rate / 1000000))" "$mode" "$bytes" "$pictures" "${count:-?}" "${complete:-?}" "$(mb "$wire")"
    eval "lg_$mode=$bytes"
    [ "$mode" = kitty ] && cp "$out" "$work/kitty-screen.bytes"
    [ -n "${KEEP_RECORDINGS:-}" ] && mkdir -p "$KEEP_RECORDINGS" && cp "$out" "$KEEP_RECORDINGS/$mode-$rate.bytes"
  done
  # The peers: the same photos at the size livegrid's pictures take (kitty's c=/r= of the largest).
  # (A picture gives only the cells it fills, c= or r=, kitty deriving the other: the widest and the tallest.)
  # (CELLS=22x8 sets it, for a run without kitty.)
  cells=${CELLS:-}; [ -n "$cells" ] || cells=$(python3 -c "import re,sys; b=open(sys.argv[1],'rb').read(); print('%dx%d' % (max(map(int, re.findall(rb'[,;]c=(\d+)',b))), max(map(int, re.findall(rb'[,;]r=(\d+)',b)))))" "$work/kitty-screen.bytes" 2>/dev/null || echo 23x9)
  local stills=() f
  for f in "$screen"/*; do case $f in *.mov|*.MOV) ;; *) stills+=("$f");; esac; done
  record "$work/p.bytes" env TERM=xterm-256color COLORTERM=truecolor chafa -f sixel --size "$cells" "${stills[@]}"; chafa_sixel=$(stat -c %s "$work/p.bytes")
  record "$work/p.bytes" env TERM=xterm-256color COLORTERM=truecolor chafa -f kitty --size "$cells" "${stills[@]}"; chafa_kitty=$(stat -c %s "$work/p.bytes")
  record "$work/p.bytes" env TERM=xterm-256color COLORTERM=truecolor chafa -f symbols --size "$cells" "${stills[@]}"; chafa_symbols=$(stat -c %s "$work/p.bytes")
  record "$work/p.bytes" env TERM=xterm-256color COLORTERM=truecolor timg -pk --compress -g"$cells" "${stills[@]}"; timg_kitty=$(stat -c %s "$work/p.bytes")
  record "$work/p.bytes" env TERM=xterm-256color COLORTERM=truecolor timg -pi --compress -g"$cells" "${stills[@]}"; timg_iterm=$(stat -c %s "$work/p.bytes")
  record "$work/p.bytes" env TERM=xterm-256color COLORTERM=truecolor timg -pq -g"$cells" "${stills[@]}"; timg_symbols=$(stat -c %s "$work/p.bytes")
  # The JPEG floor: each photo as a q85 JPEG at the cells' pixels (10x20 px cells), base64 as iTerm2 sends it.
  echo "peers drawn at $cells cells (the largest livegrid picture's c=/r=), one picture after another"
  local w=$(( ${cells%x*} * 10 )) h=$(( ${cells#*x} * 20 )) floor=0 size
  for f in "${stills[@]}"; do
    ffmpeg -v error -y -i "$f" -vf "scale=$w:$h:force_original_aspect_ratio=decrease" -frames:v 1 -q:v 4 "$work/floor.jpg" 2>/dev/null || continue
    size=$(stat -c %s "$work/floor.jpg"); floor=$(( floor + (size + 2) / 3 * 4 ))
  done
  python3 - "$((rate / 1000000))" "$cells" "$lg_symbols" "$lg_sixels" "$lg_kitty" "$lg_iterm" "$chafa_symbols" "$chafa_sixel" \
    "$chafa_kitty" "$timg_symbols" "$timg_kitty" "$timg_iterm" "$floor" <<'PY'
import sys
rate, cells = sys.argv[1], sys.argv[2]
lg_sym, lg_six, lg_kit, lg_it, ch_sym, ch_six, ch_kit, tg_sym, tg_kit, tg_it, floor = map(int, sys.argv[3:])
rows = [("symbols", lg_sym, "timg -pq", tg_sym, 1.0), ("symbols", lg_sym, "chafa symbols", ch_sym, None),
        ("sixels", lg_six, "chafa sixel", ch_six, 1.0), ("kitty", lg_kit, "timg -pk --compress", tg_kit, 1.0),
        ("kitty", lg_kit, "chafa kitty", ch_kit, None), ("iterm", lg_it, "timg -pi --compress", tg_it, None),
        ("iterm", lg_it, "JPEG q85 floor (base64)", floor, 2.0)]
for mode, lg, peer, other, target in rows:
    if lg == 0: continue   # a mode not run (MODES)
    ratio = lg / other if other else float("nan")
    verdict = "" if target is None else ("  target <= %.0fx: %s" % (target, "met" if ratio <= target else "MISSED"))
    print("BENCH on the server %s Mbit/s %-7s livegrid %9d / %-24s %9d = %.2fx%s" % (rate, mode, lg, peer, other, ratio, verdict))
PY
}

# --- 3. playback over the link ----------------------------------------------------------------------------
server_playback() { # rate
  local rate=$1 movie=$work/movie mode out trace times fifo pid label bin before pressed last
  mkdir -p "$movie"; cp "$library/train.jpg" "$library/train.mov" "$movie/"
  local frames=$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$movie/train.mov")
  for entry in ${PLAY_BINARIES:-"this:$BIN"}; do
    label=${entry%%:*}; bin=${entry#*:}
    for mode in symbols kitty sixels; do
      out=$work/play-$mode.bytes; trace=$work/trace-play-$mode; times=$work/times-play-$mode; fifo=$work/play-keys
      : > "$out"; : > "$trace"; : > "$times"; rm -f "$fifo"; mkfifo "$fifo"
      # The audit's sizes: symbols in a 160x48 terminal, pixel modes in 80x24 (10x20 px cells), in the viewer.
      local size="$COLS $LINES_"; [ "$mode" = symbols ] || size="80 24"
      ip netns exec lgcli env TERM=xterm-256color FAKE_TERMINAL_TIMES="$times" python3 "$root/Benchmarks/fake-terminal.py" \
        "$out" $size ssh -tt -F "$work/ssh_config" slowlink env TERM=xterm-256color COLORTERM=truecolor \
        XDG_CACHE_HOME=$work/play-cache-$label-$mode LIVEGRID_TRACE=$trace "$bin" --no-motion --graphics "$mode" "$movie" < "$fifo" &
      pid=$!
      exec 7>"$fifo"
      for _ in $(seq $((TIMEOUT * 10))); do grep -q ' grid-complete' "$trace" && break; sleep 0.1; done
      last=-1; while [ "$(stat -c %s "$out")" != "$last" ]; do last=$(stat -c %s "$out"); sleep 1; done
      printf '\r' >&7   # the viewer: the movie fills the screen
      last=-1; sleep 1; while [ "$(stat -c %s "$out")" != "$last" ]; do last=$(stat -c %s "$out"); sleep 1; done
      before=$(stat -c %s "$out"); pressed=$(now)
      printf '\033[<0;6;5M' >&7; sleep 3; printf '\033[<0;6;5m' >&7
      last=-1; while [ "$(stat -c %s "$out")" != "$last" ]; do last=$(stat -c %s "$out"); sleep 1; done
      printf '\033' >&7; sleep 0.5; printf 'q' >&7; exec 7>&-   # out of the viewer (a pause: Esc q is Alt-q), quit
      wait "$pid" 2>/dev/null || true
      python3 - "$out" "$times" "$trace" "$mode" "$before" "$pressed" "$frames" "$((rate / 1000000))" "$label" <<'PY'
import re, sys
out, times, trace, mode, before, pressed, frames, rate, label = sys.argv[1:]
before, pressed, frames = int(before), float(pressed), int(frames)
b = open(out, 'rb').read()[before:]
# What reached the terminal after the press: each frame is a picture (kitty, sixel) or a paint of symbol cells.
if mode == 'symbols':
    spans = [m for m in re.finditer(rb'\x1b7(.*?)\x1b8', b, re.S) if len(m.group(1)) > 2000]
else:
    spans = list(re.finditer({'kitty': rb'\x1b_G[^;\x1b]*a=T.*?\x1b\\(?:\x1b_Gm=1.*?\x1b\\)*', 'sixels': rb'\x1bP[0-9;]*q.*?\x1b\\'}[mode], b, re.S))
# The key photo drawn back at the end is a picture (or a paint) too: frames are all but the last.
drawn = max(0, len(spans) - 1)
per_frame = sum(len(m.group(0)) for m in spans) / max(1, len(spans))
arrivals = [tuple(map(float, line.split())) for line in open(times)]
end_offset = before + (spans[-2].end() if len(spans) > 1 else 0)   # the last movie frame (the key photo is after it)
reached = next((t for t, total in arrivals if total >= end_offset), None)
log = open(trace).read()
end = re.search(r'playback-end .*?shown (\d+), dropped (\d+)', log)
start = re.search(r'([0-9.]+) playback-start hold', log)
sizing = re.findall(r'playback-sizing ([0-9.]+)', log)
estimate = re.findall(r'link-estimate (\w+)', log)
# Why the player dropped frames: its decode's mean against the frame time, the render's mean at the end's sizing.
cost = re.search(r'decode avg (\d+) ms.*?, render (\d+|-)(?: ms)? at ([0-9.]+) colour bits (\d+)', log)
print("BENCH playback %s Mbit/s %-7s %-6s: %2d of %d frames reached the terminal (%d%% dropped), %7d B/frame, player shown %s dropped %s, last frame %s s after the press (movie 1.23 s)%s%s"
      % (rate, mode, label, min(drawn, frames), frames, round(100 * (frames - min(drawn, frames)) / frames), per_frame,
         end.group(1) if end else '?', end.group(2) if end else '?',
         "%.2f" % (reached - pressed) if reached and len(spans) > 1 else '-',
         (", frames at %s of the area" % sizing[-1]) if sizing else '',
         (", link estimate %s B/s" % estimate[-1]) if estimate else '')
      + ("; decode %s ms, render %s ms a frame at %s of the area, %s colour bits" % cost.groups() if cost else ''))
PY
      [ -n "${KEEP_RECORDINGS:-}" ] && mkdir -p "$KEEP_RECORDINGS" && cp "$out" "$KEEP_RECORDINGS/play-$label-$mode-$rate.bytes" && cp "$trace" "$KEEP_RECORDINGS/play-$label-$mode-$rate.trace"
    done
  done
}

# --- 4. keys while pictures are in flight ---------------------------------------------------------------
# Both ways in one build: LIVEGRID_PICTURE_PACING=0 writes every picture as soon as it is made (as before issue
# 28.4's pacing), the default holds pictures while the link is full. What reached the terminal after the second
# key up to the first label of the screen it moved to is what was queued for the screens left; the time from
# the key to that label is when the key was answered on the terminal.
server_keys() { # rate
  local rate=$1 pacing
  for pacing in ${KEYS_PACING:-0 1}; do server_keys_once "$rate" "$pacing"; done
}
server_keys_once() { # rate pacing
  local rate=$1 pacing=$2 out=$work/keys.bytes trace=$work/trace-keys times=$work/times-keys fifo=$work/keys-fifo pid last k1 k2 offset
  : > "$out"; : > "$trace"; : > "$times"; rm -f "$fifo"; mkfifo "$fifo"; rm -rf "$work/keys-cache-$rate"
  ip netns exec lgcli env TERM=xterm-256color FAKE_TERMINAL_TIMES="$times" python3 "$root/Benchmarks/fake-terminal.py" \
    "$out" "$COLS" "$LINES_" ssh -tt -F "$work/ssh_config" slowlink env TERM=xterm-256color COLORTERM=truecolor \
    XDG_CACHE_HOME=$work/keys-cache-$rate LIVEGRID_TRACE=$trace LIVEGRID_PICTURE_PACING=$pacing \
    "$BIN" --no-motion --graphics sixels "$library" < "$fifo" &
  pid=$!
  exec 7>"$fifo"
  for _ in $(seq $((TIMEOUT * 10))); do grep -q ' first-picture' "$trace" && break; sleep 0.05; done
  # KEYS_AFTER_PICTURES: wait for that many pictures on the terminal first (default: the first one).
  for _ in $(seq $((TIMEOUT * 10))); do
    [ "$(grep -aoE $'\x1bP[0-9;]*q' "$out" 2>/dev/null | wc -l)" -ge "${KEYS_AFTER_PICTURES:-1}" ] && break; sleep 0.05
  done
  k1=$(now); printf '\033[6~' >&7; sleep 0.3; k2=$(now); offset=$(stat -c %s "$out"); printf '\033[6~' >&7
  last=-1; while [ "$(stat -c %s "$out")" != "$last" ]; do last=$(stat -c %s "$out"); sleep 2; done
  printf 'q' >&7; exec 7>&-
  wait "$pid" 2>/dev/null || true
  ls "$library" > "$work/keys-names"
  python3 - "$out" "$trace" "$k1" "$k2" "$offset" "$((rate / 1000000))" "$times" "$work/keys-names" "$pacing" <<'PY'
import bisect, re, sys
out, trace, k1, k2, offset, rate, times, names, pacing = sys.argv[1:]
k1, k2, offset = float(k1), float(k2), int(offset)
wakes = [float(t) for t, what in re.findall(r'([0-9.]+) loop-wake (\S+)', open(trace).read()) if 'input' in what]
read = lambda k: next(("%d ms" % round(1000 * (t - k)) for t in wakes if t >= k), "never")
data = open(out, 'rb').read()
after = data[offset:]
images = len(re.findall(rb'\x1bP[0-9;]*q', after))
# When each byte reached the terminal: (time, bytes received by then) after each read.
arrivals = [(float(t), int(n)) for t, n in (line.split() for line in open(times))]
ends = [n for _, n in arrivals]
arrived = lambda position: arrivals[min(len(arrivals) - 1, bisect.bisect_right(ends, position))][0]
# The screen moved to: the first label (a file name's first 8 characters) after the second key that the
# terminal had not been shown before it.
stems = {name[:8].encode() for name in open(names).read().split()}
seen = {stem for stem in stems if stem in data[:offset]}
new = min((at for at in (data.find(stem, offset) for stem in stems - seen) if at >= 0), default=None)
label = "%s" % pacing
if new is None:
    queued = "the new screen's labels never came"
else:
    left = data[offset:new]
    queued = "%d bytes (%d sixel images) for the screens left before the new screen's first label, which reached the terminal %d ms after the key" % (
        len(left), len(re.findall(rb'\x1bP[0-9;]*q', left)), round(1000 * (arrived(new) - k2)))
print("BENCH keys %s Mbit/s sixels pacing=%s: Page Down read %s and %s after typed (target <= 200 ms); after the second key the terminal got %d bytes, %d sixel images; %s"
      % (rate, pacing, read(k1), read(k2), len(after), images, queued))
PY
}

for rate in $RATES; do
  buffer=$(( rate / 80 ))   # 100 ms of the rate, as the audit's 250 KB at 20 Mbit/s
  "$root/Benchmarks/slow-link/shape.sh" "$rate" 0.025 "$buffer"
  echo "== link: $((rate / 1000000)) Mbit/s, 50 ms RTT, $buffer B buffer"
  case " $PARTS " in *" sftp "*) sftp_first_screen "$rate" ;; esac
  case " $PARTS " in *" server "*) server_screen "$rate" ;; esac
  case " $PARTS " in *" play "*) server_playback "$rate" ;; esac
  case " $PARTS " in *" keys "*) server_keys "$rate" ;; esac
done
