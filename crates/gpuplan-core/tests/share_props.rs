//! Share links: plan -> link -> plan is the identity, and no input string,
//! however hostile, makes decoding panic or yield an invalid plan.

use gpuplan_core::model::WeightFormat;
use gpuplan_core::model::{Arch, Generic, ModelSpec};
use gpuplan_core::plan::*;
use gpuplan_core::share::{decode, encode};
use proptest::prelude::*;

fn weights() -> impl Strategy<Value = WeightFormat> {
    prop_oneof![
        Just(WeightFormat::Bf16),
        Just(WeightFormat::Fp8),
        Just(WeightFormat::Nf4),
        Just(WeightFormat::GgufQ4KM),
        Just(WeightFormat::Mxfp4)
    ]
}

fn model() -> impl Strategy<Value = ModelSpec> {
    prop_oneof![
        Just(ModelSpec::default()),
        (1u32..200, 0u32..6, 1.0e6f64..1.0e12, any::<bool>()).prop_map(|(layers, kv, params, tied)| {
            ModelSpec::Custom {
                arch: Arch {
                    layers,
                    kv_heads: 1 << kv,
                    params: Some(params),
                    tied_embeddings: tied,
                    ..Arch::default()
                },
            }
        }),
        (1.0f64..1.0e12, 0.0f64..100.0).prop_map(|(params, act)| ModelSpec::Generic {
            generic: Generic { params, activation_gb: act, ..Generic::default() }
        }),
    ]
}

prop_compose! {
    fn plan()(
        train in any::<bool>(),
        model in model(),
        w in weights(),
        ctx in 1u64..10_000_000,
        conc in 1u64..100_000,
        util in 0.05f64..1.0,
        seq in 1u64..1_000_000,
        batch in 1u64..1000,
        mfu in 0.01f64..1.0,
        gpus in 1u32..10_000,
        headroom in 0.0f64..90.0,
        months in 0.1f64..36.0,
        ticks in proptest::collection::vec("[a-z0-9_.-]{1,12}", 0..5),
    ) -> Plan {
        let mut p = Plan { task: if train { Task::Train } else { Task::Infer }, model, ..Plan::default() };
        p.inference.weights = w;
        p.inference.context = ctx;
        p.inference.concurrency = conc;
        p.inference.gpu_mem_util = util;
        p.training.seq = seq;
        p.training.batch = batch;
        p.training.mfu = Some(mfu);
        p.parallel.gpus = gpus;
        p.hardware.headroom_pct = headroom;
        p.cost.months = months;
        p.ticks = ticks;
        p
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn link_round_trip_is_identity(p in plan()) {
        let link = decode(&encode(&p, None, None));
        prop_assert_eq!(link.ignored, vec![]);
        prop_assert_eq!(link.plan, p);
    }

    #[test]
    fn any_text_decodes_to_a_valid_plan(s in "\\PC{0,200}") {
        let link = decode(&s);
        prop_assert!(link.plan.validate().is_empty(), "{:?}", link.plan.validate());
    }

    #[test]
    fn key_value_soup_decodes_to_a_valid_plan(
        pairs in proptest::collection::vec(("[a-z.]{1,5}", "[-0-9a-z.,:%e]{0,12}"), 0..30)
    ) {
        let q: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let link = decode(&q.join("&"));
        prop_assert!(link.plan.validate().is_empty(), "{:?}", link.plan.validate());
    }
}
