// SPDX-License-Identifier: MIT
// The compute graph of one llama.cpp micro-batch and ggml's allocator, as llama.cpp v0.5.0 has them.
// Sources (llama.cpp tag v0.5.0, the one node-llama-cpp 3.22.1 bundles):
//   ggml/src/ggml.c            op result shapes/types/strides (ggml_mul_mat, ggml_get_rows, views, ...),
//                              ggml_visit_parents_graph (node order: sources depth-first, src[0] first)
//   ggml/src/ggml-alloc.c      ggml_gallocr_alloc_graph_impl, ggml_gallocr_allocate_node (in-place
//                              reuse), ggml_dyn_tallocr_alloc / _free_bytes (best fit, merging)
//   src/llama-graph.cpp        build_inp_embd, build_norm, build_qkv, build_ffn, build_moe_ffn,
//                              build_attn, build_attn_mha, build_attn_inp_kq_mask, build_inp_out_ids
//   src/llama-kv-cache.cpp     get_k, get_v, cpy_k, cpy_v, build_input_k_idxs/v_idxs/k_rot/v_rot
//   src/models/*.cpp           the per-architecture graphs
// Only what changes which tensors exist, their sizes and their order is modelled; values are not.
#include "llama_cpp_graph.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <utility>

#include "llmsizer/ggml_types.hpp"

namespace llmsizer::llama_cpp_graph {
namespace {

// GGML_MAX_SRC is 10; the ops built here take at most 5 (flash_attn_ext: q, k, v, mask, then the
// sinks ggml_flash_attn_ext_add_sinks puts in src[4]), and every walk over a node's sources (the
// graph's order, the allocator's) skips the empty ones, so the rest would only be walked over.
constexpr int kMaxSrc = 5;
constexpr std::int64_t kAlignment = 32;   // TENSOR_ALIGNMENT, the CPU buffer type's alignment
constexpr int kF32 = 0, kF16 = 1, kI32 = 26, kI64 = 27;

enum class Op {
  none, add, add_id, mul, div, scale, rms_norm, rope, mul_mat, mul_mat_id, get_rows, set_rows, cont, view,
  reshape, permute, transpose, soft_max, flash_attn_ext, glu, unary, argsort, concat, sum_rows, clamp,
};

/// ggml-alloc.c ggml_op_can_inplace (the ops of this file among them).
bool can_inplace(Op op) {
  switch (op) {
    case Op::scale: case Op::add: case Op::add_id: case Op::mul: case Op::div: case Op::unary:
    case Op::rope: case Op::rms_norm: case Op::clamp: case Op::soft_max:
      return true;
    default:
      return false;
  }
}

struct TypeSize {
  std::int64_t bytes;  // ggml_type_size
  std::int64_t block;  // ggml_blck_size
};

/// type_size of a type other than the four below (a quantized cache type).
TypeSize other_type_size(int type) {
  const GgmlTypeInfo* t = ggml_type_info(type);
  if (t == nullptr) throw std::invalid_argument("unknown ggml type " + std::to_string(type));
  return {t->block_bytes, t->block_elements};
}

inline TypeSize type_size(int type) {
  // the types a graph holds (activations, indices, cache types) first: this runs for every tensor
  switch (type) {
    case kF32: return {4, 1};
    case kF16: return {2, 1};
    case kI32: return {4, 1};
    case kI64: return {8, 1};
    default: return other_type_size(type);
  }
}

std::int64_t row_size(int type, std::int64_t n) {
  const TypeSize s = type_size(type);
  return s.bytes * (n / s.block);
}

struct Tensor {
  // Provided, so that making a tensor sets each field once: value-initializing the aggregate zeroed
  // all its bytes first, which in WASM was a call to memset per tensor (most of a graph's build
  // there). Ctx::impl sets `nb` for every tensor; the zeros below come in runs short enough for the
  // compiler to store them in place (aligned_bytes' -1 splits them).
  Tensor() {}  // NOLINT(modernize-use-equals-default): = default would value-initialize again
  Op op = Op::none;
  int type = kF32;
  std::array<std::int64_t, 4> ne{{1, 1, 1, 1}};
  std::array<std::int64_t, 4> nb;  // NOLINT(cppcoreguidelines-pro-type-member-init): set by Ctx::impl
  std::array<Tensor*, kMaxSrc> src{};
  Tensor* view_src = nullptr;
  std::int64_t view_offs = 0;
  /// nbytes rounded to the allocator's alignment, once the allocator first asks (the shape is
  /// final by then); -1 before. The allocator asks for it at every allocation, free and in-place test.
  std::int64_t aligned_bytes = -1;
  bool input = false;
  bool output = false;
  bool external = false;  ///< data in another buffer (weights, KV cache): never allocated here
  bool visited = false;
  /// 1 + the last source set, once the graph has visited the tensor (the walks stop there).
  int n_src = 0;
  // ggml-alloc.c struct hash_node
  int n_children = 0;
  int n_views = 0;
  bool allocated = false;
  std::int64_t offset = 0;
};

bool is_view(const Tensor* t) { return t->view_src != nullptr; }

std::int64_t nelements(const Tensor* t) { return t->ne[0] * t->ne[1] * t->ne[2] * t->ne[3]; }

/// ggml_nbytes
std::int64_t nbytes(const Tensor* t) {
  for (const std::int64_t n : t->ne) {
    if (n <= 0) return 0;
  }
  const TypeSize s = type_size(t->type);
  std::int64_t bytes = 0;
  if (s.block == 1) {
    bytes = s.bytes;
    for (int i = 0; i < 4; ++i) bytes += (t->ne[i] - 1) * t->nb[i];
  } else {
    bytes = t->ne[0] * t->nb[0] / s.block;
    for (int i = 1; i < 4; ++i) bytes += (t->ne[i] - 1) * t->nb[i];
  }
  return bytes;
}

/// ggml_is_contiguous (ggml_is_contiguous_m_n with m = 0)
bool is_contiguous(const Tensor* t) {
  const TypeSize s = type_size(t->type);
  std::int64_t next = s.bytes;
  if (t->ne[0] != s.block && t->nb[0] != next) return false;
  next *= t->ne[0] / s.block;
  for (int i = 1; i < 4; ++i) {
    if (t->ne[i] != 1 && t->nb[i] != next) return false;
    next *= t->ne[i];
  }
  return true;
}

bool same_layout(const Tensor* a, const Tensor* b) { return a->type == b->type && a->ne == b->ne && a->nb == b->nb; }

/// A ggml context: owns the tensors; each function mirrors the ggml.c function of the same name.
class Ctx {
 public:
  /// ggml_new_tensor_impl
  Tensor* impl(int type, int n_dims, const std::int64_t* ne, Tensor* view_src, std::int64_t view_offs) {
    if (view_src != nullptr && view_src->view_src != nullptr) {
      view_offs += view_src->view_offs;
      view_src = view_src->view_src;
    }
    if (blocks_.empty() || blocks_.back().size() == kBlockTensors) {
      blocks_.emplace_back();
      blocks_.back().reserve(kBlockTensors);
    }
    Tensor* t = &blocks_.back().emplace_back();
    t->type = type;
    for (int i = 0; i < n_dims; ++i) t->ne[i] = ne[i];
    const TypeSize s = type_size(type);
    t->nb[0] = s.bytes;
    t->nb[1] = t->nb[0] * (t->ne[0] / s.block);
    for (int i = 2; i < 4; ++i) t->nb[i] = t->nb[i - 1] * t->ne[i - 1];
    t->view_src = view_src;
    t->view_offs = view_offs;
    return t;
  }
  Tensor* new_tensor(int type, std::int64_t ne0, std::int64_t ne1 = 1, std::int64_t ne2 = 1, std::int64_t ne3 = 1) {
    const std::int64_t ne[4] = {ne0, ne1, ne2, ne3};
    return impl(type, 4, ne, nullptr, 0);
  }
  Tensor* dup(const Tensor* a) { return new_tensor(a->type, a->ne[0], a->ne[1], a->ne[2], a->ne[3]); }
  /// A tensor whose data live elsewhere (a weight, a KV cache).
  Tensor* external(int type, std::int64_t ne0, std::int64_t ne1 = 1, std::int64_t ne2 = 1) {
    Tensor* t = new_tensor(type, ne0, ne1, ne2);
    t->external = true;
    return t;
  }
  Tensor* input(int type, std::int64_t ne0, std::int64_t ne1 = 1, std::int64_t ne2 = 1, std::int64_t ne3 = 1) {
    Tensor* t = new_tensor(type, ne0, ne1, ne2, ne3);
    t->input = true;
    return t;
  }

