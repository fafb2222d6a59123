#!/usr/bin/env bash
# Screenshots of livegrid in real terminal emulators under a virtual X server (Xvfb): xterm as a VT340
# (sixel graphics) in pixel mode and in symbols mode, xterm running tmux (sixels through passthrough, and
# passthrough off), and kitty (kitty graphics) when it starts.
# Keys are typed with xdotool; each screen is grabbed with ImageMagick's `import`.
#
#   scripts/screenshots.sh [OUT_DIR] [LIVEGRID_BINARY]      (needs: make screenshots-deps)
#   SCREENSHOTS_ONLY="tmux" scripts/screenshots.sh ...      (only some of: xterm tmux kitty)
#
# The info-panel shot selects keyPhoto.jpg, a photo without GPS tags (the panel never shows GPS anyway).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/screenshots}"
bin="${2:-}"
if [ -z "$bin" ]; then
  for candidate in "$root/.build/release/livegrid" "$root/.build/debug/livegrid"; do
    [ -x "$candidate" ] && { bin="$candidate"; break; }
  done
fi
[ -x "$bin" ] || { echo "screenshots: build livegrid first (swift build)" >&2; exit 1; }
for tool in Xvfb xterm xdotool import convert; do
  command -v "$tool" >/dev/null || { echo "screenshots: $tool is missing (make screenshots-deps)" >&2; exit 1; }
done
mkdir -p "$out"
work="$(mktemp -d)"
library="$work/library"
"$root/scripts/make-demo-library.sh" "$library" >/dev/null

# A free display number: no socket and no lock file.
display=""
for n in $(seq 90 130); do
  if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || { echo "screenshots: no free X display" >&2; exit 1; }
