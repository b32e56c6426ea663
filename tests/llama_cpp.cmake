# SPDX-License-Identifier: MIT
# The real-llama.cpp test: a helper that plans GGUF files and estimates llama.cpp's
# buffers, and the Node test that writes the files, loads them with node-llama-cpp's prebuilt CPU
# llama.cpp and compares. Without node-llama-cpp in node_modules the Node test reports "skipped"
# (exit 77) unless LLMSIZER_REQUIRE_LLAMA_CPP is set.
add_executable(llmsizer_llama_cpp_tool ${CMAKE_CURRENT_SOURCE_DIR}/llama_cpp_tool.cpp)
target_link_libraries(llmsizer_llama_cpp_tool PRIVATE llmsizer::core)
target_compile_options(llmsizer_llama_cpp_tool PRIVATE ${LLMSIZER_WARNINGS})

find_program(LLMSIZER_NODE node)
if(LLMSIZER_NODE)
  # Re-measures data/validation/llama_cpp.json's rows with node-llama-cpp and checks the estimates
  # (about two minutes on 2 cores; it writes sparse GGUF files to the temporary folder). COST puts it
  # first on a fresh clone (no timings recorded yet), so that the rest runs beside it.
  add_test(NAME llama_cpp.real_llama_cpp
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/llama_cpp_real.mjs
                   $<TARGET_FILE:llmsizer_llama_cpp_tool> ${PROJECT_SOURCE_DIR}/data/validation/llama_cpp.json)
  set_tests_properties(llama_cpp.real_llama_cpp PROPERTIES
    SKIP_RETURN_CODE 77 LABELS "js;llama_cpp" TIMEOUT 900 COST 1000 WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    RESOURCE_LOCK llama_cpp_runtime)
  # A target and its draft loaded together (data/validation/llama_cpp_draft.json): each model's
  # buffers against the core's answer with a `draft` (about a minute; sparse GGUF files in the
  # temporary folder). Both tests link node-llama-cpp into build/llama-cpp-runtime: one at a time.
  add_test(NAME llama_cpp.real_llama_cpp_draft
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/llama_cpp_draft_real.mjs
                   $<TARGET_FILE:llmsizer_llama_cpp_tool> ${PROJECT_SOURCE_DIR}/data/validation/llama_cpp_draft.json)
  set_tests_properties(llama_cpp.real_llama_cpp_draft PROPERTIES
    SKIP_RETURN_CODE 77 LABELS "js;llama_cpp" TIMEOUT 900 COST 900 WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    RESOURCE_LOCK llama_cpp_runtime)
endif()