  Tensor* unary_like(Op op, Tensor* a) {
    Tensor* r = dup(a);
    r->op = op;
    r->src[0] = a;
    return r;
  }
  Tensor* binary_like(Op op, Tensor* a, Tensor* b) {
    Tensor* r = dup(a);
    r->op = op;
    r->src[0] = a;
    r->src[1] = b;
    return r;
  }
  Tensor* add(Tensor* a, Tensor* b) { return binary_like(Op::add, a, b); }
  Tensor* mul(Tensor* a, Tensor* b) { return binary_like(Op::mul, a, b); }
  Tensor* div(Tensor* a, Tensor* b) { return binary_like(Op::div, a, b); }
  Tensor* add_id(Tensor* a, Tensor* b, Tensor* ids) {
    Tensor* r = binary_like(Op::add_id, a, b);
    r->src[2] = ids;
    return r;
  }
  Tensor* scale(Tensor* a) { return unary_like(Op::scale, a); }
  Tensor* rms_norm(Tensor* a) { return unary_like(Op::rms_norm, a); }
  Tensor* unary(Tensor* a) { return unary_like(Op::unary, a); }  // silu, gelu, tanh, sigmoid
  Tensor* clamp(Tensor* a) { return unary_like(Op::clamp, a); }
  Tensor* rope(Tensor* a, Tensor* pos) {
    Tensor* r = unary_like(Op::rope, a);
    r->src[1] = pos;
    return r;
  }
  Tensor* soft_max(Tensor* a, Tensor* mask = nullptr) {
    Tensor* r = unary_like(Op::soft_max, a);
    r->src[1] = mask;
    return r;
  }
  Tensor* mul_mat(Tensor* a, Tensor* b) {
    Tensor* r = new_tensor(kF32, a->ne[1], b->ne[1], b->ne[2], b->ne[3]);
    r->op = Op::mul_mat;
    r->src[0] = a;
    r->src[1] = b;
    return r;
  }
  Tensor* mul_mat_id(Tensor* as, Tensor* b, Tensor* ids) {
    Tensor* r = new_tensor(kF32, as->ne[1], ids->ne[0], b->ne[2], 1);
    r->op = Op::mul_mat_id;
    r->src[0] = as;
    r->src[1] = b;
    r->src[2] = ids;
    return r;
  }
  Tensor* get_rows(Tensor* a, Tensor* b) {
    Tensor* r = new_tensor(a->type == kI32 ? kI32 : kF32, a->ne[0], b->ne[0], b->ne[1], b->ne[2]);
    r->op = Op::get_rows;
    r->src[0] = a;
    r->src[1] = b;
    return r;
  }
  Tensor* view_tensor(Tensor* a) {
    Tensor* r = impl(a->type, 4, a->ne.data(), a, 0);
    r->nb = a->nb;
    return r;
  }
  Tensor* set_rows(Tensor* a, Tensor* b, Tensor* c) {
    Tensor* r = view_tensor(a);
    r->op = Op::set_rows;
    r->src[0] = b;
    r->src[1] = c;
    r->src[2] = a;
    return r;
  }
  Tensor* view(Tensor* a, int n_dims, const std::int64_t* ne, std::int64_t offset) {
    Tensor* r = impl(a->type, n_dims, ne, a, offset);
    r->op = Op::view;
    r->src[0] = a;
    return r;
  }
  Tensor* view_1d(Tensor* a, std::int64_t ne0, std::int64_t offset) {
    const std::int64_t ne[1] = {ne0};
    return view(a, 1, ne, offset);
  }
  Tensor* view_2d(Tensor* a, std::int64_t ne0, std::int64_t ne1, std::int64_t nb1, std::int64_t offset) {
    const std::int64_t ne[2] = {ne0, ne1};
    Tensor* r = view(a, 2, ne, offset);
    r->nb[1] = nb1;
    r->nb[2] = r->nb[1] * ne1;
    r->nb[3] = r->nb[2];
    return r;
  }
  Tensor* view_3d(Tensor* a, std::int64_t ne0, std::int64_t ne1, std::int64_t ne2, std::int64_t nb1, std::int64_t nb2, std::int64_t offset) {
    const std::int64_t ne[3] = {ne0, ne1, ne2};
    Tensor* r = view(a, 3, ne, offset);
    r->nb[1] = nb1;
    r->nb[2] = nb2;
    r->nb[3] = r->nb[2] * ne2;
    return r;
  }
  Tensor* view_4d(Tensor* a, std::int64_t ne0, std::int64_t ne1, std::int64_t ne2, std::int64_t ne3, std::int64_t nb1,
                  std::int64_t nb2, std::int64_t nb3, std::int64_t offset) {
    const std::int64_t ne[4] = {ne0, ne1, ne2, ne3};
    Tensor* r = view(a, 4, ne, offset);
    r->nb[1] = nb1;
    r->nb[2] = nb2;
    r->nb[3] = nb3;
    return r;
  }
  Tensor* reshape(Tensor* a, std::int64_t ne0, std::int64_t ne1 = 1, std::int64_t ne2 = 1, std::int64_t ne3 = 1) {
    if (!is_contiguous(a) || nelements(a) != ne0 * ne1 * ne2 * ne3) throw std::logic_error("llama.cpp graph: reshape of a non-contiguous tensor");
    const std::int64_t ne[4] = {ne0, ne1, ne2, ne3};
    Tensor* r = impl(a->type, 4, ne, a, 0);
    r->op = Op::reshape;
    r->src[0] = a;
    return r;
  }
  Tensor* permute(Tensor* a, int ax0, int ax1, int ax2, int ax3) {
    Tensor* r = view_tensor(a);
    const int axes[4] = {ax0, ax1, ax2, ax3};
    for (int i = 0; i < 4; ++i) {
      r->ne[axes[i]] = a->ne[i];
      r->nb[axes[i]] = a->nb[i];
    }
    r->op = Op::permute;
    r->src[0] = a;
    return r;
  }
  Tensor* transpose(Tensor* a) {
    Tensor* r = view_tensor(a);
    std::swap(r->ne[0], r->ne[1]);
    std::swap(r->nb[0], r->nb[1]);
    r->op = Op::transpose;
    r->src[0] = a;
    return r;
  }
  Tensor* cont(Tensor* a) { return unary_like(Op::cont, a); }
  Tensor* cont_2d(Tensor* a, std::int64_t ne0, std::int64_t ne1) {
    Tensor* r = new_tensor(a->type, ne0, ne1);
    r->op = Op::cont;
    r->src[0] = a;
    return r;
  }
  Tensor* flash_attn_ext(Tensor* q, Tensor* k, Tensor* v, Tensor* mask) {
    Tensor* r = new_tensor(kF32, v->ne[0], q->ne[2], q->ne[1], q->ne[3]);
    r->op = Op::flash_attn_ext;
    r->src[0] = q;
    r->src[1] = k;
    r->src[2] = v;
    r->src[3] = mask;
    return r;
  }
  /// ggml_glu_impl: split form (a, b) keeps a's shape; the single form halves ne[0].
  Tensor* glu(Tensor* a, Tensor* b) {
    Tensor* r = b != nullptr ? new_tensor(a->type, a->ne[0], a->ne[1], a->ne[2], a->ne[3])
                             : new_tensor(a->type, a->ne[0] / 2, a->ne[1], a->ne[2], a->ne[3]);
    r->op = Op::glu;
    r->src[0] = a;
    r->src[1] = b;
    return r;
  }
  /// ggml_argsort_top_k: an I32 argsort of the whole row, then a view of its first k.
  Tensor* argsort_top_k(Tensor* a, std::int64_t k) {
    Tensor* s = new_tensor(kI32, a->ne[0], a->ne[1], a->ne[2], a->ne[3]);
    s->op = Op::argsort;
    s->src[0] = a;
    return view_4d(s, k, s->ne[1], s->ne[2], s->ne[3], s->nb[1], s->nb[2], s->nb[3], 0);
  }
  Tensor* concat(Tensor* a, Tensor* b, int dim) {
    std::array<std::int64_t, 4> ne = a->ne;
    ne[static_cast<std::size_t>(dim)] += b->ne[static_cast<std::size_t>(dim)];
    Tensor* r = new_tensor(a->type, ne[0], ne[1], ne[2], ne[3]);
    r->op = Op::concat;
    r->src[0] = a;
    r->src[1] = b;
    return r;
  }
  Tensor* sum_rows(Tensor* a) {
    Tensor* r = new_tensor(a->type, 1, a->ne[1], a->ne[2], a->ne[3]);
    r->op = Op::sum_rows;
    r->src[0] = a;
    return r;
  }

