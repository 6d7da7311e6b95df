# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# Drives the generated zsh completion in a real interactive zsh on a pseudo-terminal (zsh/zpty): types a line,
# presses Tab, and prints what the line became. Usage: zsh -f zsh_completion.zsh FPATH_DIR 'LINE' ...
zmodload zsh/zpty
setopt extendedglob
dir=$1; shift
zpty z 'zsh -f -i'
zpty -w z "PS1='> '; fpath=($dir \$fpath); autoload -U compinit; compinit -u -D; unsetopt beep"
sleep 1; zpty -r -t z out
for line in "$@"; do
  zpty -w -n z "$line"$'\t'
  sleep 3  # compinit and the completion itself, on a loaded machine too
  zpty -r -t z out
  # The terminal echo, without colour codes, carriage returns and the echo's backspaces.
  out=${out//$'\e'\[[0-9;?]#[a-zA-Z]/}
  out=${out//$'\r'/}
  print -r -- "${${out//?$'\b'/}##*> }"
  zpty -w -n z $'\C-u'; sleep 0.5; zpty -r -t z out
done
zpty -d z
