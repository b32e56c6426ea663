#!/usr/bin/env python3
"""Dev tool (not part of the build): recompute each preset's parameter count from its config.json
and compare it with the published count stored beside it.

Usage: python3 tools/check_presets.py [data/models]   (exit 1 when a file is malformed)

The count follows the Hugging Face module layout of each model_type (weights and biases of every
nn.Linear / nn.Embedding / norm; transformers, mlx-lm and mlx-vlm model files); it is a cross-check
for the data, written independently of the C++ core. A preset's published_params_includes names
the parts (MTP layers, their embedding copies) its published figure holds beyond the total.
"""
import json
import os
import sys

REQUIRED_KEYS = ["id", "name", "family", "hf_repo", "source", "published_params",
                 "published_params_source", "published_params_note", "config"]
ALLOWED_EXTRA = {"config_note", "published_params_exact", "published_params_includes"}


GEMMA3_TEXT_DEFAULTS = {
    "vocab_size": 262208, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
    "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "tie_word_embeddings": True,
}


def g(c, *names, default=None):
    for n in names:
        if n in c and c[n] is not None:
            return c[n]
    return default


def lin(i, o, bias=False):
    return i * o + (o if bias else 0)


def glu(h, inter, bias=False):
    return 3 * h * inter + ((2 * inter + h) if bias else 0)