 private:
  // The tensors in blocks that never move (the graph points into them: a block is never filled
  // beyond what it reserved), a few hundred at a time, each made only when the graph makes it: a
  // deque of these ~190-byte tensors allocated every second one.
  static constexpr std::size_t kBlockTensors = 256;
  std::vector<std::vector<Tensor>> blocks_;
};

/// A ggml_cgraph: nodes and leafs in ggml_visit_parents_graph order. The leaves whose data are in
/// another buffer (a weight, a KV cache: `external`, made with no sources) are left out of `leafs`:
/// the allocator never lays them out, frees them or reuses their memory (ggml-alloc.c: a tensor
/// with data is "allocated" already), and nothing here reads the graph's leaves for them.
struct Graph {
  std::vector<Tensor*> nodes;
  std::vector<Tensor*> leafs;
  void visit(Tensor* t) {
    if (t->visited) return;
    t->visited = true;
    for (int i = 0; i < kMaxSrc; ++i) {
      Tensor* src = t->src[static_cast<std::size_t>(i)];
      if (src == nullptr) continue;
      if (!src->external) visit(src);
      t->n_src = i + 1;
    }
    (t->op == Op::none ? leafs : nodes).push_back(t);
  }
  void expand(Tensor* t) { visit(t); }
};

/// ggml_dyn_tallocr with one chunk (a CPU buffer's maximum size is SIZE_MAX).
class DynAllocator {
 public:
  std::int64_t alloc(std::int64_t size) {
    size = align(size);
    if (blocks_.empty() && !started_) {
      blocks_.reserve(32);  // the free blocks of a graph are a few dozen at most
      blocks_.push_back({0, kChunk});
      started_ = true;
    }
    int best = -1;
    std::int64_t best_size = std::numeric_limits<std::int64_t>::max();
    // the best fitting free block besides the last one
    for (int i = 0; i + 1 < static_cast<int>(blocks_.size()); ++i) {
      const Block& b = blocks_[static_cast<std::size_t>(i)];
      if (b.size >= size && b.size <= best_size) {
        best = i;
        best_size = b.size;
      }
    }
    if (best == -1) {
      // the last block (which grows the buffer)
      if (!blocks_.empty() && blocks_.back().size >= size) best = static_cast<int>(blocks_.size()) - 1;
    }
    if (best == -1) throw std::logic_error("llama.cpp graph: allocator out of space");
    Block& b = blocks_[static_cast<std::size_t>(best)];
    const std::int64_t offset = b.offset;
    b.offset += size;
    b.size -= size;
    if (b.size == 0) blocks_.erase(blocks_.begin() + best);
    max_size_ = std::max(max_size_, offset + size);
    return offset;
  }
  void free(std::int64_t offset, std::int64_t size) {
    size = align(size);
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      Block& b = blocks_[i];
      if (b.offset + b.size == offset) {  // at the end of a block
        b.size += size;
        if (i + 1 < blocks_.size() && b.offset + b.size == blocks_[i + 1].offset) {
          b.size += blocks_[i + 1].size;
          blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        }
        return;
      }
      if (offset + size == b.offset) {  // at the beginning of a block
        b.offset = offset;
        b.size += size;
        if (i > 0 && blocks_[i - 1].offset + blocks_[i - 1].size == b.offset) {
          blocks_[i - 1].size += b.size;
          blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
        }
        return;
      }
    }
    std::size_t pos = 0;
    while (pos < blocks_.size() && blocks_[pos].offset < offset) ++pos;
    blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(pos), Block{offset, size});
  }
  std::int64_t max_size() const { return max_size_; }
  static std::int64_t align(std::int64_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }

 private:
  struct Block {
    std::int64_t offset;
    std::int64_t size;
  };
  static constexpr std::int64_t kChunk = std::numeric_limits<std::int64_t>::max() / 4;
  std::vector<Block> blocks_;
  bool started_ = false;
  std::int64_t max_size_ = 0;
};

