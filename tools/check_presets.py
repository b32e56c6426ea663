#!/usr/bin/env python3
"""Dev tool (not part of the build): recompute each preset's parameter count from its config.json
and compare it with the published count stored beside it.

Usage: python3 tools/check_presets.py [data/models]   (exit 1 when a file is malformed)

The count follows the Hugging Face module layout of each model_type (weights and biases of every
nn.Linear / nn.Embedding / norm); see the comment on each branch. It is a cross-check for the data,
independent of the C++ core.
"""
import json
import os
import sys

REQUIRED_KEYS = ["id", "name", "family", "hf_repo", "source", "published_params",
                 "published_params_source", "published_params_note", "config"]
ALLOWED_EXTRA = {"config_note"}


GEMMA3_TEXT_DEFAULTS = {
    "vocab_size": 262208, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
    "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "tie_word_embeddings": True,
}


def g(c, *names, default=None):
    for n in names:
        if n in c and c[n] is not None:
            return c[n]
    return default


def attention_params(c, h, heads, kv, hd, qkv_bias, o_bias):
    q = h * heads * hd + (heads * hd if qkv_bias else 0)
    k = h * kv * hd + (kv * hd if qkv_bias else 0)
    v = h * kv * hd + (kv * hd if qkv_bias else 0)
    o = heads * hd * h + (h if o_bias else 0)
    return q + k + v + o


def gated_mlp(h, inter, bias=False):
    return 3 * h * inter + ((2 * inter + h) if bias else 0)


