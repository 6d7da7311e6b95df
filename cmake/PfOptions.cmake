# SPDX-License-Identifier: Apache-2.0
# pf_option(NAME DOC): a tri-state PF_WITH_<NAME> cache variable (AUTO/ON/OFF).
# The result of the search lands in PF_HAVE_<NAME>; pf_print_summary() lists every component at the end of
# configure so a build that silently lost its GPU backend is visible in the log.
set(PF_OPTIONAL_COMPONENTS "" CACHE INTERNAL "")

function(pf_option name doc)
  set(PF_WITH_${name} AUTO CACHE STRING "${doc} (AUTO/ON/OFF)")
  set_property(CACHE PF_WITH_${name} PROPERTY STRINGS AUTO ON OFF)
  set(list ${PF_OPTIONAL_COMPONENTS})
  list(APPEND list ${name})
  set(PF_OPTIONAL_COMPONENTS ${list} CACHE INTERNAL "")
  set(PF_DOC_${name} "${doc}" CACHE INTERNAL "")
endfunction()

# pf_resolve(NAME FOUND HINT): turn a search result into PF_HAVE_<NAME>, failing when ON was asked for.
macro(pf_resolve name found hint)
  if(PF_WITH_${name} STREQUAL "OFF")
    set(PF_HAVE_${name} OFF)
  elseif(${found})
    set(PF_HAVE_${name} ON)
  elseif(PF_WITH_${name} STREQUAL "ON")
    message(FATAL_ERROR "PF_WITH_${name}=ON but ${name} was not found. ${hint} "
                        "Or configure with -DPF_WITH_${name}=OFF to build without it.")
  else()
    set(PF_HAVE_${name} OFF)
  endif()
endmacro()

# pf_not_built(WHAT WHY): record that a command or tool is left out of this build and why, so the summary says
# so instead of the command silently vanishing.
function(pf_not_built what why)
  set_property(GLOBAL APPEND PROPERTY PF_NOT_BUILT "${what}: not built (${why})")
endfunction()

# pf_component_state(NAME OUT): "yes" or "no", as the summary, `preflight --version` and its test print it.
function(pf_component_state name out)
  if(PF_HAVE_${name})
    set(${out} yes PARENT_SCOPE)
  else()
    set(${out} no PARENT_SCOPE)
  endif()
endfunction()

function(pf_print_summary)
  message(STATUS "")
  message(STATUS "Preflight ${PROJECT_VERSION} optional components:")
  foreach(name ${PF_OPTIONAL_COMPONENTS})
    pf_component_state(${name} state)
    string(APPEND state "   ")
    string(SUBSTRING "${state}" 0 3 state)
    message(STATUS "  ${name}\t${state}  (PF_WITH_${name}=${PF_WITH_${name}}) ${PF_DOC_${name}}")
  endforeach()
  message(STATUS "  warnings as errors: ${PF_WERROR} (PF_WERROR)")
  get_property(not_built GLOBAL PROPERTY PF_NOT_BUILT)
  foreach(line ${not_built})
    message(STATUS "  ${line}")
  endforeach()
  message(STATUS "")
endfunction()