Xvfb "$display" -screen 0 1600x1000x24 +extension GLX -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
terminal_pid=""
tmux_socket="livegrid-shots-$$"
cleanup() {
  tmux -L "$tmux_socket" kill-server 2>/dev/null || true
  [ -n "$terminal_pid" ] && kill "$terminal_pid" 2>/dev/null || true
  kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export DISPLAY="$display"
for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done

# Waits for the terminal's window, focuses it (no window manager: the pointer decides focus).
window=""
wait_window() {
  local class="$1"
  window=""
  for _ in $(seq 100); do
    window="$(xdotool search --onlyvisible --class "$class" 2>/dev/null | head -1 || true)"
    [ -n "$window" ] && break
    sleep 0.1
  done
  [ -n "$window" ] || { echo "screenshots: no $class window" >&2; return 1; }
  xdotool mousemove --window "$window" 20 20
}

keys() { xdotool key --delay 120 "$@"; }

# Whether a group of shots is wanted (SCREENSHOTS_ONLY unset: all of them).
want() { [ -z "${SCREENSHOTS_ONLY:-}" ] || [[ " $SCREENSHOTS_ONLY " == *" $1 "* ]]; }

# Grabs the terminal's window; downscales when the PNG would pass ~500 KB.
shot() {
  local name="$1"
  sleep "${2:-2}"
  import -window "$window" "$out/$name.png"
  while [ "$(stat -c %s "$out/$name.png")" -gt 500000 ]; do
    convert "$out/$name.png" -resize 75% -define png:compression-level=9 "$out/$name.png"
  done
  echo "screenshots: $out/$name.png ($(stat -c %s "$out/$name.png") bytes)"
}

# One session: grid, grid + info, viewer, viewer + info, and the grid after closing the viewer.
session() {
  local prefix="$1"
  shot "$prefix-grid" 7
  keys l l l                     # keyPhoto.jpg (no GPS), a Live Photo
  keys i
  shot "$prefix-grid-info"
  keys i Return
  shot "$prefix-viewer" 3
  keys i
  shot "$prefix-viewer-info"
  keys i Escape
  shot "$prefix-grid-after-viewer"
  keys question
  shot "$prefix-help" 1
  keys Escape q
  sleep 1
}

xterm_run() {
  # -ti vt340 makes xterm report sixel graphics (DA1 attribute 4); 256 colour registers for photos.
  # xterm_geometry / xterm_graphics_size: a bigger window (xterm shows no sixel above 1000x1000 px unless
  # maxGraphicSize says otherwise).
  xterm -ti vt340 -xrm 'XTerm*decTerminalID: vt340' -xrm 'XTerm*numColorRegisters: 256' \
        -xrm "XTerm*maxGraphicSize: ${xterm_graphics_size:-1000x1000}" \
        -xrm 'XTerm*allowWindowOps: true' -fa Monospace -fs 10 -geometry "${xterm_geometry:-120x40+0+0}" \
        -e env "$@" &
  terminal_pid=$!
  wait_window xterm
}

stop_terminal() {
  [ -n "$terminal_pid" ] || return 0
  kill "$terminal_pid" 2>/dev/null || true
  for _ in $(seq 30); do kill -0 "$terminal_pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$terminal_pid" 2>/dev/null || true
  terminal_pid=""
}

xterm -v | grep -q . || true
if want xterm; then
xterm_run TERM=xterm-256color "$bin" --graphics auto "$library"
session xterm-sixel
stop_terminal

xterm_run TERM=xterm-256color COLORTERM=truecolor "$bin" --graphics symbols "$library"
session xterm-symbols
stop_terminal
fi

# xterm (sixel) running tmux 3.3+ on a private socket: pictures through passthrough, placed at the pane's
# absolute position, and drawn again after tmux redraws the window; then passthrough off (symbols + the fix).
if want tmux && command -v tmux >/dev/null; then
  t() { tmux -L "$tmux_socket" "$@"; }
  printf 'set -g allow-passthrough on\nset -g status-style bg=colour238,fg=colour250\n' > "$work/tmux.conf"
  # livegrid asks tmux about its client when it starts: start it from the shell once the xterm is attached.
  run_in_tmux() {
    t -f "$work/tmux.conf" new-session -d -s shots -x 120 -y 40 "PS1='$ ' bash --norc --noprofile -i"
    xterm_run -u TMUX TERM=xterm-256color tmux -L "$tmux_socket" attach -t shots
    echo "screenshots: xterm ${xterm_geometry:-120x40+0+0}, maxGraphicSize ${xterm_graphics_size:-1000x1000}" >&2
    for _ in $(seq 50); do [ "$(t display -p -t shots '#{session_attached}')" = 1 ] && break; sleep 0.1; done
    t send-keys -t shots "clear; XDG_CACHE_HOME='$work/cache' '$bin' '$library'" Enter
  }
  run_in_tmux
  shot tmux-sixel-grid 9
  keys l l l Return
  shot tmux-sixel-viewer 8
  keys Escape
  sleep 3
  t new-window -t shots "sleep 600"
  sleep 1
  t select-window -t shots:0
  shot tmux-sixel-grid-after-window-switch 3
  # A shell pane on the left: livegrid's pane moves right and shrinks, its pictures follow.
  t split-window -h -b -l 40 -t shots:0 "sleep 600"
  shot tmux-sixel-split-pane 5
  t kill-server
  stop_terminal

  # A viewer picture above tmux's 1 MiB passthrough limit (1570x880 px): sent as stacked sixel pieces.
  xterm_geometry=159x48+0+0 xterm_graphics_size=2000x2000 run_in_tmux
  sleep 7
  keys l l l l l l l l Return     # samsung-still.jpeg, a busy landscape
  shot tmux-sixel-viewer-over-1MiB 20
  t kill-server
  stop_terminal

  printf 'set -g allow-passthrough off\nset -g status-style bg=colour238,fg=colour250\n' > "$work/tmux.conf"
  run_in_tmux
  shot tmux-passthrough-off 7
  t kill-server
  stop_terminal

  # kitty running tmux: kitty graphics through passthrough (detected by the kitty query), and what kitty's
  # image layer does on a window switch (tmux forwards nothing for a hidden pane: the images stay until
  # livegrid's window shows again).
  if command -v kitty >/dev/null; then
    printf 'set -g allow-passthrough on\nset -g status-style bg=colour238,fg=colour250\n' > "$work/tmux.conf"
    t -f "$work/tmux.conf" new-session -d -s shots -x 120 -y 40 "PS1='$ ' bash --norc --noprofile -i"
    LIBGL_ALWAYS_SOFTWARE=1 kitty --config NONE -o font_size=10 -o initial_window_width=120c \
      -o initial_window_height=40c -o remember_window_size=no \
      env -u TMUX TERM=xterm-kitty tmux -L "$tmux_socket" attach -t shots >"$work/kitty-tmux.log" 2>&1 &
    terminal_pid=$!
    if wait_window kitty 2>/dev/null; then
      for _ in $(seq 100); do [ "$(t display -p -t shots '#{session_attached}')" = 1 ] && break; sleep 0.1; done
      t send-keys -t shots "clear; XDG_CACHE_HOME='$work/cache' '$bin' '$library'" Enter
      shot tmux-kitty-grid 12
      t new-window -t shots "sleep 600"
      shot tmux-kitty-other-window 3
      t select-window -t shots:0
      shot tmux-kitty-grid-after-window-switch 3
    fi
    t kill-server
    stop_terminal
  fi
fi

# kitty needs OpenGL 3.3: Mesa's software rasteriser (llvmpipe) under Xvfb's GLX.
if want kitty && command -v kitty >/dev/null; then
  LIBGL_ALWAYS_SOFTWARE=1 kitty --config NONE -o font_size=10 -o initial_window_width=120c \
    -o initial_window_height=40c -o remember_window_size=no \
    env TERM=xterm-kitty "$bin" "$library" >"$work/kitty.log" 2>&1 &
  terminal_pid=$!
  if wait_window kitty 2>/dev/null && kill -0 "$terminal_pid" 2>/dev/null; then
    # Software OpenGL is slow: longer waits, and no info shots (the first item's photo has GPS tags).
    shot kitty-grid 12
    keys Return
    shot kitty-viewer 8
    keys Escape
    shot kitty-grid-after-viewer 3
    keys q
  else
    echo "screenshots: kitty did not start under Xvfb: $(tail -3 "$work/kitty.log" | tr '\n' ' ')" >&2
  fi
  stop_terminal
fi
