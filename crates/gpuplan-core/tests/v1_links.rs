//! Version 1 share links, frozen as written on 2026-12-03. Links live in chat
//! logs, tickets and wikis: whatever the format becomes, these must keep
//! opening to the same plan. Never edit a fixture; add new ones beside them.

use gpuplan_core::cost::PriceKey;
use gpuplan_core::lang::Lang;
use gpuplan_core::model::ModelSpec;
use gpuplan_core::model::WeightFormat;
use gpuplan_core::money::Currency;
use gpuplan_core::plan::{Engine, GradCkpt, KvDtype, Method, Shard, Task};
use gpuplan_core::share::{decode, Link};

/// A 70B model served in FP8 on four H200s, with two checklist ticks.
const SERVE_70B: &str =
    "v=1&m=llama-3.1-70b&w=fp8&ctx=32768&conc=16&g=4&tp=4&gpu=h200-sxm&tick=workload,nvlink&lang=zh&unit=gib";

/// QLoRA priced in CNY with an edited price, an own cost item and an own offer.
const QLORA_CNY: &str = "v=1&t=train&m=llama-3.1-8b&meth=qlora&b=2&gc=full&cur=CNY&ed=lambda-h100:od:2.99\
&it=1200:CNY:0:%25E6%2595%25B0%25E6%258D%25AE%25E6%25A0%2587%25E6%25B3%25A8%2520%257C%2520labels\
&of=mine::My%25204090%2520box:rtx-4090:1:USD:0.4:";

/// A custom model shape on llama.cpp with an 8-bit cache.
const CUSTOM_SHAPE: &str =
    "v=1&m=custom&a.l=30&a.h=3584&a.nh=28&a.kv=4&a.i=18944&a.v=152064&kv=int8&eng=llama_cpp&lang=en";

fn open(link: &str) -> Link {
    let l = decode(link);
    assert_eq!(l.ignored, vec![], "{link}");
    assert!(gpuplan_core::report::evaluate(&l.plan, Lang::En).is_ok(), "{link}");
    l
}

#[test]
fn serving_link_opens_to_the_same_plan() {
    let l = open(SERVE_70B);
    let p = &l.plan;
    assert_eq!(p.task, Task::Infer);
    assert_eq!(p.model, ModelSpec::Preset { id: "llama-3.1-70b".into() });
    assert_eq!(p.inference.weights, WeightFormat::Fp8);
    assert_eq!((p.inference.context, p.inference.concurrency), (32768, 16));
    assert_eq!((p.parallel.gpus, p.parallel.tp, p.parallel.pp), (4, 4, 1));
    assert_eq!(p.hardware.gpu, "h200-sxm");
    assert_eq!(p.ticks, ["workload", "nvlink"]);
    assert_eq!((l.lang, l.unit.as_deref()), (Some(Lang::Zh), Some("gib")));
}

#[test]
fn training_link_keeps_its_money() {
    let p = open(QLORA_CNY).plan;
    assert_eq!(p.task, Task::Train);
    assert_eq!(p.training.method, Method::Qlora);
    assert_eq!((p.training.batch, p.training.grad_ckpt), (2, GradCkpt::Full));
    assert_eq!(p.parallel.shard, Shard::None);
    assert_eq!(p.cost.currency, Currency::Cny);
    let edit = p.cost.edits.first().expect("one edit");
    assert_eq!((edit.id.as_str(), edit.key, edit.value), ("lambda-h100", PriceKey::Od, 2.99));
    let item = p.cost.items.first().expect("one item");
    assert_eq!(
        (item.name.as_str(), item.amount, item.currency, item.monthly),
        ("数据标注 | labels", 1200.0, Currency::Cny, false)
    );
    let offer = p.cost.offers.first().expect("one offer");
    assert_eq!(
        (offer.id.as_ref(), offer.name.as_ref(), offer.gpu.as_ref(), offer.gpus),
        ("mine", "My 4090 box", "rtx-4090", 1)
    );
    assert_eq!(offer.od.as_ref().map(|o| o.hourly), Some(0.4));
}

#[test]
fn custom_shape_link_keeps_its_shape() {
    let p = open(CUSTOM_SHAPE).plan;
    let arch = p.model.custom().expect("a custom shape");
    assert_eq!((arch.layers, arch.hidden, arch.heads, arch.kv_heads), (30, 3584, 28, 4));
    assert_eq!((arch.intermediate, arch.vocab), (18944, 152064));
    assert_eq!((p.inference.engine, p.inference.kv_dtype), (Engine::LlamaCpp, KvDtype::Int8));
}

/// A v1 link from before the loss options: `cce=1` was the chunked-loss switch.
const CHUNKED_CE: &str = "v=1&t=train&m=llama-3.1-8b&meth=lora&gc=full&cce=1";

#[test]
fn chunked_ce_switch_opens_as_the_chunked_loss() {
    let p = open(CHUNKED_CE).plan;
    assert_eq!(p.training.loss, gpuplan_core::plan::Loss::Chunked);
    assert_eq!(open("v=1&t=train&cce=0").plan.training.loss, gpuplan_core::plan::Loss::HfTrainer);
}
