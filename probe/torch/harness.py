# SPDX-License-Identifier: MIT
"""Ground truth on a real GPU: memory and speed of Hugging Face transformers models with random weights.

Builds each model from a config.json (probe/torch/configs/*.json, nothing downloaded), then measures
  * generation at several prompt lengths and one batch size: torch.cuda.max_memory_allocated (the
    tensors' peak), max_memory_reserved, nvidia-smi's used memory (adds the CUDA context and allocator
    cache), time to first token, and decode tokens/s;
  * one LoRA training step and one full training step: the same memory figures and tokens/s;
and writes rows in the schema of the project's shared/validation/measurements.json
({id, source, source_section, kind, model, model_ref, setting, measured, notes}) to
data/validation/measured-<gpu>.json, rewriting the file after every row so a partial run keeps its rows.

Needs: a CUDA GPU, torch, transformers (>= 4.43 for Llama 3.1's rope_scaling), peft, nvidia-smi.
See probe/README.md ("Ground truth on a GPU") for how to run it.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
MiB = 1024 * 1024


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--configs", nargs="+", type=Path,
                   default=sorted((HERE / "configs").glob("*.json")),
                   help="model files {model, model_ref, source, config} (default: all in probe/torch/configs)")
    p.add_argument("--prompt-lengths", default="128,1024,4096,16384",
                   help="comma-separated prompt lengths in tokens (default: %(default)s)")
    p.add_argument("--batch", type=int, default=1, help="sequences generated at once (default: %(default)s)")
    p.add_argument("--new-tokens", type=int, default=64, help="tokens generated per sequence (default: %(default)s)")
    p.add_argument("--dtype", choices=["bf16", "fp16"], default="bf16", help="weights and compute type")
    p.add_argument("--attn", default="sdpa", help="attn_implementation: sdpa, eager, flash_attention_2")
    p.add_argument("--train-seq-len", type=int, default=1024, help="tokens per training sequence")
    p.add_argument("--train-micro-batch", type=int, default=1, help="sequences per training step")
    p.add_argument("--lora-rank", type=int, default=16)
    p.add_argument("--no-gradient-checkpointing", action="store_true",
                   help="train without gradient checkpointing (default: with)")
    p.add_argument("--full-train-max-params", type=float, default=2.0e9,
                   help="run the full training step only for models up to this many parameters "
                        "(mixed precision AdamW needs about 16 bytes per parameter; default %(default)g)")
    p.add_argument("--skip-training", action="store_true", help="generation only")
    p.add_argument("--output", type=Path, default=None,
                   help="default: data/validation/measured-<gpu>.json in the repository")
    p.add_argument("--device", default="cuda", help="torch device (cpu only for a smoke test of the code)")
    p.add_argument("--check-configs", action="store_true",
                   help="only check the model files (no torch needed): fields present, and the parameter count "
                        "from the config within 1%% of the published one; exit 1 otherwise")
    p.add_argument("--tiny", action="store_true",
                   help="shrink every config to 2 layers of width 64 (smoke test of the harness itself)")
    return p.parse_args(argv)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True, timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def nvidia_smi_used_bytes():
    """Device memory in use as nvidia-smi reports it (MiB -> bytes), for the first visible GPU; None if unavailable."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0].strip() or "0"
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits", "-i", visible],
                             capture_output=True, text=True, check=True, timeout=20)
        return int(float(out.stdout.strip().splitlines()[0])) * MiB
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def load_model_file(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)
    for key in ("model", "model_ref", "source", "config"):
        if key not in spec:
            raise ValueError(f"{path}: missing '{key}'")
    return spec


