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
  # The page (issue 8): walk-throughs in headless Chromium, and the download budget.
  foreach(_page_test scenarios share embed import probe japanese machine costs hub training_cost llama_cpp_settings fixes first_screen article_reader draft serve)
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
  # Every message the core says has an English and a Japanese string (web/i18n/messages.*.json).
  add_test(NAME js.message_strings
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/messages.mjs ${PROJECT_SOURCE_DIR} $<TARGET_FILE:llmsizer>)
  set_tests_properties(js.message_strings PROPERTIES LABELS "js")
  # The page's own number formats equal Intl.NumberFormat's for en-US and ja-JP.
  add_test(NAME js.number_format COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/number_format.mjs)
  set_tests_properties(js.number_format PROPERTIES LABELS "js")
  # The default view's answer prerendered into index.html is the core's answer.
  add_test(NAME wasm.prerendered_default_view
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/prerender.mjs ${LLMSIZER_WASM_WEB_DIR})
  set_tests_properties(wasm.prerendered_default_view PROPERTIES SKIP_RETURN_CODE 77 LABELS "js" WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # Issue 8 set 300 KB; issue 20 aims at 150 KB and is open. Measured 2026-12-03 after issues 14, 15 and
  # 17 (llama.cpp's graph and Ollama, verdicts and fixes, the cost table, load by id): 401 KB, of
  # which the module 311 KB and the two message tables 37 KB. Issue 20, second part: the English
  # messages come from the module (listMessages), not a 17 KB file. Since issue 20's third part the
  # test loads the default page in headless Chromium and sums what it actually requests (each body
  # gzip -9), failing on any request that leaves its origin: 382.6 KB in 13 requests (module 313.9 KB).
  # With style.css and boot.js inline, lib/hub.js on demand and the scripts and CSS minified by esbuild
  # (wasm/CMakeLists.txt), the form and cards as templates: 362.9 KB in 10 requests (module 313.9 KB);
  # With the responses written by a streaming writer (no ordered_json in the module): 349.4 KB in 10
  # requests (module 300.4 KB); the guard 352 KB (lowered as the module shrinks). Issue 16's model of
  # PyTorch's caching allocator (caching_allocator.hpp, the eager prompt pass replayed through it for
  # every fit on a CUDA GPU) and its two messages: 351.6 -> 356.5 KB (module 303.4 -> 307.6 KB); the
  # guard 358 KB. Binaryen's inlining of small functions (wasm/CMakeLists.txt, issue 20): 355.2 KB
  # (module 307.0 KB); the guard 357 KB. The presets embedded without the config keys the core never
  # reads (cmake/unread_config_keys.txt): 356.0 -> 345.3 KB (module 309.1 -> 298.4 KB as counted here);
  # the guard 346 KB. The hardware entries embedded without the members the core never reads
  # (cmake/unread_hardware_keys.txt): 345.4 -> 342.3 KB (module 298.4 -> 295.4 KB); the guard 343 KB.
  # The reader on a phone and in Japanese (the answer before the form, the verdict levels' colours, the
  # devices' sizes as printed, a link's language, the kinds of price and "your machine" in both
  # languages, the preset search): +722 bytes, measured as the same page with and without them over the
  # same module; the guard 343,722 bytes. The article's reader end to end (my machine's typical
  # devices and operating systems, where each speed's figures come from, the buy-or-rent card for
  # training and its ranking of rented instances, the cost settings, a device's memory configuration,
  # its own CPU): 354,514 bytes in 10 requests (module 295.4 -> 304.7 KB, of which about 4.1 KB the
  # cost and training work and the rest the machine rules and the English of 42 new messages; the page's
  # JavaScript, HTML and strings 46.9 -> 49.8 KB); the guard 355 KB. The page offline after its first
  # visit: the service worker's script, now counted (page_size.mjs), 1,582 bytes gzipped, and
  # its registration in index.html's inline boot.js, 201: +1,783 bytes, measured over the same build; its
  # installing requests nothing (page_offline.mjs counts the server's bytes); the guard 356,783 bytes.
  # A draft model for speculative decoding (core/src/speculative.cpp, the request's `draft`, the answer's
  # `draft` and four messages): module 306,079 -> 309,152 bytes gzipped, +3,073, measured as the same
  # tree built with and without them; the guard 359,856 bytes. "Add a draft" on the page (its four
  # fields, the draft's section and command line, their strings): app.js +176, index.html +171,
  # i18n/en.json +342, lib/state.js +189, lib/i18n.js +10 = +888 bytes gzipped, measured the same way;
  # the guard 360,744 bytes. One answer per edit (pageAnswer: the estimate, the chart, the format rows
  # and the ranking in one call, and app.js's use of it), the trained-context verdicts
  # (context_limit.cpp) and three more refusals and warnings with their messages: 363,133 bytes in 11
  # requests (module 310,360), 2,389 over the last guard, measured together in this tree; the guard
  # 363,500 bytes. The review's moves into the estimator (the draft's vocabulary rule and launch command,
  # a device's memory configuration) and the speed-up's longer label: 363,723 bytes (module 310,903,
  # +543; i18n/en.json +55); the guard 364,000 bytes. Serving (task "serve": the step model, the
  # engines' schedulers simulated, their messages) grew the module to about 331 KB. The page's Serve
  # task (its inputs, the link's keys, the strings; lib/serve.js is loaded only when Serve is chosen):
  # +2,096 bytes (app.js +479, index.html +393, i18n/en.json +764, lib/state.js +442, sw.js +14,
  # lib/charts.js +4), measured as the page with and without it over the same module (331,065 bytes):
  # 383,885 -> 385,981. With the module as built then (331,197): 386,113 bytes in 11 requests; the guard
  # 387,000 bytes. The Serve task's "Which GPUs to buy or rent" (recommend with task serve; its view
  # in lib/serve.js, loaded only for Serve): +354 bytes (app.js +179, i18n/en.json +169, index.html +7,
  # sw.js -1), measured as the page before and after over the same module (335,220 bytes): 390,293 ->
  # 390,647; the module had grown to 335,220 meanwhile (the core's own changes, over the last guard
  # before this). With the module as built then (335,564): 390,991 bytes; the guard 391,000 bytes.
  # The serving core's last parts (exact log/exp for identical builds, the step budget and its note,
  # recommend_serving's context check, the step-part labels): 391,760 bytes; the guard 392,000 bytes.
  add_test(NAME wasm.page_size_budget
           COMMAND ${LLMSIZER_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/page_size.mjs ${LLMSIZER_WASM_WEB_DIR} 392000)
  set_tests_properties(wasm.page_size_budget PROPERTIES SKIP_RETURN_CODE 77 LABELS "js" TIMEOUT 180 RESOURCE_LOCK chromium WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()