/// ggml_gallocr_alloc_graph_impl on one buffer; returns the buffer's size.
std::int64_t allocate(Graph& g) {
  DynAllocator a;
  // A node's sources: the first n_src of src (Graph::visit).
  auto sources = [](const Tensor* node) { return std::make_pair(node->src.begin(), node->src.begin() + node->n_src); };
  auto size_of = [](Tensor* t) {
    if (t->aligned_bytes < 0) t->aligned_bytes = DynAllocator::align(nbytes(t));
    return t->aligned_bytes;
  };
  auto free_node = [&](Tensor* t) {
    if (t->output) return;  // graph outputs are never freed
    a.free(t->offset, size_of(t));
    t->allocated = false;
  };
  auto allocate_node = [&](Tensor* node) {
    if (node->external || node->allocated || is_view(node)) return;
    node->allocated = true;
    if (can_inplace(node->op)) {
      for (auto [it, end] = sources(node); it != end; ++it) {
        Tensor* parent = *it;
        if (parent == nullptr || !parent->allocated) continue;  // not ours (external, view)
        if (parent->output || (parent->view_src != nullptr && parent->view_src->output)) continue;
        if (!same_layout(node, parent)) continue;
        if (parent->n_children == 1 && parent->n_views == 0) {
          node->offset = parent->offset;
          parent->allocated = false;
          // ggml_gallocr_free_extra_space
          const std::int64_t parent_size = size_of(parent);
          const std::int64_t node_size = size_of(node);
          if (parent_size > node_size) a.free(parent->offset + node_size, parent_size - node_size);
          return;
        }
      }
    }
    node->offset = a.alloc(size_of(node));
  };
  for (Tensor* leaf : g.leafs) allocate_node(leaf);
  for (Tensor* node : g.nodes) {
    if (is_view(node)) node->view_src->n_views += 1;
    if (node->input) allocate_node(node);
    for (auto [s, end] = sources(node); s != end; ++s) {
      // Another buffer's tensor is never laid out nor freed here: its children need no count.
      if (*s == nullptr || (*s)->external) continue;
      (*s)->n_children += 1;
      if ((*s)->input) allocate_node(*s);
    }
  }
  for (Tensor* node : g.nodes) {
    for (auto [s, end] = sources(node); s != end; ++s) {
      if (*s != nullptr) allocate_node(*s);
    }
    allocate_node(node);
    for (auto [it, end] = sources(node); it != end; ++it) {
      Tensor* p = *it;
      if (p == nullptr || p->external) continue;
      p->n_children -= 1;
      if (p->n_children == 0 && p->n_views == 0) {
        if (is_view(p)) {
          Tensor* vs = p->view_src;
          vs->n_views -= 1;
          if (vs->n_views == 0 && vs->n_children == 0 && vs->allocated) free_node(vs);
        } else if (p->allocated) {
          free_node(p);
        }
      }
    }
  }
  return a.max_size();
}

/// The inputs and caches of one KV cache (the full-attention one, or the sliding-window one).
struct KvInputs {
  std::int64_t size = 0;  // cells per stream
  Tensor* k_idxs = nullptr;
  Tensor* v_idxs = nullptr;
  Tensor* kq_mask = nullptr;
  Tensor* k_rot = nullptr;
  Tensor* v_rot = nullptr;
};

/// llm_graph_context: builds one architecture's graph for the micro-batch of `p`.
class Builder {
 public:
  Builder(const GraphParams& p, Ctx& ctx, Graph& gf) : p_(p), ctx_(ctx), gf_(gf) {}

  Tensor* build();

 private:
  bool mla() const { return p_.kv_lora_rank > 0; }
  bool v_trans() const { return !p_.flash_attn; }  // llama-model.cpp create_memory: v_trans = !flash_attn
  Tensor* w(std::int64_t ne0, std::int64_t ne1 = 1, std::int64_t ne2 = 1) { return ctx_.external(kF16, ne0, ne1, ne2); }
  Tensor* w32(std::int64_t ne0, std::int64_t ne1 = 1) { return ctx_.external(kF32, ne0, ne1); }

  std::int64_t n_embd_head_k() const { return mla() ? p_.kv_lora_rank + p_.n_embd_head_qk_rope : p_.n_embd_head_k; }
  std::int64_t n_embd_head_v() const { return mla() ? p_.kv_lora_rank : p_.n_embd_head_v; }
  std::int64_t n_head_kv() const { return mla() ? 1 : p_.n_head_kv; }
  std::int64_t n_embd_k_gqa() const { return n_embd_head_k() * n_head_kv(); }
  std::int64_t n_embd_v_gqa() const { return n_embd_head_v() * n_head_kv(); }

  /// llama-kv-cache.cpp: attn_rot_k / attn_rot_v (quantized cache types and head sizes multiple of 64
  /// get a Hadamard rotation; MLA's K-only input builds none).
  bool rot_k() const { return !mla() && is_quantized(p_.type_k) && n_embd_head_k() % 64 == 0; }
  bool rot_v() const { return !mla() && is_quantized(p_.type_v) && n_embd_head_v() % 64 == 0; }
  static bool is_quantized(int type) { return type_size(type).block > 1; }

  /// build_input_k_idxs, build_input_v_idxs, build_attn_inp_kq_mask, build_input_k_rot/v_rot
  KvInputs kv_inputs(std::int64_t size, bool with_v) {
    KvInputs in;
    in.size = size;
    in.k_idxs = ctx_.input(kI64, p_.n_tokens);
    if (with_v) in.v_idxs = ctx_.input(kI64, v_trans() ? p_.n_tokens * n_embd_v_gqa() : p_.n_tokens);
    const std::int64_t n_stream = p_.kv_unified ? 1 : p_.n_seqs;
    in.kq_mask = ctx_.input(p_.flash_attn ? kF16 : kF32, size, p_.n_tokens / n_stream, 1, n_stream);
    if (rot_k()) {
      std::int64_t nrot = 64;
      do {
        nrot *= 2;
      } while (n_embd_head_k() % nrot == 0);
      nrot /= 2;
      in.k_rot = ctx_.input(kF32, nrot, nrot);
    }
    if (rot_v()) in.v_rot = ctx_.input(kF32, 64, 64);
    return in;
  }

  Tensor* norm(Tensor* cur, std::int64_t width) { return ctx_.mul(ctx_.rms_norm(cur), w32(width)); }

  Tensor* hadamard(Tensor* cur, Tensor* rot) {
    const std::int64_t n = rot->ne[0];
    Tensor* res = is_contiguous(cur) ? ctx_.reshape(cur, n, nelements(cur) / n) : ctx_.cont_2d(cur, n, nelements(cur) / n);
    res = ctx_.mul_mat(rot, res);
    return ctx_.reshape(res, cur->ne[0], cur->ne[1], cur->ne[2], cur->ne[3]);
  }

  struct Qkv {
    Tensor* q;
    Tensor* k;
    Tensor* v;
  };
  /// build_qkv: separate q/k/v projections (with biases), or one fused attn_qkv (phi3).
  Qkv qkv(Tensor* cur, bool fused) {
    const std::int64_t hd = p_.n_embd_head_k, nq = hd * p_.n_head, nk = hd * p_.n_head_kv;
    const std::int64_t n = p_.n_tokens;
    if (fused) {
      Tensor* all = ctx_.mul_mat(w(p_.n_embd, nq + 2 * nk), cur);
      return {ctx_.view_3d(all, hd, p_.n_head, n, row_size(all->type, hd), all->nb[1], 0),
              ctx_.view_3d(all, hd, p_.n_head_kv, n, row_size(all->type, hd), all->nb[1], row_size(all->type, nq)),
              ctx_.view_3d(all, hd, p_.n_head_kv, n, row_size(all->type, hd), all->nb[1], row_size(all->type, nq + nk))};
    }
    Tensor* q = ctx_.mul_mat(w(p_.n_embd, nq), cur);
    if (p_.qkv_bias) q = ctx_.add(q, w32(nq));
    Tensor* k = ctx_.mul_mat(w(p_.n_embd, nk), cur);
    if (p_.qkv_bias) k = ctx_.add(k, w32(nk));
    Tensor* v = ctx_.mul_mat(w(p_.n_embd, nk), cur);
    if (p_.qkv_bias) v = ctx_.add(v, w32(nk));
    return {ctx_.reshape(q, hd, p_.n_head, n), ctx_.reshape(k, hd, p_.n_head_kv, n), ctx_.reshape(v, hd, p_.n_head_kv, n)};
  }

