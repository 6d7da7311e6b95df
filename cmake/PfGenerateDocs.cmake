# SPDX-License-Identifier: Apache-2.0
# Script mode (-P), run by the build after `preflight` links (cmake/PfPackage.cmake): asks the binary itself for
# what the package installs beside it, so nothing here lists a command or an option by hand.
#   - share/bash-completion/completions/preflight and share/zsh/vendor-completions/_preflight: the hidden
#     `preflight completion bash|zsh`, which walks the CLI11 definitions (cli/completion.cpp);
#   - share/man/man1/preflight.1.gz and preflight-<command>.1.gz: help2man over `preflight --help` and each
#     `preflight <command> --help`; the command list is read from the top-level help. Skipped without help2man.
#   - viewer-man/man1/preflight-viewer.1.gz when PF_VIEWER names the viewer (it goes in its own package).
# Inputs: PF_BIN, PF_VIEWER (empty: not built), PF_OUT (a folder), PF_VERSION, PF_HELP2MAN (empty: no man pages),
# PF_GZIP.

function(pf_run out)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "${cmd} failed (${rc}): ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${PF_OUT})
pf_run(bash ${PF_BIN} completion bash)
file(WRITE ${PF_OUT}/bash-completion/completions/preflight "${bash}")
pf_run(zsh ${PF_BIN} completion zsh)
file(WRITE ${PF_OUT}/zsh/vendor-completions/_preflight "${zsh}")

if(NOT PF_HELP2MAN)
  return()
endif()
# The commands and their one-line summaries, from the "Subcommands:" block of `preflight --help`.
pf_run(help ${PF_BIN} --help)
string(REGEX REPLACE ".*\nSubcommands:\n" "" block "${help}")
string(REGEX REPLACE "\n\n.*" "" block "${block}")
string(REPLACE "\n" ";" lines "${block}")
set(pages "preflight|diagnostics and benchmarks for distributed GPU training clusters")
foreach(line ${lines})
  if(line MATCHES "^  ([a-z][a-z0-9_-]*) +(.*)$")
    list(APPEND pages "${CMAKE_MATCH_1}|${CMAKE_MATCH_2}")
  endif()
endforeach()
list(LENGTH pages n)
if(n LESS 2)
  message(FATAL_ERROR "no commands found in `${PF_BIN} --help`")
endif()

file(MAKE_DIRECTORY ${PF_OUT}/man/man1)
foreach(page ${pages})
  string(REPLACE "|" ";" parts "${page}")
  list(GET parts 0 cmd)
  list(GET parts 1 summary)
  if(cmd STREQUAL "preflight")
    set(program ${PF_BIN})
    set(name preflight)
  else()
    set(program "${PF_BIN} ${cmd}")
    set(name preflight-${cmd})
  endif()
  pf_run(roff ${PF_HELP2MAN} --no-info --version-string=${PF_VERSION} --name=${summary}
         --manual=Preflight --source=Preflight ${program})
  # help2man names the page after the program's first word; a command's page is preflight-<command>(1), as git
  # names git-commit(1), so `man preflight-check` finds it.
  if(NOT cmd STREQUAL "preflight")
    string(TOUPPER "${cmd}" upper)
    string(REPLACE ".TH PREFLIGHT \"1\"" ".TH PREFLIGHT-${upper} \"1\"" roff "${roff}")
    string(REPLACE "\npreflight ${cmd} \\- " "\npreflight-${cmd} \\- " roff "${roff}")
  endif()
  # help2man fills the EXAMPLES section as one paragraph; one command per line is what a reader copies from.
  string(FIND "${roff}" ".SH EXAMPLES\n.IP\n" at)
  if(at GREATER -1)
    string(SUBSTRING "${roff}" 0 ${at} head)
    string(SUBSTRING "${roff}" ${at} -1 tail)
    string(REPLACE ".SH EXAMPLES\n.IP\n" ".SH EXAMPLES\n.nf\n" tail "${tail}")
    string(FIND "${tail}" "\n.SH " next)
    if(next GREATER -1)
      string(SUBSTRING "${tail}" 0 ${next} examples)
      string(SUBSTRING "${tail}" ${next} -1 rest)
      set(tail "${examples}\n.fi${rest}")
    else()
      set(tail "${tail}.fi\n")
    endif()
    set(roff "${head}${tail}")
  endif()
  file(WRITE ${PF_OUT}/man/man1/${name}.1 "${roff}")
  # Debian's policy: man pages compressed with gzip -9n (no name or time stamp, so the build is reproducible).
  pf_run(ignored ${PF_GZIP} -9nf ${PF_OUT}/man/man1/${name}.1)
endforeach()

if(PF_VIEWER)
  # Qt's offscreen platform: the viewer's --help needs no display.
  pf_run(roff ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PF_HELP2MAN} --no-info --version-string=${PF_VERSION}
         "--name=desktop viewer for preflight result documents" --manual=Preflight --source=Preflight ${PF_VIEWER})
  file(WRITE ${PF_OUT}/viewer-man/man1/preflight-viewer.1 "${roff}")
  pf_run(ignored ${PF_GZIP} -9nf ${PF_OUT}/viewer-man/man1/preflight-viewer.1)
endif()