def siglip_vision(vc):
    """SigLIP vision tower as in transformers' SiglipVisionModel (Gemma 3 uses so400m/14 at 896)."""
    hv = vc["hidden_size"]
    inter = vc["intermediate_size"]
    layers = vc["num_hidden_layers"]
    patch = vc["patch_size"]
    image = vc["image_size"]
    chans = vc.get("num_channels", 3)
    emb = chans * patch * patch * hv + hv + (image // patch) ** 2 * hv
    per_layer = 4 * (hv * hv + hv) + 2 * (2 * hv) + (hv * inter + inter) + (inter * hv + hv)
    return emb + layers * per_layer + 2 * hv


def count(cfg):
    """Returns (total, active, vision, mtp) parameter counts."""
    mt = cfg.get("model_type")
    if "text_config" in cfg and mt in ("gemma3", "mistral3", "llama4"):
        tc = dict(cfg["text_config"])
        tc.setdefault("model_type", "gemma3_text")
        if mt == "gemma3":
            # Gemma 3 configs list only the text fields that differ from transformers'
            # Gemma3TextConfig defaults (transformers 4.50), so fill those in.
            for k, v in GEMMA3_TEXT_DEFAULTS.items():
                tc.setdefault(k, v)
        total, active, _, mtp = count(tc)
        vision = 0
        if mt == "gemma3":
            vision = siglip_vision(cfg["vision_config"])
            # multi_modal_projector: mm_input_projection_weight (vision hidden x text hidden)
            # + mm_soft_emb_norm (vision hidden)
            vision += cfg["vision_config"]["hidden_size"] * tc["hidden_size"] + cfg["vision_config"]["hidden_size"]
        return total + vision, active + vision, vision, mtp
    h = cfg["hidden_size"]
    L = cfg["num_hidden_layers"]
    V = cfg["vocab_size"]
    heads = cfg["num_attention_heads"]
    kv = g(cfg, "num_key_value_heads", default=heads)
    hd = g(cfg, "head_dim", default=h // heads)
    inter = g(cfg, "intermediate_size")
    tie = cfg.get("tie_word_embeddings", mt in ("gemma", "gemma2", "gemma3_text"))
    embed = V * h
    head = 0 if tie else V * h
    final_norm = h
    total = embed + head + final_norm
    active = total
    mtp = 0

    if mt in ("qwen2", "qwen2_moe", "qwen"):
        qkv_bias, o_bias = True, False
    elif mt in ("llama", "mistral", "mixtral", "qwen3", "qwen3_moe", "phi3", "gemma2", "gemma3_text"):
        qkv_bias = bool(cfg.get("attention_bias", False))
        o_bias = qkv_bias
    elif mt == "gpt_oss":
        qkv_bias = o_bias = True
    else:
        qkv_bias = bool(cfg.get("attention_bias", False))
        o_bias = qkv_bias

    if mt in ("llama", "mistral", "qwen2", "qwen3", "phi3"):
        attn = attention_params(cfg, h, heads, kv, hd, qkv_bias, o_bias)
        if mt == "qwen3":
            attn += 2 * hd  # q_norm, k_norm over head_dim
        mlp = gated_mlp(h, inter, bool(cfg.get("mlp_bias", False)))
        per = attn + mlp + 2 * h
        total += L * per
        active += L * per
    elif mt in ("gemma2", "gemma3_text"):
        attn = attention_params(cfg, h, heads, kv, hd, qkv_bias, o_bias)
        if mt == "gemma3_text":
            attn += 2 * hd
        per = attn + gated_mlp(h, inter) + 4 * h  # input, post_attention, pre_feedforward, post_feedforward norms
        total += L * per
        active += L * per
    elif mt == "mixtral":
        E = cfg["num_local_experts"]
        k = cfg["num_experts_per_tok"]
        attn = attention_params(cfg, h, heads, kv, hd, False, False)
        base = attn + 2 * h + h * E  # router
        total += L * (base + E * gated_mlp(h, inter))
        active += L * (base + k * gated_mlp(h, inter))
    elif mt in ("qwen2_moe", "qwen3_moe"):
        E = cfg["num_experts"]
        k = cfg["num_experts_per_tok"]
        mi = cfg["moe_intermediate_size"]
        sh = cfg.get("shared_expert_intermediate_size", 0) or 0
        step = cfg.get("decoder_sparse_step", 1) or 1
        dense_only = set(cfg.get("mlp_only_layers", []) or [])
        attn = attention_params(cfg, h, heads, kv, hd, qkv_bias, o_bias)
        if mt == "qwen3_moe":
            attn += 2 * hd
        for i in range(L):
            base = attn + 2 * h
            if i not in dense_only and E > 0 and (i + 1) % step == 0:
                shared = (gated_mlp(h, sh) + h) if sh else 0  # shared_expert + shared_expert_gate (h -> 1)
                total += base + h * E + E * gated_mlp(h, mi) + shared
                active += base + h * E + k * gated_mlp(h, mi) + shared
            else:
                total += base + gated_mlp(h, inter)
                active += base + gated_mlp(h, inter)
    elif mt == "qwen3_next":
        E = cfg["num_experts"]
        k = cfg["num_experts_per_tok"]
        mi = cfg["moe_intermediate_size"]
        sh = cfg["shared_expert_intermediate_size"]
        interval = cfg["full_attention_interval"]
        nk, nv = cfg["linear_num_key_heads"], cfg["linear_num_value_heads"]
        dk, dv = cfg["linear_key_head_dim"], cfg["linear_value_head_dim"]
        kern = cfg["linear_conv_kernel_dim"]
        key_dim, value_dim = nk * dk, nv * dv
        # Gated attention: q_proj emits query and output gate (2x), q_norm/k_norm over head_dim.
        full_attn = h * heads * hd * 2 + 2 * h * kv * hd + heads * hd * h + 2 * hd
        # Gated DeltaNet: in_proj_qkvz, in_proj_ba, depthwise conv1d (no bias), dt_bias, A_log,
        # gated RMSNorm over value head dim, out_proj.
        lin_attn = (h * (2 * key_dim + 2 * value_dim) + h * 2 * nv + (2 * key_dim + value_dim) * kern
                    + 2 * nv + dv + value_dim * h)
        moe_common = h * E + gated_mlp(h, sh) + h
        layer_types = cfg.get("layer_types") or [
            "full_attention" if (i + 1) % interval == 0 else "linear_attention" for i in range(L)]
        for i in range(L):
            a = full_attn if layer_types[i] == "full_attention" else lin_attn
            total += a + 2 * h + moe_common + E * gated_mlp(h, mi)
            active += a + 2 * h + moe_common + k * gated_mlp(h, mi)
    elif mt in ("deepseek_v3", "deepseek_v2"):
        E = cfg["n_routed_experts"]
        k = cfg["num_experts_per_tok"]
        ns = cfg.get("n_shared_experts", 0) or 0
        mi = cfg["moe_intermediate_size"]
        fk = cfg.get("first_k_dense_replace", 0)
        freq = cfg.get("moe_layer_freq", 1)
        ql = cfg.get("q_lora_rank")
        kl = cfg["kv_lora_rank"]
        rope, nope, vh = cfg["qk_rope_head_dim"], cfg["qk_nope_head_dim"], cfg["v_head_dim"]
        qh = nope + rope
        if ql:
            q = h * ql + ql + ql * heads * qh  # q_a_proj, q_a_layernorm, q_b_proj
        else:
            q = h * heads * qh
        attn = q + h * (kl + rope) + kl + kl * heads * (nope + vh) + heads * vh * h
        gate_bias = E if mt == "deepseek_v3" else 0  # e_score_correction_bias

        def layer(i):
            base = attn + 2 * h
            if i >= fk and i % freq == 0:
                common = base + h * E + gate_bias + ns * gated_mlp(h, mi)
                return common + E * gated_mlp(h, mi), common + k * gated_mlp(h, mi)
            d = base + gated_mlp(h, inter)
            return d, d
        for i in range(L):
            t, a = layer(i)
            total += t
            active += a
        n_mtp = cfg.get("num_nextn_predict_layers", 0) or 0
        for j in range(n_mtp):
            t, _ = layer(L + j)
            # enorm, hnorm, eh_proj (2h -> h), shared_head.norm; the checkpoint also stores
            # embed_tokens and shared_head.head copies inside the MTP layer.
            mtp += t + 2 * h + 2 * h * h + h + 2 * V * h
    elif mt == "gpt_oss":
        E = cfg["num_local_experts"]
        k = cfg.get("num_experts_per_tok", cfg.get("experts_per_token"))
        attn = attention_params(cfg, h, heads, kv, hd, True, True) + heads  # + attention sinks
        expert = h * 2 * inter + 2 * inter + inter * h + h  # gate_up_proj (+bias), down_proj (+bias)
        router = h * E + E
        base = attn + 2 * h + router
        total += L * (base + E * expert)
        active += L * (base + k * expert)
    else:
        raise ValueError("no counting rule for model_type %r" % mt)
    return total, active, 0, mtp


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "data", "models")
    bad = False
    rows = []
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
        total, active, vision, mtp = count(doc["config"])
        pub = doc["published_params"]
        rows.append((doc["id"], total, active, vision, mtp, pub))
    print("%-34s %16s %16s %16s %9s" % ("id", "computed", "published", "active", "diff%"))
    for mid, total, active, vision, mtp, pub in rows:
        diff = 100.0 * (total - pub) / pub
        extra = ""
        if mtp:
            extra = "  (+MTP %d = %d, diff %+.3f%%)" % (mtp, total + mtp, 100.0 * (total + mtp - pub) / pub)
        if vision:
            extra += "  (vision+projector %d)" % vision
        flag = "  <-- >0.5%" if abs(diff) > 0.5 and not (mtp and abs(100.0 * (total + mtp - pub) / pub) <= 0.5) else ""
        print("%-34s %16d %16d %16d %+8.3f%%%s%s" % (mid, total, pub, active, diff, extra, flag))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
