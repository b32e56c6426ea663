# SPDX-License-Identifier: MIT
# The request corpus: about 6,000 requests whose responses are pinned by hash while the
# JSON edge is rebuilt; fields added on purpose are listed in tests/corpus/added_fields.txt.
# Regenerate the hashes only in a commit that says which responses change and why:
#   build/native/tests/llmsizer_corpus hash tests/corpus/requests.jsonl tests/corpus/added_fields.txt > tests/corpus/hashes.txt
add_executable(llmsizer_corpus ${CMAKE_CURRENT_SOURCE_DIR}/corpus/corpus_main.cpp)
target_link_libraries(llmsizer_corpus PRIVATE llmsizer::core)
target_compile_options(llmsizer_corpus PRIVATE ${LLMSIZER_WARNINGS})
add_test(NAME corpus.responses_unchanged
         COMMAND llmsizer_corpus check ${CMAKE_CURRENT_SOURCE_DIR}/corpus/requests.jsonl
                 ${CMAKE_CURRENT_SOURCE_DIR}/corpus/hashes.txt ${CMAKE_CURRENT_SOURCE_DIR}/corpus/added_fields.txt)
