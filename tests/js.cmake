# SPDX-License-Identifier: MIT
# Node tests of the WASM module and headless-Chromium tests of the page. They use the WASM build in
# build/wasm/web (the `wasm` preset); without it they report "skipped" (exit 77) unless
# LLMSIZER_REQUIRE_WASM / LLMSIZER_REQUIRE_BROWSER is set, as scripts/test.sh does.
find_program(LLMSIZER_NODE node)
set(LLMSIZER_WASM_WEB_DIR "${PROJECT_SOURCE_DIR}/build/wasm/web" CACHE PATH "Built page and WASM module")
if(LLMSIZER_NODE)
  add_test(NAME wasm.identity_with_native
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/wasm_identity.mjs ${LLMSIZER_WASM_WEB_DIR} $<TARGET_FILE:llmsizer>)
  # Every corpus request (hardware, training, recommend, bad requests) answers the same bytes in WASM.
  add_test(NAME wasm.corpus_identity_with_native
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/wasm_corpus.mjs ${LLMSIZER_WASM_WEB_DIR}
                   $<TARGET_FILE:llmsizer_corpus> ${CMAKE_CURRENT_SOURCE_DIR}/corpus/requests.jsonl)
  set_tests_properties(wasm.corpus_identity_with_native PROPERTIES SKIP_RETURN_CODE 77 LABELS "js" TIMEOUT 300)
  add_test(NAME browser.page_basic
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/page_basic.mjs ${LLMSIZER_WASM_WEB_DIR})
  set_tests_properties(wasm.identity_with_native browser.page_basic PROPERTIES
    SKIP_RETURN_CODE 77 LABELS "js" WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # One headless Chromium at a time (RESOURCE_LOCK, not RUN_SERIAL): on CI's two cores the other
  # tests run beside it (ctest 327 -> 299 s on a fresh clone, 2026-12-06).
  set_tests_properties(browser.page_basic PROPERTIES LABELS "browser" TIMEOUT 180 RESOURCE_LOCK chromium)
  # The page: walk-throughs in headless Chromium, and the download budget.
  foreach(_page_test scenarios share embed import probe japanese machine costs hub training_cost llama_cpp_settings fixes first_screen article_reader draft serve also_loaded)
    add_test(NAME browser.page_${_page_test}
             COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/page_${_page_test}.mjs ${LLMSIZER_WASM_WEB_DIR})
    set_tests_properties(browser.page_${_page_test} PROPERTIES
      SKIP_RETURN_CODE 77 LABELS "browser" TIMEOUT 300 RESOURCE_LOCK chromium WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endforeach()
  # The page offline after its first visit (web/sw.js): a second visit's bytes, a reload with
  # the network off, a changed build picked up on the next visit (a copy of the folder, changed).
  add_test(NAME browser.page_offline
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/page_offline.mjs ${LLMSIZER_WASM_WEB_DIR})
  set_tests_properties(browser.page_offline PROPERTIES
    SKIP_RETURN_CODE 77 LABELS "browser" TIMEOUT 300 RESOURCE_LOCK chromium WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # Both languages have every string the pages name (reads web/ only; no build needed).
  add_test(NAME js.page_strings
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/page_strings.mjs ${PROJECT_SOURCE_DIR})
  set_tests_properties(js.page_strings PROPERTIES LABELS "js")
  # The verdict card's text against its background, every verdict level: WCAG 2.1's 4.5:1 (reads web/style.css).
  add_test(NAME js.page_contrast
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/page_contrast.mjs ${PROJECT_SOURCE_DIR})
  set_tests_properties(js.page_contrast PROPERTIES LABELS "js")
  # `llmsizer --hf` / `hf` against a local stand-in for the Hugging Face Hub (tests/js/hub_server.mjs):
  # its URL layout, redirects to a CDN, Range reads, gated/missing repositories, truncated headers.
  add_test(NAME js.cli_hub
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/cli_hub.mjs $<TARGET_FILE:llmsizer>)
  set_tests_properties(js.cli_hub PROPERTIES LABELS "js" TIMEOUT 300 WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # The page's round trip through a dropped file, on the native CLI: estimating with inspect's
  # request_model resolves inspect's resolved_model (the GGUF fixture and the Hub stand-in's files).
  add_test(NAME js.cli_inspect_round_trip
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/cli_inspect_round_trip.mjs $<TARGET_FILE:llmsizer>)
  set_tests_properties(js.cli_inspect_round_trip PROPERTIES LABELS "js" TIMEOUT 120 WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # Every message the core says has an English and a Japanese string (web/i18n/messages.*.json).
  add_test(NAME js.message_strings
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/messages.mjs ${PROJECT_SOURCE_DIR} $<TARGET_FILE:llmsizer>)
  set_tests_properties(js.message_strings PROPERTIES LABELS "js")
  # Every path of this repository that the docs and the code's comments cite exists.
  add_test(NAME js.doc_paths_exist COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/doc_paths.mjs ${PROJECT_SOURCE_DIR})
  set_tests_properties(js.doc_paths_exist PROPERTIES LABELS "js")
  # The page's own number formats equal Intl.NumberFormat's for en-US and ja-JP.
  add_test(NAME js.number_format COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/number_format.mjs)
  set_tests_properties(js.number_format PROPERTIES LABELS "js")
  # The default view's answer prerendered into index.html is the core's answer.
  add_test(NAME wasm.prerendered_default_view
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/prerender.mjs ${LLMSIZER_WASM_WEB_DIR})
  set_tests_properties(wasm.prerendered_default_view PROPERTIES SKIP_RETURN_CODE 77 LABELS "js" WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # The default page's transfer, gzipped, as headless Chromium requests it (tests/js/page_size.mjs),
  # against the page's budget itself (page_size.mjs: 300 KB) now that the page is under it. Every guard
  # with what moved it: bench/results/history.md, "The page-size guard".
  add_test(NAME wasm.page_size_budget
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/page_size.mjs ${LLMSIZER_WASM_WEB_DIR})
  set_tests_properties(wasm.page_size_budget PROPERTIES SKIP_RETURN_CODE 77 LABELS "js" TIMEOUT 180 RESOURCE_LOCK chromium WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()
