#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# The completion scripts the build generated from the CLI11 definitions (cmake/PfGenerateDocs.cmake) complete
# what the binary accepts: bash is driven through its completion function as bash itself would call it; zsh
# (where installed) through Tab pressed in an interactive zsh on a pseudo-terminal.
# Environment: PF_BIN, PF_SHARE (the generated files).
set -u
fail() { echo "FAIL: $*"; exit 1; }
bashfile=$PF_SHARE/bash-completion/completions/preflight
zshfile=$PF_SHARE/zsh/vendor-completions/_preflight
[[ -s $bashfile && -s $zshfile ]] || fail "generated completion files missing under $PF_SHARE"
# The installed files are what the binary prints now: nothing stale.
diff <("$PF_BIN" completion bash) "$bashfile" >/dev/null || fail "$bashfile differs from 'preflight completion bash'"
bash -n "$bashfile" || fail "$bashfile: bash syntax"

# complete LINE: what bash would offer for LINE (the cursor at its end; a trailing space starts a new word).
complete_line() {
  bash -c '
    source "$1"; read -r -a COMP_WORDS <<<"$2"
    [[ $2 == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _preflight; printf "%s\n" "${COMPREPLY[@]}"' _ "$bashfile" "$1"
}
expect() {  # expect LINE WORD...: every WORD is offered for LINE
  local line=$1 got; shift
  got=$(complete_line "$line")
  for w in "$@"; do grep -qx -- "$w" <<<"$got" || fail "'$line<TAB>' does not offer $w (got: $(echo $got))"; done
}
expect "preflight " check doctor sweep report
expect "preflight ch" check
expect "preflight --" --help --version --log-level
expect "preflight --log-level " debug info warn error
expect "preflight check --lo" --local-ranks
expect "preflight sweep -" -b --minbytes --backend
expect "preflight doctor --" --rules
# Every option of every command the binary lists is offered after `preflight <command> -`.
for cmd in $("$PF_BIN" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z_-]*\) .*/\1/p'); do
  mapfile -t opts < <("$PF_BIN" "$cmd" --help | grep -oE '^  (-[A-Za-z],)?--[a-z][a-z0-9_-]*' | sed 's/.*--/--/')
  ((${#opts[@]} > 0)) || fail "no options parsed from 'preflight $cmd --help'"
  expect "preflight $cmd -" "${opts[@]}"
done
# The hidden command itself is not offered.
complete_line "preflight " | grep -qx completion && fail "the hidden 'completion' command is offered"

if command -v zsh >/dev/null; then
  zsh -n "$zshfile" || fail "$zshfile: zsh syntax"
  head -1 "$zshfile" | grep -qx '#compdef preflight' || fail "$zshfile: no #compdef line"
  # Tab pressed in a real interactive zsh (zsh_completion.zsh): each line must become what follows it.
  got=$(timeout 90 zsh -f "$(dirname "$0")/zsh_completion.zsh" "$(dirname "$zshfile")" \
    'preflight ch' 'preflight --log-level d' 'preflight check --loc' 'preflight sweep --back')
  want=$'preflight check \npreflight --log-level debug \npreflight check --local-ranks=\npreflight sweep --backend='
  [[ $got == "$want" ]] || fail "zsh completed: [$got], expected: [$want]"
else
  echo "note: zsh not installed, $zshfile not checked"
fi
echo "PASS"