def siglip_vision(vc):
    hv, inter, layers = vc["hidden_size"], vc["intermediate_size"], vc["num_hidden_layers"]
    patch, image, chans = vc["patch_size"], vc["image_size"], vc.get("num_channels", 3)
    emb = chans * patch * patch * hv + hv + (image // patch) ** 2 * hv
    per = 4 * (hv * hv + hv) + 4 * hv + (hv * inter + inter) + (inter * hv + hv)
    return emb + layers * per + 2 * hv


def llama4_vision(vc, text_h):
    hv, inter, L = vc["hidden_size"], vc["intermediate_size"], vc["num_hidden_layers"]
    p, img, ch = vc["patch_size"], vc["image_size"], vc.get("num_channels", 3)
    pos = (img // p) ** 2 + 1
    emb = ch * p * p * hv + hv + pos * hv + 4 * hv  # patch linear, class emb, pos emb, ln_pre/post (w+b)
    per = 4 * (hv * hv + hv) + (hv * inter + inter) + (inter * hv + hv) + 4 * hv
    r = vc["pixel_shuffle_ratio"]
    adapter_in = int(hv / (r * r))
    adapter = adapter_in * vc["projector_input_dim"] + vc["projector_input_dim"] * vc["projector_output_dim"]
    projector = vc["vision_output_dim"] * text_h
    return emb + L * per + adapter + projector


def qwen3vl_vision(vc):
    hv, inter, L = vc["hidden_size"], vc["intermediate_size"], vc["depth"]
    p, t, ch = vc["patch_size"], vc["temporal_patch_size"], vc.get("in_channels", 3)
    m = vc["spatial_merge_size"]
    M = hv * m * m
    out = vc["out_hidden_size"]
    emb = ch * t * p * p * hv + hv + vc["num_position_embeddings"] * hv
    per = 4 * hv + lin(hv, 3 * hv, True) + lin(hv, hv, True) + lin(hv, inter, True) + lin(inter, hv, True)
    merger = 2 * hv + lin(M, M, True) + lin(M, out, True)
    deep = len(vc.get("deepstack_visual_indexes") or []) * (2 * M + lin(M, M, True) + lin(M, out, True))
    return emb + L * per + merger + deep


def qwen25vl_vision(vc):
    # Qwen2.5-VL: Conv3d patch embedding without bias; per block two RMSNorms, qkv and proj with
    # biases, a gated MLP with biases; merger: RMSNorm, Linear(merged, merged), Linear(merged, out).
    hv, inter, L = vc["hidden_size"], vc["intermediate_size"], vc["depth"]
    p, t, ch = vc["patch_size"], vc.get("temporal_patch_size", 2), g(vc, "in_channels", "in_chans", default=3)
    M = hv * vc.get("spatial_merge_size", 2) ** 2
    per = 2 * hv + lin(hv, 3 * hv, True) + lin(hv, hv, True) + 2 * lin(hv, inter, True) + lin(inter, hv, True)
    return ch * t * p * p * hv + L * per + hv + lin(M, M, True) + lin(M, vc["out_hidden_size"], True)


def pixtral_vision(vc, text_h, bias):
    hv, inter, L = vc["hidden_size"], vc["intermediate_size"], vc["num_hidden_layers"]
    p, ch = vc["patch_size"], vc.get("num_channels", 3)
    tower = ch * p * p * hv + hv + L * (2 * hv + 4 * hv * hv + 3 * hv * inter)
    return tower


def mistral3_projector(cfg, hv, text_h):
    m = cfg.get("spatial_merge_size", 2)
    bias = cfg.get("multimodal_projector_bias", False)
    return hv + hv * m * m * hv + lin(hv, text_h, bias) + lin(text_h, text_h, bias)


def attn(h, heads, kv, hd, qkv_bias=False, o_bias=False, vd=None, gate=False, k_eq_v=False):
    vd = hd if vd is None else vd
    q = h * heads * hd * (2 if gate else 1) + (heads * hd * (2 if gate else 1) if qkv_bias else 0)
    k = h * kv * hd + (kv * hd if qkv_bias else 0)
    v = 0 if k_eq_v else h * kv * vd + (kv * vd if qkv_bias else 0)
    o = heads * vd * h + (h if o_bias else 0)
    return q + k + v + o


def mla(c, h, heads):
    ql, kl = c.get("q_lora_rank"), c["kv_lora_rank"]
    rope, nope, vh = c["qk_rope_head_dim"], c["qk_nope_head_dim"], c["v_head_dim"]
    qh = nope + rope
    q = (h * ql + ql + ql * heads * qh) if ql else h * heads * qh
    return q + h * (kl + rope) + kl + kl * heads * (nope + vh) + heads * vh * h


def indexer(c, h):
    if "index_n_heads" not in c:
        return 0
    n, d = c["index_n_heads"], c["index_head_dim"]
    return c["q_lora_rank"] * n * d + h * d + 2 * d + h * n


def gdn(c, h):
    nk, nv = c["linear_num_key_heads"], c["linear_num_value_heads"]
    dk, dv = c["linear_key_head_dim"], c["linear_value_head_dim"]
    kern = c["linear_conv_kernel_dim"]
    kd, vd = nk * dk, nv * dv
    return h * (2 * kd + 2 * vd) + h * 2 * nv + (2 * kd + vd) * kern + 2 * nv + dv + vd * h


def mamba2(h, nheads, hdim, ngroups, dstate, dconv, conv_bias=True, proj_bias=False):
    d_inner = nheads * hdim
    conv_dim = d_inner + 2 * ngroups * dstate
    in_proj = h * (d_inner + conv_dim + nheads) + ((d_inner + conv_dim + nheads) if proj_bias else 0)
    conv = conv_dim * dconv + (conv_dim if conv_bias else 0)
    out = d_inner * h + (h if proj_bias else 0)
    return in_proj + conv + 3 * nheads + d_inner + out


def count(cfg):
    """Returns dict(total, active, vision, mtp)."""
    mt = cfg.get("model_type")
    if "text_config" in cfg and isinstance(cfg["text_config"], dict):
        tc = dict(cfg["text_config"])
        if mt == "gemma3":
            tc.setdefault("model_type", "gemma3_text")
            for k, v in GEMMA3_TEXT_DEFAULTS.items():
                tc.setdefault(k, v)
        if "tie_word_embeddings" not in tc and "tie_word_embeddings" in cfg:
            tc["tie_word_embeddings"] = cfg["tie_word_embeddings"]
        r = count(tc)
        vc = cfg.get("vision_config") or {}
        th = tc["hidden_size"]
        vision = 0
        if mt == "gemma3":
            vision = siglip_vision(vc) + vc["hidden_size"] * th + vc["hidden_size"]
        elif mt == "gemma4":
            hv, vi, vl = vc["hidden_size"], vc["intermediate_size"], vc["num_hidden_layers"]
            vh, vhd = vc["num_attention_heads"], vc.get("head_dim") or hv // vc["num_attention_heads"]
            vkv = vc.get("num_key_value_heads") or vh
            per = hv * vh * vhd * 2 + hv * vkv * vhd * 2 + 2 * vhd + 3 * hv * vi + 4 * hv
            vision = 3 * vc["patch_size"] ** 2 * hv + 2 * vc["position_embedding_size"] * hv + vl * per + (2 * hv if vc.get("standardize") else 0) + hv * th
        elif mt == "llama4":
            vision = llama4_vision(vc, th)
        elif mt in ("qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe"):
            vision = qwen3vl_vision(vc)
        elif mt == "qwen2_5_vl":
            vision = qwen25vl_vision(vc)
        elif mt == "mistral3":
            vision = pixtral_vision(vc, th, False) + mistral3_projector(cfg, vc["hidden_size"], th)
        r["total"] += vision
        r["vision"] = vision
        return r
    h = cfg["hidden_size"]
    L = cfg["num_hidden_layers"]
    V = cfg["vocab_size"]
    heads = cfg["num_attention_heads"]
    kv = g(cfg, "num_key_value_heads", default=heads)
    hd = g(cfg, "head_dim", default=h // heads)
    inter = g(cfg, "intermediate_size")
    tie = cfg.get("tie_word_embeddings", mt in ("gemma", "gemma2", "gemma3_text", "gemma4_text", "cohere", "cohere2"))
    total = V * h + (0 if tie else V * h) + h  # embed, head, final norm
    active = total
    mtp = 0

    def add(t, a=None):
        nonlocal total, active
        total += t
        active += t if a is None else a

    if mt == "qwen2_5_vl" and cfg.get("vision_config"):  # text fields at the top level
        r = count(dict(cfg, model_type="qwen2_5_vl_text", vision_config=None))
        vision = qwen25vl_vision(cfg["vision_config"])
        r["total"] += vision
        r["vision"] = vision
        return r
    if mt in ("llama", "mistral", "qwen2", "qwen2_5_vl_text", "qwen3", "phi3", "gemma", "internlm2", "exaone4", "granite", "smollm3", "ministral", "ministral3",
              "olmo2", "olmo3", "qwen3_vl_text", "gemma2", "gemma3_text", "cohere", "cohere2"):
        qkv_bias = mt in ("qwen2", "qwen2_5_vl_text") or bool(cfg.get("attention_bias", False))
        o_bias = bool(cfg.get("attention_bias", False))
        a = attn(h, heads, kv, hd, qkv_bias, o_bias)
        if mt in ("qwen3", "qwen3_vl_text", "gemma3_text", "exaone4"):
            a += 2 * hd
        if mt in ("olmo2", "olmo3"):
            a += heads * hd + kv * hd
        if mt == "cohere" and cfg.get("use_qk_norm"):
            a += heads * hd + kv * hd  # LayerNorm2D over (heads, head_dim): weight only
        norms = {"gemma2": 4, "gemma3_text": 4, "cohere": 1, "cohere2": 1}.get(mt, 2)
        norm_w = h * (2 if mt == "cohere2" and cfg.get("layer_norm_bias") else 1)
        per = a + glu(h, inter, bool(cfg.get("mlp_bias", False))) + norms * norm_w
        add(L * per)
    elif mt == "mixtral":
        E, k = cfg["num_local_experts"], cfg["num_experts_per_tok"]
        base = attn(h, heads, kv, hd) + 2 * h + h * E
        add(L * (base + E * glu(h, inter)), L * (base + k * glu(h, inter)))
    elif mt in ("qwen2_moe", "qwen3_moe", "qwen3_vl_moe_text"):
        E, k, mi = g(cfg, "num_experts", "num_local_experts"), cfg["num_experts_per_tok"], cfg["moe_intermediate_size"]
        sh = cfg.get("shared_expert_intermediate_size", 0) or 0
        step = cfg.get("decoder_sparse_step", 1) or 1
        dense_only = set(cfg.get("mlp_only_layers", []) or [])
        a = attn(h, heads, kv, hd, mt == "qwen2_moe", False) + (2 * hd if mt != "qwen2_moe" else 0)
        for i in range(L):
            base = a + 2 * h
            if i not in dense_only and (i + 1) % step == 0:
                shared = (glu(h, sh) + h) if sh else 0
                add(base + h * E + E * glu(h, mi) + shared, base + h * E + k * glu(h, mi) + shared)
            else:
                add(base + glu(h, inter))
    elif mt in ("qwen3_next", "qwen3_5_text", "qwen3_5_moe_text"):
        E = cfg.get("num_experts", 0) or 0
        types = cfg.get("layer_types") or ["full_attention" if (i + 1) % cfg["full_attention_interval"] == 0 else "linear_attention" for i in range(L)]
        full = attn(h, heads, kv, hd, gate=True) + 2 * hd
        lin_a = gdn(cfg, h)
        if E:
            k, mi, sh = cfg["num_experts_per_tok"], cfg["moe_intermediate_size"], cfg["shared_expert_intermediate_size"]
            mlp_t, mlp_a = h * E + glu(h, sh) + h + E * glu(h, mi), h * E + glu(h, sh) + h + k * glu(h, mi)
        else:
            mlp_t = mlp_a = glu(h, inter)
        for i in range(L):
            a = full if types[i] == "full_attention" else lin_a
            add(a + 2 * h + mlp_t, a + 2 * h + mlp_a)
        n_mtp = cfg.get("mtp_num_hidden_layers", 0) or 0
        # Qwen3-Next / Qwen3.5 MTP: fc (2h -> h), two pre-fc norms, n decoder layers (full attention), final norm.
        mtp = n_mtp * (full + 2 * h + mlp_t) + (2 * h * h + 2 * h + h if n_mtp else 0)
    elif mt in ("deepseek_v3", "deepseek_v2", "kimi_k2", "deepseek_v32", "glm_moe_dsa"):
        E, k = cfg["n_routed_experts"], cfg["num_experts_per_tok"]
        ns = cfg.get("n_shared_experts", 0) or 0
        mi = cfg["moe_intermediate_size"]
        fk = cfg.get("first_k_dense_replace", 0)
        freq = cfg.get("moe_layer_freq", 1)
        a = mla(cfg, h, heads) + indexer(cfg, h)
        gate_bias = E if mt != "deepseek_v2" else 0

        def layer(i):
            base = a + 2 * h
            if i >= fk and i % freq == 0:
                common = base + h * E + gate_bias + ns * glu(h, mi)
                return common + E * glu(h, mi), common + k * glu(h, mi)
            d = base + glu(h, inter)
            return d, d
        for i in range(L):
            add(*layer(i))
        for j in range(cfg.get("num_nextn_predict_layers", 0) or 0):
            t, _ = layer(L + j)
            mtp += t + 2 * h + 2 * h * h + h + (2 * V * h if mt in ("deepseek_v3", "deepseek_v32") else 0)
    elif mt == "glm4_moe":
        E, k, mi = cfg["n_routed_experts"], cfg["num_experts_per_tok"], cfg["moe_intermediate_size"]
        ns = cfg.get("n_shared_experts", 0) or 0
        fk = cfg.get("first_k_dense_replace", 0)
        a = attn(h, heads, kv, hd, bool(cfg.get("attention_bias")), False) + (2 * hd if cfg.get("use_qk_norm") else 0)

        def layer(i):
            base = a + 2 * h
            if i >= fk:
                common = base + h * E + E + ns * glu(h, mi)
                return common + E * glu(h, mi), common + k * glu(h, mi)
            return base + glu(h, inter), base + glu(h, inter)
        for i in range(L):
            add(*layer(i))
        for j in range(cfg.get("num_nextn_predict_layers", 0) or 0):
            t, _ = layer(L + j)
            # GLM-4.5 MTP layer (checkpoint layer L): eh_proj (2h -> h), enorm, hnorm, shared_head.norm.
            mtp += t + 2 * h * h + 3 * h
    elif mt == "minimax_m2":
        E, k = cfg["num_local_experts"], cfg["num_experts_per_tok"]
        a = attn(h, heads, kv, hd) + heads * hd + kv * hd  # per_layer qk norm: full width
        base = a + 2 * h + h * E + E
        add(L * (base + E * glu(h, inter)), L * (base + k * glu(h, inter)))
    elif mt == "gpt_oss":
        E = cfg["num_local_experts"]
        k = cfg.get("num_experts_per_tok", cfg.get("experts_per_token"))
        a = attn(h, heads, kv, hd, True, True) + heads
        expert = h * 2 * inter + 2 * inter + inter * h + h
        base = a + 2 * h + h * E + E
        add(L * (base + E * expert), L * (base + k * expert))
    elif mt == "llama4_text":
        E, k = cfg["num_local_experts"], cfg["num_experts_per_tok"]
        step = cfg.get("interleave_moe_layer_step", 1)
        mlp_dense = cfg["intermediate_size_mlp"]
        a = attn(h, heads, kv, hd)
        for i in range(L):
            base = a + 2 * h
            if (i + 1) % step == 0:
                common = base + h * E + glu(h, inter)  # router, shared expert
                add(common + E * glu(h, inter), common + k * glu(h, inter))
            else:
                add(base + glu(h, mlp_dense))
    elif mt == "gemma4_text":
        types = cfg["layer_types"]
        shared = cfg.get("num_kv_shared_layers", 0) or 0
        first_shared = L - shared
        ghd = cfg.get("global_head_dim") or hd
        gkv = cfg.get("num_global_key_value_heads") or kv
        keqv = cfg.get("attention_k_eq_v", False)
        E = cfg.get("num_experts") or 0
        ple = cfg.get("hidden_size_per_layer_input") or 0
        for i in range(L):
            full = types[i] == "full_attention"
            d = ghd if full else hd
            nkv = gkv if (full and keqv) else kv
            has_kv = not (shared and i >= first_shared)
            a = h * heads * d + heads * d * h + d  # q, o, q_norm
            if has_kv:
                a += h * nkv * d + (0 if (full and keqv) else h * nkv * d) + d  # k, v, k_norm
            wide = 2 if (cfg.get("use_double_wide_mlp") and shared and i >= first_shared) else 1
            m = glu(h, inter * wide)
            norms = 4 * h + 1  # 4 norms + layer_scalar
            mt_t = mt_a = 0
            if cfg.get("enable_moe_block") and E:
                k = cfg["top_k_experts"]
                mi = cfg["moe_intermediate_size"]
                router = h * E + h + E
                mt_t = router + E * glu(h, mi) + 3 * h
                mt_a = router + k * glu(h, mi) + 3 * h
            p = (2 * h * ple + h) if ple else 0
            add(a + m + norms + mt_t + p, a + m + norms + mt_a + p)
        if ple:
            add(cfg["vocab_size_per_layer_input"] * L * ple + h * L * ple + ple)
    elif mt == "mimo_v2_flash":
        pat = cfg["hybrid_layer_pattern"]
        freq = cfg["moe_layer_freq"]
        E, k, mi = cfg["n_routed_experts"], cfg["num_experts_per_tok"], cfg["moe_intermediate_size"]
        for i in range(L):
            if pat[i]:
                a = attn(h, cfg["swa_num_attention_heads"], cfg["swa_num_key_value_heads"], cfg["swa_head_dim"], vd=cfg["swa_v_head_dim"])
                a += cfg["swa_num_attention_heads"] if cfg.get("add_swa_attention_sink_bias") else 0
            else:
                a = attn(h, heads, kv, hd, vd=cfg["v_head_dim"])
                a += heads if cfg.get("add_full_attention_sink_bias") else 0
            if freq[i]:
                add(a + 2 * h + h * E + E + E * glu(h, mi), a + 2 * h + h * E + E + k * glu(h, mi))
            else:
                add(a + 2 * h + glu(h, inter))
    elif mt == "nemotron_h":
        pat = cfg["hybrid_override_pattern"]
        nh, hdim = cfg["mamba_num_heads"], cfg["mamba_head_dim"]
        for ch in pat:
            if ch == "M":
                add(h + mamba2(h, nh, hdim, cfg["n_groups"], cfg["ssm_state_size"], cfg["conv_kernel"], cfg.get("use_conv_bias", True), cfg.get("mamba_proj_bias", False)))
            elif ch == "*":
                add(h + attn(h, heads, kv, g(cfg, "head_dim", "attention_head_dim", default=h // heads)))
            elif ch == "-":
                add(h + 2 * h * inter)
            elif ch == "E":
                E, k = cfg["n_routed_experts"], cfg["num_experts_per_tok"]
                mi, sh = cfg["moe_intermediate_size"], cfg["moe_shared_expert_intermediate_size"]
                common = h + h * E + E + 2 * h * sh
                add(common + E * 2 * h * mi, common + k * 2 * h * mi)
    elif mt == "granitemoehybrid":
        types = cfg["layer_types"]
        E = cfg.get("num_local_experts", 0) or 0
        nh, hdim = cfg.get("mamba_n_heads", 0), cfg.get("mamba_d_head", 0)
        sh = cfg.get("shared_intermediate_size") or 0
        for t in types:
            if t == "mamba":
                a = mamba2(h, nh, hdim, cfg["mamba_n_groups"], cfg["mamba_d_state"], cfg["mamba_d_conv"], cfg.get("mamba_conv_bias", True), cfg.get("mamba_proj_bias", False))
            else:
                a = attn(h, heads, kv, hd, cfg.get("attention_bias", False), cfg.get("attention_bias", False))
            if E:
                k, mi = cfg["num_experts_per_tok"], cfg["intermediate_size"]
                common = a + 2 * h + h * E + 3 * h * sh
                add(common + E * glu(h, mi), common + k * glu(h, mi))
            else:
                add(a + 2 * h + 3 * h * sh)
    elif mt == "nemotron-nas":
        for b in cfg["block_configs"]:
            at, ff = b["attention"], b["ffn"]
            t = 0
            if not at.get("no_op"):
                if at.get("replace_with_linear"):
                    t += h * h
                else:
                    t += h + attn(h, heads, heads // at["n_heads_in_group"], hd)
            if not ff.get("no_op"):
                if ff.get("replace_with_linear"):
                    t += h * h
                else:
                    # DeciLM _ffn_mult_to_intermediate_size: int(2 * mult * h / 3) rounded up to 256.
                    isz = int(2 * ff["ffn_mult"] * h / 3)
                    isz = isz if isz % 256 == 0 else isz + 256 - isz % 256
                    t += h + glu(h, isz)
            add(t)
    else:
        raise ValueError("no counting rule for model_type %r" % mt)
    return {"total": total, "active": active, "vision": 0, "mtp": mtp}


def published_scope(doc, r):
    """count()'s total plus the parts the published figure also holds (published_params_includes)."""
    cfg = doc["config"]
    tc = cfg.get("text_config", cfg)
    total = r["total"]
    for part in doc.get("published_params_includes", []):
        if part == "mtp":
            total += r["mtp"]
        elif part == "mtp_embedding_copies":
            n = tc.get("num_nextn_predict_layers") or tc.get("mtp_num_hidden_layers") or 0
            total += n * 2 * tc["vocab_size"] * tc["hidden_size"]
        elif part == "undeclared_mtp_layer":
            c2 = json.loads(json.dumps(cfg))
            c2.get("text_config", c2)["mtp_num_hidden_layers"] = 1
            total += count(c2)["mtp"]
        elif part == "tied_lm_head_copy":
            total += tc["vocab_size"] * tc["hidden_size"]
    return total


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "data", "models")
    bad = False
    print("%-40s %16s %16s %9s" % ("id", "computed", "published", "diff%"))
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name)) as f:
            doc = json.load(f)
        keys = set(doc)
        missing = [k for k in REQUIRED_KEYS if k not in doc]
        extra = keys - set(REQUIRED_KEYS) - ALLOWED_EXTRA
        if missing or extra or doc["id"] + ".json" != name or doc["id"] != doc["id"].lower():
            print("MALFORMED %s missing=%s extra=%s" % (name, missing, sorted(extra)))
            bad = True
            continue
        r = count(doc["config"])
        computed = published_scope(doc, r)
        pub = doc["published_params"]
        diff = 100.0 * (computed - pub) / pub
        exact = doc.get("published_params_exact", True)
        flag = ""
        if abs(diff) > 0.5 or (exact and computed != pub):
            flag = "  <-- MISMATCH"
            bad = True
        print("%-40s %16d %16d %+8.4f%%%s" % (doc["id"], computed, pub, diff, flag))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