def count_params(c: dict) -> int:
    """Parameters of a dense Llama/Qwen2-style decoder from its config.json: embeddings, per layer q/k/v/o
    (q/k/v biases for qwen2, or when attention_bias), a gated MLP (gate, up, down) and two RMSNorms, the
    final norm, and the output head unless tied to the embeddings."""
    h, layers, vocab = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    heads = c["num_attention_heads"]
    head_dim = c.get("head_dim") or h // heads
    kv_dim = c.get("num_key_value_heads", heads) * head_dim
    q_dim = heads * head_dim
    bias = c["model_type"] == "qwen2" or c.get("attention_bias", False)
    attn = h * q_dim + 2 * h * kv_dim + q_dim * h + ((q_dim + 2 * kv_dim) if bias else 0)
    mlp = 3 * h * c["intermediate_size"]
    per_layer = attn + mlp + 2 * h
    head = 0 if c.get("tie_word_embeddings", False) else vocab * h
    return vocab * h + layers * per_layer + h + head


def check_configs(paths) -> bool:
    ok = True
    for path in paths:
        try:
            spec = load_model_file(path)
            params = count_params(spec["config"])
            published = spec.get("params_published")
            good = published is None or abs(params - published) <= 0.01 * published
            print(f"{path.name}: {params / 1e9:.3f}B parameters from the config"
                  + (f", published {published / 1e9:.2f}B" if published else "") + ("" if good else "  MISMATCH"))
            ok &= good
        except (OSError, ValueError, KeyError) as e:
            print(f"{path}: {e}")
            ok = False
    return ok


