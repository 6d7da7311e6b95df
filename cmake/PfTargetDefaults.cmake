# SPDX-License-Identifier: Apache-2.0
# Per-target compiler settings instead of directory-wide globals (model: fmt's CMakeLists.txt, which gives
# every target `target_compile_features(fmt PUBLIC cxx_std_11)` and its warnings, and has an FMT_WERROR).
# Warnings are wrapped in $<COMPILE_LANGUAGE:CXX> so they never reach nvcc, whose host-compiler flags differ.
option(PF_WERROR "Treat C++ compiler warnings as errors (CI configures with -DPF_WERROR=ON)" OFF)
set(PF_CXX_WARNINGS -Wall -Wextra)
# PF_SANITIZE=address,undefined (ci/sanitize.sh): every C++ target compiled and linked with those sanitizers,
# UBSan's findings fatal, so any report fails the test that ran into it.
set(PF_SANITIZE "" CACHE STRING "Sanitizers for every C++ target, as -fsanitize= takes them (empty: none)")

# pf_target_defaults(TARGET): C++20 without GNU extensions, the project's warnings, and -Werror under PF_WERROR.
# Libraries require C++20 PUBLIC (their headers need it); executables PRIVATE. Targets that compile nothing
# (INTERFACE, imported, custom) are left alone.
function(pf_target_defaults target)
  get_target_property(type ${target} TYPE)
  get_target_property(imported ${target} IMPORTED)
  if(imported OR NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
    return()
  endif()
  set(scope PUBLIC)
  if(type STREQUAL "EXECUTABLE")
    set(scope PRIVATE)
  endif()
  target_compile_features(${target} ${scope} cxx_std_20)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  set(flags ${PF_CXX_WARNINGS})
  if(PF_WERROR)
    list(APPEND flags -Werror)
  endif()
  if(PF_SANITIZE)
    list(APPEND flags -fsanitize=${PF_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
    # GCC's flow analysis sees the instrumented code and warns of uninitialised std::function members inside
    # libstdc++'s <regex> that are initialised (seen with GCC 12 here); the normal build keeps the warning.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      list(APPEND flags -Wno-maybe-uninitialized)
    endif()
    target_link_options(${target} PRIVATE -fsanitize=${PF_SANITIZE})
  endif()
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${flags}>")
endfunction()

# pf_apply_target_defaults(DIR): pf_target_defaults on every target defined in DIR and the directories below
# it. Called once at the end of the top-level CMakeLists.txt, so a new library, test, benchmark or tool gets
# the defaults without remembering to ask for them.
function(pf_apply_target_defaults dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target ${targets})
    pf_target_defaults(${target})
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir ${subdirs})
    pf_apply_target_defaults(${subdir})
  endforeach()
endfunction()
