//! Version 2 share links (projects), and version 1 links opened as projects:
//! the frozen version 1 fixtures (copied from v1_links.rs, which stays
//! untouched) open as one-workload projects holding the very same plan.

use gpuplan_core::lang::Lang;
use gpuplan_core::project::Project;
use gpuplan_core::share::{decode, decode_project, encode_project};

const V1: [&str; 4] = [
    "v=1&m=llama-3.1-70b&w=fp8&ctx=32768&conc=16&g=4&tp=4&gpu=h200-sxm&tick=workload,nvlink&lang=zh&unit=gib",
    "v=1&t=train&m=llama-3.1-8b&meth=qlora&b=2&gc=full&cur=CNY&ed=lambda-h100:od:2.99\
&it=1200:CNY:0:%25E6%2595%25B0%25E6%258D%25AE%25E6%25A0%2587%25E6%25B3%25A8%2520%257C%2520labels\
&of=mine::My%25204090%2520box:rtx-4090:1:USD:0.4:",
    "v=1&m=custom&a.l=30&a.h=3584&a.nh=28&a.kv=4&a.i=18944&a.v=152064&kv=int8&eng=llama_cpp&lang=en",
    "v=1&t=train&m=llama-3.1-8b&meth=lora&gc=full&cce=1",
];

#[test]
fn every_v1_link_opens_as_a_one_workload_project() {
    for link in V1 {
        let plain = decode(link);
        let project = decode_project(link);
        assert_eq!(project.ignored, plain.ignored, "{link}");
        assert_eq!((project.lang, project.unit.clone()), (plain.lang, plain.unit.clone()));
        assert_eq!(project.project, Project::single(plain.plan.clone()), "{link}");
        // Written back, a one-workload project is its version 1 link.
        let again = encode_project(&project.project, plain.lang, plain.unit.as_deref());
        assert_eq!(decode(&again).plan, plain.plan, "{link}");
    }
}

/// The seed 002 §7 project in one link: reopened, the same budget.
#[test]
fn the_gallery_project_reopens_to_the_same_budget() {
    let ex = gpuplan_core::examples::projects().remove(0);
    let link = encode_project(&ex.project, None, None);
    let back = decode_project(&link);
    assert_eq!(back.ignored, vec![]);
    let offers = gpuplan_core::offers::defaults();
    let a = gpuplan_core::budget::evaluate(&ex.project, &offers, Lang::En).expect("valid");
    let b = gpuplan_core::budget::evaluate(&back.project, &offers, Lang::En).expect("valid");
    assert_eq!(a.budget, b.budget);
}