  /// The K and V caches of layer `il` (llama-kv-cache.cpp constructor: [n_embd_k_gqa, kv_size, n_stream]).
  Tensor* k_cache(std::int64_t size) { return ctx_.external(p_.type_k, n_embd_k_gqa(), size, p_.n_stream); }
  Tensor* v_cache(std::int64_t size) { return ctx_.external(p_.type_v, n_embd_v_gqa(), size, p_.n_stream); }

  Tensor* cpy_k(Tensor* k, Tensor* k_cur, Tensor* k_idxs, std::int64_t size) {
    const std::int64_t n_embd_gqa = k_cur->ne[0] * k_cur->ne[1];
    Tensor* kv = ctx_.view_2d(k_cur, n_embd_gqa, k_cur->ne[2], k_cur->nb[2], 0);
    if (p_.n_stream > 1) k = ctx_.reshape(k, n_embd_gqa, size * p_.n_stream);
    return ctx_.set_rows(k, kv, k_idxs);
  }
  Tensor* cpy_v(Tensor* v, Tensor* v_cur, Tensor* v_idxs, std::int64_t size) {
    const std::int64_t n_embd_gqa = v_cur->ne[0] * v_cur->ne[1];
    const std::int64_t n_tokens = v_cur->ne[2];
    if (!v_trans()) {
      Tensor* vv = ctx_.view_2d(v_cur, n_embd_gqa, n_tokens, v_cur->nb[2], 0);
      if (p_.n_stream > 1) v = ctx_.reshape(v, n_embd_gqa, size * p_.n_stream);
      return ctx_.set_rows(v, vv, v_idxs);
    }
    Tensor* vc = row_size(v_cur->type, n_embd_gqa) == v_cur->nb[2] ? ctx_.reshape(v_cur, n_embd_gqa, n_tokens)
                                                                   : ctx_.cont_2d(v_cur, n_embd_gqa, n_tokens);
    Tensor* v_view = ctx_.reshape(v, 1, nelements(v));
    vc = ctx_.reshape(vc, 1, nelements(vc));
    return ctx_.set_rows(v_view, vc, v_idxs);
  }
  Tensor* get_k(Tensor* k, std::int64_t size) {
    return ctx_.view_4d(k, n_embd_head_k(), n_head_kv(), size, p_.n_stream, row_size(k->type, n_embd_head_k()),
                        row_size(k->type, n_embd_k_gqa()), row_size(k->type, n_embd_k_gqa() * size), 0);
  }
  Tensor* get_v(Tensor* v, std::int64_t size) {
    if (!v_trans()) {
      return ctx_.view_4d(v, n_embd_head_v(), n_head_kv(), size, p_.n_stream, row_size(v->type, n_embd_head_v()),
                          row_size(v->type, n_embd_v_gqa()), row_size(v->type, n_embd_v_gqa() * size), 0);
    }
    return ctx_.view_4d(v, size, n_head_kv(), n_embd_head_v(), p_.n_stream, row_size(v->type, size * n_embd_head_v()),
                        row_size(v->type, size), row_size(v->type, size * n_embd_v_gqa()), 0);
  }

  /// build_attn_mha
  Tensor* attn_mha(Tensor* q, Tensor* k, Tensor* v, Tensor* mask, Tensor* sinks, Tensor* v_mla) {
    const bool vt = v->nb[1] > v->nb[2];
    const std::int64_t ns = k->ne[3];
    q = ctx_.view_4d(q, q->ne[0], q->ne[1], q->ne[2] / ns, ns, q->nb[1], q->nb[2], q->nb[3] / ns, 0);
    q = ctx_.permute(q, 0, 2, 1, 3);
    k = ctx_.permute(k, 0, 2, 1, 3);
    v = ctx_.permute(v, 0, 2, 1, 3);
    Tensor* cur = nullptr;
    if (p_.flash_attn) {
      if (vt) v = ctx_.transpose(v);
      cur = ctx_.flash_attn_ext(q, k, v, mask);
      cur->src[4] = sinks;
      if (v_mla != nullptr) {
        cur = ctx_.permute(cur, 0, 2, 1, 3);
        cur = ctx_.mul_mat(v_mla, cur);
        cur = ctx_.permute(cur, 0, 2, 1, 3);
        cur = ctx_.cont(cur);
      }
      cur = ctx_.reshape(cur, cur->ne[0] * cur->ne[1], cur->ne[2] * cur->ne[3]);
    } else {
      Tensor* kq = ctx_.mul_mat(k, q);
      if (p_.attn_logit_softcap) kq = ctx_.scale(ctx_.unary(ctx_.scale(kq)));
      kq = ctx_.soft_max(kq, mask);
      kq->src[2] = sinks;
      if (!vt) v = ctx_.cont(ctx_.transpose(v));
      Tensor* kqv = ctx_.mul_mat(v, kq);
      if (v_mla != nullptr) kqv = ctx_.mul_mat(v_mla, kqv);
      cur = ctx_.permute(kqv, 0, 2, 1, 3);
      cur = ctx_.cont_2d(cur, cur->ne[0] * cur->ne[1], cur->ne[2] * cur->ne[3]);
    }
    gf_.expand(cur);
    return cur;
  }

  /// build_attn (KV cache, optionally sliding-window: llm_graph_input_attn_kv / _kv_iswa)
  Tensor* attn(const KvInputs& in, Tensor* q, Tensor* k, Tensor* v, std::int64_t wo_in, bool wo_bias, Tensor* sinks, bool iswa_order) {
    if (in.k_rot != nullptr) {
      q = hadamard(q, in.k_rot);
      k = hadamard(k, in.k_rot);
    }
    if (in.v_rot != nullptr) v = hadamard(v, in.v_rot);
    gf_.expand(q);
    if (iswa_order) {
      gf_.expand(k);
      gf_.expand(v);
    } else {
      gf_.expand(v);
      gf_.expand(k);
    }
    Tensor* kc = k_cache(in.size);
    Tensor* vc = v_cache(in.size);
    gf_.expand(cpy_k(kc, k, in.k_idxs, in.size));
    gf_.expand(cpy_v(vc, v, in.v_idxs, in.size));
    Tensor* cur = attn_mha(q, get_k(kc, in.size), get_v(vc, in.size), in.kq_mask, sinks, nullptr);
    if (in.v_rot != nullptr) cur = hadamard(cur, in.v_rot);
    cur = ctx_.mul_mat(w(wo_in, p_.n_embd), cur);
    if (wo_bias) cur = ctx_.add(cur, w32(p_.n_embd));
    return cur;
  }

  /// build_ffn with a parallel gate (SILU or GELU: swiglu_split / geglu_split).
  Tensor* ffn_par(Tensor* cur, std::int64_t width) {
    Tensor* up = ctx_.mul_mat(w(p_.n_embd, width), cur);
    Tensor* gate = ctx_.mul_mat(w(p_.n_embd, width), cur);
    Tensor* act = ctx_.glu(gate, up);
    return ctx_.mul_mat(w(width, p_.n_embd), act);
  }

