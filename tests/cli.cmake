# SPDX-License-Identifier: MIT
# The CLI's printed output (core/cli/main.cpp), by pattern.
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

# --max-options N lists the best N and says how many fit in all (the catalog fits Qwen2.5-7B at
# int4 on far more than two entries; recommend_test.cpp checks the count against the full list).
add_test(NAME cli.recommend_max_options COMMAND llmsizer recommend --model qwen2.5-7b-instruct --weights int4 --max-options 2)
set_tests_properties(cli.recommend_max_options PROPERTIES PASS_REGULAR_EXPRESSION "\n2    [^\n]*\n\\(the best 2 of [0-9]+ options that fit\\)")

# A machine typed in (a 16 GiB laptop, no GPU) is reported in sentences, not as raw JSON: the verdict,
# the speed and where its figures come from (a typical PC: machine.hpp kTypicalPcBandwidthGbPerS).
llmsizer_cli_test(report_of_a_typed_machine estimate laptop_16gib_no_gpu.json
  "Fit: Fits comfortably[^\n{]*\n[^{]*Speed: [0-9.]+ tokens/s per sequence; Speed as for a typical PC")
add_test(NAME cli.report_of_a_typed_machine_has_no_raw_json COMMAND llmsizer estimate ${CMAKE_CURRENT_SOURCE_DIR}/requests/laptop_16gib_no_gpu.json)
set_tests_properties(cli.report_of_a_typed_machine_has_no_raw_json PROPERTIES FAIL_REGULAR_EXPRESSION "(Fit|Speed): \\{")
