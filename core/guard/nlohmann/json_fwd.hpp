// SPDX-License-Identifier: MIT
// The estimator (core/src/*.cpp) is pure computation over plain structs: JSON is read and written
// only at the edge (core/src/edge/). This header stands in front of nlohmann's on the estimator's
// include path so that including it there fails to compile.
#error "the estimator target must not use JSON: read requests in core/src/edge/request/parse_request.cpp, write answers in core/src/edge/answer/to_json.cpp"