  /// build_moe_ffn
  Tensor* moe(Tensor* cur, bool biases, bool softmax_weight, bool sigmoid_gating, bool norm_w) {
    const std::int64_t n_tokens = cur->ne[1];
    const std::int64_t ne = p_.n_expert, k = p_.n_expert_used, ff = p_.n_ff_exp;
    Tensor* logits = ctx_.mul_mat(w32(p_.n_embd, ne), cur);
    if (biases) logits = ctx_.add(logits, w32(ne));
    Tensor* probs = softmax_weight ? logits : (sigmoid_gating ? ctx_.unary(logits) : ctx_.soft_max(logits));
    Tensor* selection = p_.exp_probs_b ? ctx_.add(probs, w32(ne)) : probs;
    Tensor* selected = ctx_.argsort_top_k(selection, k);
    probs = ctx_.reshape(probs, 1, ne, n_tokens);
    Tensor* weights = ctx_.get_rows(probs, selected);
    if (softmax_weight) {
      weights = ctx_.reshape(weights, k, n_tokens);
      weights = ctx_.soft_max(weights);
      weights = ctx_.reshape(weights, 1, k, n_tokens);
    }
    if (norm_w) {
      weights = ctx_.reshape(weights, k, n_tokens);
      Tensor* sum = ctx_.clamp(ctx_.sum_rows(weights));
      weights = ctx_.div(weights, sum);
      weights = ctx_.reshape(weights, 1, k, n_tokens);
    }
    gf_.expand(weights);
    cur = ctx_.reshape(cur, p_.n_embd, 1, n_tokens);
    Tensor* up = ctx_.mul_mat_id(w(p_.n_embd, ff, ne), cur, selected);
    if (biases) up = ctx_.add_id(up, w32(ff, ne), selected);
    Tensor* gate = ctx_.mul_mat_id(w(p_.n_embd, ff, ne), cur, selected);
    if (biases) gate = ctx_.add_id(gate, w32(ff, ne), selected);
    Tensor* act = ctx_.glu(gate, up);  // swiglu_split / swiglu_oai
    Tensor* experts = ctx_.mul_mat_id(w(ff, p_.n_embd, ne), act, selected);
    if (biases) experts = ctx_.add_id(experts, w32(p_.n_embd, ne), selected);
    experts = ctx_.mul(experts, weights);
    gf_.expand(experts);
    std::vector<Tensor*> views;
    for (std::int64_t i = 0; i < k; ++i) {
      views.push_back(ctx_.view_2d(experts, p_.n_embd, n_tokens, experts->nb[2], i * experts->nb[1]));
      gf_.expand(views.back());
    }
    Tensor* out = views[0];
    for (std::size_t i = 1; i < views.size(); ++i) {
      out = ctx_.add(out, views[i]);
      gf_.expand(out);
    }
    if (k == 1) out = ctx_.cont(out);
    return out;
  }

  /// build_inp_embd (+ the shared inputs every graph below builds first)
  Tensor* inp_embd() {
    Tensor* tokens = ctx_.input(kI32, p_.n_tokens);
    Tensor* embd = ctx_.input(kF32, p_.n_embd, p_.n_tokens);
    Tensor* rows = ctx_.get_rows(w(p_.n_embd, p_.n_vocab), tokens);
    gf_.expand(rows);  // ggml_build_forward_select: both branches are in the graph
    gf_.expand(embd);
    return rows;
  }

  /// What every graph below builds before its layers: the embeddings, the positions, the inputs of
  /// the KV cache(s) (two with sliding-window layers: llm_graph_input_attn_kv_iswa) and the output ids.
  struct Inputs {
    Tensor* embd;
    Tensor* pos;
    KvInputs base;
    KvInputs swa;
    Tensor* out_ids;
  };
  Inputs inputs(bool sliding, bool with_v) {
    Inputs in{inp_embd(), ctx_.input(kI32, p_.n_tokens), kv_inputs(p_.kv_size, with_v), {}, nullptr};
    if (sliding) in.swa = kv_inputs(p_.kv_size_swa, with_v);
    in.out_ids = ctx_.input(kI32, p_.n_outputs);
    return in;
  }
  /// The last layer computes only the output rows: cur and the residual through get_rows(out_ids).
  void last_layer_rows(int il, const Inputs& in, Tensor*& cur, Tensor*& residual) {
    if (il != p_.n_layer - 1) return;
    cur = ctx_.get_rows(cur, in.out_ids);
    residual = ctx_.get_rows(residual, in.out_ids);
  }

  Tensor* lm_head(Tensor* cur) {
    cur = norm(cur, p_.n_embd);
    cur->output = true;  // res->t_embd
    Tensor* logits = ctx_.mul_mat(w(p_.n_embd, p_.n_vocab), cur);
    if (p_.final_logit_softcap) logits = ctx_.scale(ctx_.unary(ctx_.scale(logits)));
    logits->output = true;  // res->t_logits
    return logits;
  }

  Tensor* graph_llama_qwen();
  Tensor* graph_gemma();
  Tensor* graph_phi3();
  Tensor* graph_deepseek2();
  Tensor* graph_gpt_oss();

  const GraphParams& p_;
  Ctx& ctx_;
  Graph& gf_;
};

// src/models/llama.cpp, qwen2.cpp, qwen3.cpp, qwen3moe.cpp
Tensor* Builder::graph_llama_qwen() {
  const Inputs in = inputs(false, true);
  Tensor* inpL = in.embd;
  Tensor* pos = in.pos;
  for (int il = 0; il < p_.n_layer; ++il) {
    Tensor* inpSA = inpL;
    Tensor* cur = norm(inpL, p_.n_embd);
    Qkv t = qkv(cur, false);
    if (p_.qk_norm) t.q = norm(t.q, p_.n_embd_head_k);
    t.q = ctx_.rope(t.q, pos);
    if (p_.qk_norm) t.k = norm(t.k, p_.n_embd_head_k);
    t.k = ctx_.rope(t.k, pos);
    cur = attn(in.base, t.q, t.k, t.v, p_.n_embd_head_k * p_.n_head, p_.o_bias, nullptr, false);
    last_layer_rows(il, in, cur, inpSA);
    Tensor* ffn_inp = ctx_.add(cur, inpSA);
    cur = norm(ffn_inp, p_.n_embd);
    cur = p_.n_expert > 0 ? moe(cur, false, false, false, true) : ffn_par(cur, p_.n_ff);
    inpL = ctx_.add(cur, ffn_inp);
  }
  return lm_head(inpL);
}

// src/models/gemma2.cpp, gemma3.cpp (sliding-window layers: build_attn_inp_kv_iswa)
Tensor* Builder::graph_gemma() {
  const Inputs in = inputs(true, true);
  Tensor* inpL = ctx_.scale(in.embd);
  Tensor* pos = in.pos;
  for (int il = 0; il < p_.n_layer; ++il) {
    Tensor* cur = norm(inpL, p_.n_embd);
    Qkv t = qkv(cur, false);
    if (p_.qk_norm) t.q = norm(t.q, p_.n_embd_head_k);
    t.q = ctx_.rope(t.q, pos);
    if (p_.qk_norm) t.k = norm(t.k, p_.n_embd_head_k);
    t.k = ctx_.rope(t.k, pos);
    t.q = ctx_.scale(t.q);
    cur = attn(p_.is_swa[static_cast<std::size_t>(il)] ? in.swa : in.base, t.q, t.k, t.v, p_.n_embd_head_k * p_.n_head, false, nullptr, true);
    last_layer_rows(il, in, cur, inpL);
    cur = norm(cur, p_.n_embd);
    Tensor* sa_out = ctx_.add(cur, inpL);
    cur = norm(sa_out, p_.n_embd);
    cur = ffn_par(cur, p_.n_ff);
    cur = norm(cur, p_.n_embd);
    inpL = ctx_.add(cur, sa_out);
  }
  return lm_head(inpL);
}

