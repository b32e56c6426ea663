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

# The CLI prints the command line that reproduces a llama.cpp estimate: two slots of 1024 + 1024
# tokens are -c 4096 (llama-server's -c is the context of all slots together) -np 2, the request's
# -ub 1024 beside llama-server's default -b 2048, and the q8_0 cache as -ctk/-ctv.
add_test(NAME cli.llama_cpp_command_line
         COMMAND llmsizer estimate ${CMAKE_CURRENT_SOURCE_DIR}/requests/llama_cpp_two_slots.json)
set_tests_properties(cli.llama_cpp_command_line PROPERTIES
  PASS_REGULAR_EXPRESSION "llama.cpp command line: llama-server -m MODEL\\.gguf -c 4096 -np 2 -b 2048 -ub 1024 -fa on -ctk q8_0 -ctv q8_0 -ngl all")
# Ollama: its context per request (OLLAMA_CONTEXT_LENGTH 2048), two parallel requests, flash
# attention on and the q8_0 cache as Ollama's environment variables (docs/faq.md).
add_test(NAME cli.ollama_command_line
         COMMAND llmsizer estimate ${CMAKE_CURRENT_SOURCE_DIR}/requests/ollama_two_slots.json)
set_tests_properties(cli.ollama_command_line PROPERTIES
  PASS_REGULAR_EXPRESSION "Ollama: OLLAMA_CONTEXT_LENGTH=2048 OLLAMA_NUM_PARALLEL=2 OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q8_0 ollama serve")

# A request that asks for no English text (english_text false, what the page sends for numbers it reads)
# still prints the CLI's report in full: the CLI asks the core for the sentences it prints.
add_test(NAME cli.report_of_a_numbers_only_request
         COMMAND llmsizer estimate ${CMAKE_CURRENT_SOURCE_DIR}/requests/numbers_only.json)
set_tests_properties(cli.report_of_a_numbers_only_request PROPERTIES
  PASS_REGULAR_EXPRESSION "parameters × bytes per parameter")
add_test(NAME cli.recommendation_of_a_numbers_only_request
         COMMAND llmsizer recommend ${CMAKE_CURRENT_SOURCE_DIR}/requests/numbers_only.json)
set_tests_properties(cli.recommendation_of_a_numbers_only_request PROPERTIES
  PASS_REGULAR_EXPRESSION "to spare")
