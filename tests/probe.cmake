# SPDX-License-Identifier: MIT
# The probe's end-to-end tests. probe.quick_run runs `llmsizer-probe --quick` into a fresh folder and
# probe.quick_output_valid runs the measured-data tests ([measured]) on what it wrote.
# browser.webgpu_probe runs web/probe-webgpu.js in headless Chromium (SwiftShader) and validates its
# file the same way; it is skipped (exit 77) without node_modules/playwright-core or Chromium.
# The probe directory is added after tests/, so test for the option, not the target.
if(LLMSIZER_BUILD_PROBE AND EXISTS "${PROJECT_SOURCE_DIR}/probe/CMakeLists.txt")
  set(_probe_out "${CMAKE_BINARY_DIR}/test-output/probe")
  add_test(NAME probe.clean_output COMMAND "${CMAKE_COMMAND}" -E rm -rf "${_probe_out}")
  add_test(NAME probe.quick_run
           COMMAND llmsizer-probe --quick --output "${_probe_out}/probe-ci.json")
  add_test(NAME probe.quick_output_valid COMMAND llmsizer_tests "[measured]")
  set_tests_properties(probe.clean_output PROPERTIES FIXTURES_SETUP probe_clean LABELS probe)
  set_tests_properties(probe.quick_run PROPERTIES
    FIXTURES_REQUIRED probe_clean FIXTURES_SETUP probe_output LABELS probe TIMEOUT 120)
  set_tests_properties(probe.quick_output_valid PROPERTIES
    FIXTURES_REQUIRED probe_output LABELS probe
    ENVIRONMENT "LLMSIZER_MEASURED_DIR=${_probe_out}")
endif()

find_program(LLMSIZER_NODE_EXECUTABLE NAMES node nodejs)
if(LLMSIZER_NODE_EXECUTABLE)
  add_test(NAME browser.webgpu_probe
           COMMAND "${LLMSIZER_NODE_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tests/browser/webgpu_probe.mjs"
                   --out "${CMAKE_BINARY_DIR}/test-output/webgpu-probe"
                   --validator "$<TARGET_FILE:llmsizer_tests>")
  set_tests_properties(browser.webgpu_probe PROPERTIES
    LABELS browser SKIP_RETURN_CODE 77 TIMEOUT 180 RESOURCE_LOCK chromium
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
endif()

# The GPU ground-truth harness cannot run without a GPU and PyTorch, but its model files can be checked
# anywhere: required fields, and parameter counts from each config within 1% of the published ones.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME probe.torch_configs
           COMMAND "${Python3_EXECUTABLE}" -B "${PROJECT_SOURCE_DIR}/probe/torch/harness.py" --check-configs)
  set_tests_properties(probe.torch_configs PROPERTIES LABELS probe)
endif()
