# SPDX-License-Identifier: MIT
# The real-llama.cpp test (issue 14): a helper that plans GGUF files and estimates llama.cpp's
# buffers, and the Node test that writes the files, loads them with node-llama-cpp's prebuilt CPU
# llama.cpp and compares. Without node-llama-cpp in node_modules the Node test reports "skipped"
# (exit 77) unless LLMSIZER_REQUIRE_LLAMA_CPP is set.
add_executable(llmsizer_llama_cpp_tool ${CMAKE_CURRENT_SOURCE_DIR}/llama_cpp_tool.cpp)
target_link_libraries(llmsizer_llama_cpp_tool PRIVATE llmsizer::core)
target_compile_options(llmsizer_llama_cpp_tool PRIVATE ${LLMSIZER_WARNINGS})

find_program(LLMSIZER_NODE node)
if(LLMSIZER_NODE)
  # Re-measures data/validation/llama_cpp.json's rows with node-llama-cpp and checks the estimates
  # (about two minutes on 2 cores; it writes sparse GGUF files to the temporary folder).
  add_test(NAME llama_cpp.real_llama_cpp
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/llama_cpp_real.mjs
                   $<TARGET_FILE:llmsizer_llama_cpp_tool> ${PROJECT_SOURCE_DIR}/data/validation/llama_cpp.json)
  set_tests_properties(llama_cpp.real_llama_cpp PROPERTIES
    SKIP_RETURN_CODE 77 LABELS "js;llama_cpp" TIMEOUT 900 RUN_SERIAL ON WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()

# A CLI test: `llmsizer COMMAND tests/requests/REQUEST` prints text that matches REGEX.
function(llmsizer_cli_test name command request regex)
  add_test(NAME cli.${name} COMMAND llmsizer ${command} ${CMAKE_CURRENT_SOURCE_DIR}/requests/${request})
  set_tests_properties(cli.${name} PROPERTIES PASS_REGULAR_EXPRESSION "${regex}")
endfunction()

# The CLI prints the command line that reproduces a llama.cpp estimate: two slots of 1024 + 1024
# tokens are -c 4096 (llama-server's -c is the context of all slots together) -np 2, the request's
# -ub 1024 beside llama-server's default -b 2048, and the q8_0 cache as -ctk/-ctv.
llmsizer_cli_test(llama_cpp_command_line estimate llama_cpp_two_slots.json
  "llama.cpp command line: llama-server -m MODEL\\.gguf -c 4096 -np 2 -b 2048 -ub 1024 -fa on -ctk q8_0 -ctv q8_0 -ngl all")
# Ollama: its context per request (OLLAMA_CONTEXT_LENGTH 2048), two parallel requests, flash
# attention on and the q8_0 cache as Ollama's environment variables (docs/faq.md).
llmsizer_cli_test(ollama_command_line estimate ollama_two_slots.json
  "Ollama: OLLAMA_CONTEXT_LENGTH=2048 OLLAMA_NUM_PARALLEL=2 OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q8_0 ollama serve")

# A request that asks for no English text (english_text false, what the page sends for numbers it reads)
# still prints the CLI's report in full: the CLI asks the core for the sentences it prints.
llmsizer_cli_test(report_of_a_numbers_only_request estimate numbers_only.json "parameters × bytes per parameter")
llmsizer_cli_test(recommendation_of_a_numbers_only_request recommend numbers_only.json "to spare")