def shrink(config: dict) -> dict:
    """A 2-layer, 64-wide copy of `config` with the same structure (for --tiny)."""
    small = dict(config)
    heads = 4
    kv = max(1, heads // max(1, config["num_attention_heads"] // config.get("num_key_value_heads", config["num_attention_heads"])))
    small.update(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=heads,
                 num_key_value_heads=kv, vocab_size=1024, max_window_layers=2)
    if "head_dim" in small:
        small["head_dim"] = 16
    return small


class Runner:
    def __init__(self, args):
        import torch  # imported here so --help works without torch

        self.torch = torch
        self.args = args
        self.device = torch.device(args.device)
        self.dtype = torch.bfloat16 if args.dtype == "bf16" else torch.float16
        self.cuda = self.device.type == "cuda"
        if self.cuda and not torch.cuda.is_available():
            sys.exit("no CUDA device visible to torch; this harness measures GPUs (use --device cpu --tiny to smoke-test)")
        self.gpu_name = torch.cuda.get_device_name(self.device) if self.cuda else "cpu"
        self.versions = self._versions()
        self.commit = git_commit()
        self.rows = []
        default_name = f"measured-{slug(self.gpu_name)}.json"
        self.output = args.output or (REPO / "data" / "validation" / default_name)

    def _versions(self):
        import peft
        import transformers

        v = {"torch": self.torch.__version__, "transformers": transformers.__version__, "peft": peft.__version__,
             "python": sys.version.split()[0]}
        if self.cuda:
            v["cuda"] = self.torch.version.cuda
        return v

    # --- bookkeeping -------------------------------------------------------------------------------
    def write(self):
        self.output.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.output.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.rows, indent=1, sort_keys=False) + "\n", encoding="utf-8")
        tmp.replace(self.output)

    def add_row(self, row):
        self.rows.append(row)
        self.write()
        print(json.dumps({"id": row["id"], "measured": row["measured"]}), flush=True)

    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize(self.device)

    def reset_peak(self):
        gc.collect()
        if self.cuda:
            self.torch.cuda.empty_cache()
            self.torch.cuda.reset_peak_memory_stats(self.device)

    def memory(self):
        """The memory figures of a row (bytes)."""
        if not self.cuda:
            return {}
        t = self.torch.cuda
        out = {"max_memory_allocated_bytes": int(t.max_memory_allocated(self.device)),
               "max_memory_reserved_bytes": int(t.max_memory_reserved(self.device))}
        used = nvidia_smi_used_bytes()
        if used is not None:
            out["nvidia_smi_used_bytes"] = used
        return out

    def base_setting(self, extra):
        setting = {"framework": "transformers", "framework_versions": self.versions, "precision": self.args.dtype,
                   "quantization": self.args.dtype, "attention": self.args.attn, "gpu": self.gpu_name,
                   "gpu_count": 1, "weights": "random (built from config.json, nothing downloaded)"}
        setting.update(extra)
        return setting

    def row(self, spec, kind, section, key, setting, measured, notes):
        return {
            "id": f"probe-torch-{slug(self.gpu_name)}-{slug(spec['model'])}-{key}",
            "source": f"llmsizer probe/torch/harness.py at commit {self.commit}",
            "source_section": section,
            "kind": kind,
            "model": spec["model"],
            "model_ref": spec["model_ref"],
            "setting": setting,
            "measured": measured,
            "notes": notes,
        }

    # --- models ------------------------------------------------------------------------------------
    def build(self, spec):
        from transformers import AutoConfig, AutoModelForCausalLM

        cfg = dict(spec["config"])
        if self.args.tiny:
            cfg = shrink(cfg)
        model_type = cfg.pop("model_type")
        cfg.pop("architectures", None)
        cfg.pop("torch_dtype", None)
        config = AutoConfig.for_model(model_type, **cfg)
        with self.torch.device(self.device):
            try:
                model = AutoModelForCausalLM.from_config(config, torch_dtype=self.dtype, attn_implementation=self.args.attn)
            except TypeError:  # older transformers without attn_implementation in from_config
                model = AutoModelForCausalLM.from_config(config, torch_dtype=self.dtype)
        return model.to(self.device)

    def free(self):
        """Returns freed tensors' memory to the device (callers drop their references first)."""
        gc.collect()
        if self.cuda:
            self.torch.cuda.empty_cache()

    def is_oom(self, e):
        return isinstance(e, self.torch.cuda.OutOfMemoryError) or "out of memory" in str(e).lower()

    # --- generation --------------------------------------------------------------------------------
    def generation(self, spec):
        torch = self.torch
        args = self.args
        model = self.build(spec).eval()
        params = sum(p.numel() for p in model.parameters())
        self.reset_peak()
        weights_bytes = int(torch.cuda.memory_allocated(self.device)) if self.cuda else 0
        vocab = model.config.vocab_size
        for length in [int(x) for x in args.prompt_lengths.split(",") if x.strip()]:
            setting = self.base_setting({"input_len": length, "output_len": args.new_tokens, "batch": args.batch})
            key = f"gen-in{length}-out{args.new_tokens}-b{args.batch}"
            notes = ("Random weights, greedy decoding forced to exactly output_len tokens (min_new_tokens). Bytes "
                     "are exact integers: max_memory_allocated is the tensors' peak (weights included), "
                     "nvidia_smi_used_bytes is read right after generation and adds the CUDA context and the "
                     "allocator's cache. decode_tokens_per_s = batch x (output_len - 1) / (generation time - time "
                     "to first token); prefill_tokens_per_s = batch x input_len / time to first token.")
            ids = torch.randint(0, vocab, (args.batch, length), device=self.device)
            mask = torch.ones_like(ids)
            gen = dict(do_sample=False, pad_token_id=0, use_cache=True)
            try:
                with torch.inference_mode():
                    model.generate(input_ids=ids[:, :8], attention_mask=mask[:, :8], max_new_tokens=2, **gen)  # warm-up
                    self.reset_peak()
                    self.sync()
                    t0 = time.perf_counter()
                    model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=1, min_new_tokens=1, **gen)
                    self.sync()
                    ttft = time.perf_counter() - t0
                    t0 = time.perf_counter()
                    out = model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=args.new_tokens,
                                         min_new_tokens=args.new_tokens, **gen)
                    self.sync()
                    total = time.perf_counter() - t0
                generated = out.shape[1] - length
                measured = self.memory()
                measured.update({
                    "weights_allocated_bytes": weights_bytes,
                    "params": params,
                    "generated_tokens": int(generated),
                    "time_to_first_token_s": round(ttft, 5),
                    "generation_s": round(total, 5),
                    "prefill_tokens_per_s": round(args.batch * length / ttft, 2),
                    "decode_tokens_per_s": round(args.batch * max(generated - 1, 1) / max(total - ttft, 1e-9), 2),
                })
                del out
            except RuntimeError as e:
                if not self.is_oom(e):
                    raise
                measured = {"oom": True, "error": str(e).splitlines()[0][:300]}
            self.add_row(self.row(spec, "inference", "generation sweep", key, setting, measured, notes))
            del ids, mask
            self.free()
        del model
        self.free()

    # --- training ----------------------------------------------------------------------------------
    def training(self, spec, method):
        torch = self.torch
        args = self.args
        model = self.build(spec)
        params = sum(p.numel() for p in model.parameters())
        precision = "mixed-bf16" if method == "full" else args.dtype
        if method == "full":
            if params > args.full_train_max_params:
                del model
                self.free()
                print(f"skip full training of {spec['model']}: {params:.3g} params > --full-train-max-params", flush=True)
                return
            # Mixed precision as in the contract's "mixed-bf16": fp32 master weights, grads and AdamW states,
            # bf16 autocast for the compute.
            model = model.float()
        else:
            from peft import LoraConfig, get_peft_model

            targets = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
            model = get_peft_model(model, LoraConfig(r=args.lora_rank, lora_alpha=2 * args.lora_rank, lora_dropout=0.0,
                                                     target_modules=targets, task_type="CAUSAL_LM"))
        checkpointing = not args.no_gradient_checkpointing
        if checkpointing:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
            if method != "full":
                model.enable_input_require_grads()
        model.config.use_cache = False
        model.train()
        trainable = [p for p in model.parameters() if p.requires_grad]
        optimizer = torch.optim.AdamW(trainable, lr=1e-5)
        vocab = model.config.vocab_size
        ids = torch.randint(0, vocab, (args.train_micro_batch, args.train_seq_len), device=self.device)
        setting = self.base_setting({
            "method": method, "precision": precision, "seq_len": args.train_seq_len,
            "micro_batch": args.train_micro_batch, "optimizer": "torch.optim.AdamW",
            "grad_checkpointing": checkpointing,
        })
        if method == "lora":
            setting.update(lora_rank=args.lora_rank, lora_alpha=2 * args.lora_rank, lora_target_modules=targets)
        notes = ("Two optimizer steps on random tokens; memory is the peak over both (the first creates AdamW's "
                 "states), tokens_per_s is from the second. Bytes are exact integers; nvidia_smi_used_bytes is read "
                 "after the steps and adds the CUDA context and allocator cache.")

        def step():
            with torch.autocast(device_type=self.device.type, dtype=self.dtype, enabled=(method == "full")):
                loss = model(input_ids=ids, labels=ids).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)

        try:
            self.reset_peak()
            step()
            self.sync()
            t0 = time.perf_counter()
            step()
            self.sync()
            seconds = time.perf_counter() - t0
            measured = self.memory()
            measured.update({
                "params": params,
                "trainable_params": sum(p.numel() for p in trainable),
                "step_s": round(seconds, 5),
                "tokens_per_s": round(args.train_micro_batch * args.train_seq_len / seconds, 2),
            })
        except RuntimeError as e:
            if not self.is_oom(e):
                raise
            measured = {"oom": True, "error": str(e).splitlines()[0][:300]}
        key = f"train-{method}-seq{args.train_seq_len}-mb{args.train_micro_batch}"
        self.add_row(self.row(spec, "training", f"{method} training step", key, setting, measured, notes))
        del optimizer, model, ids, trainable
        self.free()

    def run(self):
        for path in self.args.configs:
            spec = load_model_file(path)
            print(f"== {spec['model']} ({path.name}) on {self.gpu_name}", flush=True)
            self.generation(spec)
            if not self.args.skip_training:
                self.training(spec, "lora")
                self.training(spec, "full")
        print(f"wrote {len(self.rows)} rows to {self.output}")


def main(argv=None):
    args = parse_args(argv)
    if args.check_configs:
        sys.exit(0 if check_configs(args.configs) else 1)
    Runner(args).run()


if __name__ == "__main__":
    main()