// src/models/phi3.cpp (its window is switched off: one full cache)
Tensor* Builder::graph_phi3() {
  const Inputs in = inputs(false, true);
  Tensor* inpL = in.embd;
  Tensor* pos = in.pos;
  for (int il = 0; il < p_.n_layer; ++il) {
    Tensor* residual = inpL;
    Tensor* cur = norm(inpL, p_.n_embd);
    Qkv t = qkv(cur, true);
    t.q = ctx_.rope(t.q, pos);
    t.k = ctx_.rope(t.k, pos);
    t.q = ctx_.scale(t.q);
    cur = attn(in.base, t.q, t.k, t.v, p_.n_embd, false, nullptr, false);
    last_layer_rows(il, in, cur, residual);
    cur = ctx_.add(cur, residual);
    residual = cur;
    cur = norm(cur, p_.n_embd);
    // build_ffn(LLM_FFN_SWIGLU, LLM_FFN_SEQ): one fused up projection, swiglu halves it
    cur = ctx_.mul_mat(w(p_.n_embd, 2 * p_.n_ff), cur);
    cur = ctx_.glu(cur, nullptr);
    cur = ctx_.mul_mat(w(p_.n_ff, p_.n_embd), cur);
    inpL = ctx_.add(residual, cur);
  }
  return lm_head(inpL);
}

// src/models/deepseek2.cpp with MLA (the absorption path: build_attn_inp_k, K-only cache)
Tensor* Builder::graph_deepseek2() {
  const std::int64_t n = p_.n_tokens, nh = p_.n_head;
  const std::int64_t rope = p_.n_embd_head_qk_rope, nope = p_.n_embd_head_k_mla - rope, lora = p_.kv_lora_rank;
  const Inputs in = inputs(false, false);
  const KvInputs& kv = in.base;
  Tensor* inpL = in.embd;
  Tensor* pos = in.pos;
  for (int il = 0; il < p_.n_layer; ++il) {
    Tensor* inpSA = inpL;
    Tensor* cur = norm(inpL, p_.n_embd);
    Tensor* q = nullptr;
    if (p_.q_lora_rank > 0) {
      q = ctx_.mul_mat(w(p_.n_embd, p_.q_lora_rank), cur);
      q = norm(q, p_.q_lora_rank);
      q = ctx_.mul_mat(w(p_.q_lora_rank, nh * p_.n_embd_head_k_mla), q);
    } else {
      q = ctx_.mul_mat(w(p_.n_embd, nh * p_.n_embd_head_k_mla), cur);
    }
    q = ctx_.reshape(q, p_.n_embd_head_k_mla, nh, n);
    Tensor* kv_cmpr_pe = ctx_.mul_mat(w(p_.n_embd, lora + rope), cur);
    Tensor* kv_cmpr = ctx_.view_2d(kv_cmpr_pe, lora, n, row_size(kv_cmpr_pe->type, lora + rope), 0);
    Tensor* k_pe = ctx_.view_3d(kv_cmpr_pe, rope, 1, n, row_size(kv_cmpr_pe->type, lora + rope), row_size(kv_cmpr_pe->type, lora + rope),
                                row_size(kv_cmpr_pe->type, lora));
    k_pe = ctx_.rope(k_pe, pos);
    kv_cmpr = norm(kv_cmpr, lora);
    Tensor* q_nope = ctx_.view_3d(q, nope, nh, n, q->nb[1], q->nb[2], 0);
    Tensor* q_pe = ctx_.view_3d(q, rope, nh, n, q->nb[1], q->nb[2], row_size(q->type, nope));
    q_pe = ctx_.rope(q_pe, pos);
    q_nope = ctx_.permute(q_nope, 0, 2, 1, 3);
    Tensor* absorbed = ctx_.mul_mat(w(nope, lora, nh), q_nope);
    absorbed = ctx_.permute(absorbed, 0, 2, 1, 3);
    Tensor* Qcur = ctx_.concat(absorbed, q_pe, 0);
    kv_cmpr = ctx_.reshape(kv_cmpr, lora, 1, n);
    Tensor* Kcur = ctx_.concat(kv_cmpr, k_pe, 0);
    Tensor* Vcur = kv_cmpr;
    // build_attn(llm_graph_input_attn_k *): q, v, k expanded; K stored; V is a view of K
    gf_.expand(Qcur);
    gf_.expand(Vcur);
    gf_.expand(Kcur);
    Tensor* kc = k_cache(kv.size);
    gf_.expand(cpy_k(kc, Kcur, kv.k_idxs, kv.size));
    Tensor* k = get_k(kc, kv.size);
    Tensor* v = ctx_.view_4d(k, Vcur->ne[0], k->ne[1], k->ne[2], k->ne[3], k->nb[1], k->nb[2], k->nb[3], 0);
    cur = attn_mha(Qcur, k, v, kv.kq_mask, nullptr, w(lora, p_.n_embd_head_v_mla, nh));
    cur = ctx_.mul_mat(w(nh * p_.n_embd_head_v_mla, p_.n_embd), cur);
    last_layer_rows(il, in, cur, inpSA);
    Tensor* ffn_inp = ctx_.add(cur, inpSA);
    cur = norm(ffn_inp, p_.n_embd);
    if (il < p_.n_layer_dense_lead || p_.n_expert <= 0) {  // a config of the family without experts: dense
      cur = ffn_par(cur, p_.n_ff);
    } else {
      Tensor* moe_out = moe(cur, false, false, p_.exp_probs_b, p_.expert_weights_norm);
      Tensor* shexp = ffn_par(cur, p_.n_ff_shexp);
      cur = ctx_.add(moe_out, shexp);
    }
    inpL = ctx_.add(cur, ffn_inp);
  }
  return lm_head(inpL);
}

// src/models/openai-moe.cpp (gpt-oss: sliding layers, sinks, biased experts)
Tensor* Builder::graph_gpt_oss() {
  const Inputs in = inputs(true, true);
  Tensor* inpL = in.embd;
  Tensor* pos = in.pos;
  for (int il = 0; il < p_.n_layer; ++il) {
    Tensor* inpSA = inpL;
    Tensor* cur = norm(inpL, p_.n_embd);
    Qkv t = qkv(cur, false);
    t.q = ctx_.rope(t.q, pos);
    t.k = ctx_.rope(t.k, pos);
    cur = attn(p_.is_swa[static_cast<std::size_t>(il)] ? in.swa : in.base, t.q, t.k, t.v, p_.n_embd_head_k * p_.n_head, true,
               w32(p_.n_head), true);
    Tensor* ffn_inp = ctx_.add(cur, inpSA);
    cur = norm(ffn_inp, p_.n_embd);
    cur = p_.n_expert > 0 ? moe(cur, true, true, false, false) : ffn_par(cur, p_.n_ff);  // no experts: dense
    inpL = ctx_.add(cur, ffn_inp);
  }
  inpL->output = true;  // res->t_h_nextn
  inpL = ctx_.get_rows(inpL, in.out_ids);
  return lm_head(inpL);
}

