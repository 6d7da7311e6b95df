# SPDX-License-Identifier: Apache-2.0
# What `cmake --install` puts where, and the .deb CPack makes of it (`cpack -G DEB` in the build folder;
# docs/install.md). Two packages: `preflight` (the binary, man pages, completions, rules, examples) and, when
# Qt was found, `preflight-viewer`, so a GPU node's package does not pull in Qt.
include(GNUInstallDirs)

# --- generated at build time from the binary itself (cmake/PfGenerateDocs.cmake) ------------------------------
find_program(PF_HELP2MAN help2man)
find_program(PF_GZIP gzip REQUIRED)
if(NOT PF_HELP2MAN)
  pf_not_built("man pages" "help2man not found: apt-get install help2man")
endif()
set(PF_GENERATED_SHARE ${PROJECT_BINARY_DIR}/generated-share)
set(viewer "")
if(TARGET preflight-viewer)
  set(viewer $<TARGET_FILE:preflight-viewer>)
endif()
add_custom_command(OUTPUT ${PF_GENERATED_SHARE}/stamp
  COMMAND ${CMAKE_COMMAND} -DPF_BIN=$<TARGET_FILE:preflight> -DPF_VIEWER=${viewer} -DPF_OUT=${PF_GENERATED_SHARE}/files
          -DPF_VERSION=${PROJECT_VERSION} -DPF_HELP2MAN=${PF_HELP2MAN} -DPF_GZIP=${PF_GZIP}
          -P ${PROJECT_SOURCE_DIR}/cmake/PfGenerateDocs.cmake
  COMMAND ${CMAKE_COMMAND} -E touch ${PF_GENERATED_SHARE}/stamp
  DEPENDS preflight $<TARGET_NAME_IF_EXISTS:preflight-viewer> ${PROJECT_SOURCE_DIR}/cmake/PfGenerateDocs.cmake
  COMMENT "Generating man pages and shell completion from preflight's command definitions" VERBATIM)
add_custom_target(pf_generated_docs ALL DEPENDS ${PF_GENERATED_SHARE}/stamp)

# --- install rules ---------------------------------------------------------------------------------------------
set(docdir ${CMAKE_INSTALL_DATADIR}/doc/preflight)
install(TARGETS preflight RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
install(DIRECTORY ${PF_GENERATED_SHARE}/files/bash-completion ${PF_GENERATED_SHARE}/files/zsh
        DESTINATION ${CMAKE_INSTALL_DATADIR} COMPONENT cli)
if(PF_HELP2MAN)
  install(DIRECTORY ${PF_GENERATED_SHARE}/files/man/ DESTINATION ${CMAKE_INSTALL_MANDIR} COMPONENT cli)
endif()
# The doctor's rules are embedded in the binary; the files are installed too, as a starting point for
# `preflight doctor --rules DIR` (docs/doctor-rules.md).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/doctor/rules/ DESTINATION ${CMAKE_INSTALL_DATADIR}/preflight/rules
        COMPONENT cli FILES_MATCHING PATTERN "*.json")
# Examples are copied and edited, not run in place: under share/doc, not executable (Debian's policy).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION ${docdir}/examples COMPONENT cli
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
if(TARGET preflight-viewer)
  install(TARGETS preflight-viewer RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT viewer)
  if(PF_HELP2MAN)
    install(DIRECTORY ${PF_GENERATED_SHARE}/files/viewer-man/ DESTINATION ${CMAKE_INSTALL_MANDIR} COMPONENT viewer)
  endif()
endif()

# Every Debian package carries its copyright and changelog in /usr/share/doc/<package>/ (lintian errors without).
string(TIMESTAMP PF_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)  # SOURCE_DATE_EPOCH, when set, wins
set(PF_MAINTAINER "The Preflight authors <dev@preflight.invalid>")
configure_file(${PROJECT_SOURCE_DIR}/cmake/debian/changelog.in ${PROJECT_BINARY_DIR}/debian/changelog @ONLY)
execute_process(COMMAND ${PF_GZIP} -9nf ${PROJECT_BINARY_DIR}/debian/changelog)
set(pf_components cli)
if(TARGET preflight-viewer)
  list(APPEND pf_components viewer)
endif()
foreach(component ${pf_components})
  set(package preflight)
  if(component STREQUAL "viewer")
    set(package preflight-viewer)
  endif()
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/debian/copyright ${PROJECT_BINARY_DIR}/debian/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
endforeach()

# --- CPack: the .deb -------------------------------------------------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME preflight)
set(CPACK_PACKAGE_VENDOR "The Preflight authors")
set(CPACK_PACKAGE_CONTACT "${PF_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL ${pf_components})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends from the libraries the binaries link (dpkg-shlibdeps). CUDA, cuBLAS and NCCL from /usr/local/cuda
# belong to no Debian package, so they are not dependencies; docs/install.md says what that means on a node.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_CLI_PACKAGE_NAME preflight)
# The extended description's lines: CPack indents each by one space, as the control file wants.
set(CPACK_DEBIAN_CLI_DESCRIPTION "diagnostics and benchmarks for distributed GPU training clusters
preflight checks an allocation before training: probes, a quick all-reduce,
the node-pair matrix and a verdict naming the bad node. It also measures
collectives as nccl-tests does, benchmarks data-parallel scaling and
diagnoses NCCL failures from their logs.")
set(pf_cli_depends "")
if(PF_HAVE_MPI)
  # `--local-ranks N` and multi-rank runs start through mpirun, which no library dependency brings in.
  list(APPEND pf_cli_depends openmpi-bin)
endif()
if(PF_HAVE_OPENBLAS)
  # Opened at run time by `preflight scale`'s CPU trainer (scaling/blas_loader.hpp), so dpkg-shlibdeps does not see it.
  list(APPEND pf_cli_depends libopenblas0)
endif()
list(JOIN pf_cli_depends ", " CPACK_DEBIAN_CLI_PACKAGE_DEPENDS)
if(PF_HAVE_LIBFABRIC)
  # Opened at run time by the efa probe (not linked, so dpkg-shlibdeps does not see it); without it the probe
  # says libfabric is not loadable.
  set(CPACK_DEBIAN_CLI_PACKAGE_RECOMMENDS libfabric1)
endif()
set(CPACK_DEBIAN_VIEWER_PACKAGE_NAME preflight-viewer)
set(CPACK_DEBIAN_VIEWER_PACKAGE_SECTION science)
set(CPACK_DEBIAN_VIEWER_DESCRIPTION "desktop viewer for preflight result documents
preflight-viewer draws the result documents of preflight: scaling, collective
sweeps, the node-pair matrix and check findings, with PNG and SVG export.")
include(CPack)