Tensor* Builder::build() {
  switch (p_.graph) {
    case LlamaCppGraph::llama: return graph_llama_qwen();
    case LlamaCppGraph::gemma: return graph_gemma();
    case LlamaCppGraph::phi3: return graph_phi3();
    case LlamaCppGraph::deepseek2: return graph_deepseek2();
    case LlamaCppGraph::openai_moe: return graph_gpt_oss();
    case LlamaCppGraph::none: break;
  }
  throw std::invalid_argument("no llama.cpp graph builder chosen");
}

/// One micro-batch's graph, built: its tensors (ctx) in ggml_build_forward_expand's order (gf).
struct BuiltGraph {
  Ctx ctx;
  Graph gf;
  explicit BuiltGraph(const GraphParams& params) {
    // Room for a shortened graph's nodes and leaves (a few hundred of each), so that the lists do
    // not grow a copy at a time while the graph is walked.
    gf.nodes.reserve(1024);
    gf.leafs.reserve(512);
    Builder b(params, ctx, gf);
    gf.expand(b.build());
  }
};

}  // namespace

std::int64_t compute_buffer_bytes_all_layers(const GraphParams& params) {
  BuiltGraph g(params);
  return allocate(g.gf);
}

namespace {

/// input_bytes of a built graph (the allocator leaves the leaves' shapes as they are: before or after it alike).
std::int64_t graph_input_bytes(const Graph& gf, const GraphParams& params) {
  std::int64_t bytes = 0;
  for (const Tensor* leaf : gf.leafs) {
    if (leaf->input) bytes += DynAllocator::align(nbytes(leaf));
  }
  // the token embedding lookup (get_rows on token_embd, which stays on the CPU)
  return bytes + DynAllocator::align(params.n_embd * params.n_tokens * 4);
}

}  // namespace

std::int64_t input_bytes_all_layers(const GraphParams& params) { return graph_input_bytes(BuiltGraph(params).gf, params); }

namespace {

/// Where shortened() cuts the layers: the first `head` and the last `tail` kept, the ones between
/// whole repeats of `cycle` layers.
struct LayerCut {
  int head = 0;
  int tail = 0;
  int cycle = 1;
};

LayerCut layer_cut(const GraphParams& params) {
  // The layers repeat: every layer of a kind builds the same nodes, and only the residual stream
  // and the graph inputs live from one layer into the next, so after a few layers the allocator
  // starts each layer in the state it started an earlier one in (the residual alternating between
  // two places). The buffer's high-water mark is then reached within the first layers of each
  // kind, the last layer (which keeps only the output rows) and the head. A graph with the first
  // layers and the last ones, the pattern of sliding layers kept in phase, has the same high-water
  // mark (checked against the whole graph for every preset and against llama.cpp itself,
  // tests/llama_cpp_validation_test.cpp; against the whole graph, tests/llama_cpp_graph_test.cpp)
  // at a fraction of the nodes.
  const int n = params.n_layer;
  int period = 1;
  while (period < n) {
    bool repeats = true;
    for (int i = 0; i + period < n && repeats; ++i) repeats = params.is_swa[static_cast<std::size_t>(i)] == params.is_swa[static_cast<std::size_t>(i + period)];
    if (repeats) break;
    ++period;
  }
  const int cycle = period % 2 == 0 ? period : 2 * period;  // the residual's two places and the sliding pattern
  const int tail = cycle + 1;
  int head = params.n_layer_dense_lead + 2 * cycle;
  head += ((n - tail - head) % cycle + cycle) % cycle;  // the tail continues the head's phase
  return {head, tail, cycle};
}

/// `params` with the layers of `cut` and `extra_cycles` more repeats between them.
GraphParams with_layers(const GraphParams& params, const LayerCut& cut, int extra_cycles) {
  GraphParams reduced = params;
  const int head = cut.head + extra_cycles * cut.cycle;
  const int tail = cut.tail;
  reduced.n_layer = head + tail;
  reduced.is_swa.assign(params.is_swa.begin(), params.is_swa.begin() + head);
  reduced.is_swa.insert(reduced.is_swa.end(), params.is_swa.end() - tail, params.is_swa.end());
  return reduced;
}

/// The graph compute_buffer_bytes and input_bytes build in place of the whole one.
GraphParams shortened(const GraphParams& params) {
  const LayerCut cut = layer_cut(params);
  if (cut.head + cut.tail >= params.n_layer) return params;
  return with_layers(params, cut, 0);
}

}  // namespace

std::int64_t compute_buffer_bytes(const GraphParams& params) { return compute_buffer_bytes_all_layers(shortened(params)); }

/// The shortened graph has every input of the whole one: each is made once per graph (kv_inputs,
/// the token and output ids), and the head and the tail keep every kind of layer (full attention,
/// sliding window) and the last layer, which uses the output ids.
std::int64_t input_bytes(const GraphParams& params) { return input_bytes_all_layers(shortened(params)); }

std::int64_t compute_buffer_bytes_above(const GraphParams& params, std::int64_t floor, std::int64_t* tensors_sum) {
  BuiltGraph g(shortened(params));
  // What allocate() would lay out: every leaf and node of the buffer's own (no view, nothing
  // external), each at most once; an in-place node takes its parent's place and allocates nothing.
  std::int64_t laid_out = 0;
  for (const std::vector<Tensor*>* list : {&g.gf.leafs, &g.gf.nodes}) {
    for (const Tensor* t : *list) {
      if (!t->external && !is_view(t)) laid_out += DynAllocator::align(nbytes(t));
    }
  }
  if (tensors_sum != nullptr) *tensors_sum = laid_out;
  // ggml_dyn_tallocr_alloc moves the buffer's end by at most the size it allocates (a block it
  // takes starts at or below the end), so the high-water mark is at most the sum of the sizes.
  return laid_out <= floor ? laid_out : allocate(g.gf);
}

GraphBytes graph_bytes(const GraphParams& params) {
  const GraphParams reduced = shortened(params);
  BuiltGraph g(reduced);
  GraphBytes out;
  out.inputs = graph_input_bytes(g.gf, reduced);
  out.compute = allocate(g.gf);
  return out;
}

namespace {

DispatchedNodes dispatched_nodes_of(const Graph& gf) {
  DispatchedNodes n;
  for (const Tensor* t : gf.nodes) {
    const bool layout_only = t->op == Op::view || t->op == Op::reshape || t->op == Op::permute || t->op == Op::transpose || t->op == Op::none;
    if (layout_only || nelements(t) == 0) continue;
    ++n.all;
    if (t->op == Op::mul_mat || t->op == Op::mul_mat_id || t->op == Op::flash_attn_ext) ++n.streaming;
  }
  return n;
}

}  // namespace

DispatchedNodes dispatched_nodes(const GraphParams& params) {
  const LayerCut cut = layer_cut(params);
  if (cut.head + cut.tail >= params.n_layer) return dispatched_nodes_of(BuiltGraph(params).gf);
  // The layers shortened() leaves out are whole repeats of `cycle` layers, each building the same
  // nodes: the graph with one repeat more tells how many.
  const DispatchedNodes kept = dispatched_nodes_of(BuiltGraph(with_layers(params, cut, 0)).gf);
  const DispatchedNodes one_more = dispatched_nodes_of(BuiltGraph(with_layers(params, cut, 1)).gf);
  const int repeats = (params.n_layer - cut.head - cut.tail) / cut.cycle;
  return {kept.all + repeats * (one_more.all - kept.all), kept.streaming + repeats * (one_more.streaming - kept.streaming)};
}

}  // namespace llmsizer::llama_cpp_graph
